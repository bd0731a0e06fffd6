/** What the platform owes by days since delivery, each band opening its parcels in the cash list. */
import { useNavigate } from "@remix-run/react";
import { BlockStack, Button, InlineGrid, Text } from "@shopify/polaris";
import { useFormat, useT } from "../../i18n/react";
import type { MessageKey } from "../../i18n";
import { AGE_BUCKETS, type AgeBucketId, type CashSums } from "../../analytics/cash";
import { cashSearch } from "../../analytics/cash-query";

export function CashAgeBands({
  byAge,
  active = null,
  title,
  level = "h3",
}: {
  byAge: Record<AgeBucketId, CashSums>;
  active?: string | null;
  title: string;
  /** The title's heading level where the bands stand (the page's outline). */
  level?: "h2" | "h3";
}) {
  const t = useT();
  const format = useFormat();
  const navigate = useNavigate();
  return (
    <BlockStack gap="200">
      <Text as={level} variant="headingSm">
        {title}
      </Text>
      <InlineGrid columns={{ xs: 1, sm: 2, md: 4 }} gap="200">
        {AGE_BUCKETS.map((band) => {
          const sums = byAge[band.id];
          return (
            <div key={band.id} data-age-band={band.id}>
              <Button
                fullWidth
                textAlign="start"
                pressed={active === band.id}
                onClick={() =>
                  navigate(`/app/cash?${cashSearch({ state: "owed", minAge: band.minAge, maxAge: band.maxAge })}`)
                }
              >
                {t("cash.age.band", {
                  band: t(`cash.age.${band.id}` as MessageKey),
                  amount: format.money(sums.profitCents, { whole: true }),
                  parcels: t("cash.summary.parcels", { count: sums.parcels }),
                })}
              </Button>
            </div>
          );
        })}
      </InlineGrid>
    </BlockStack>
  );
}
