/** The period's headline figures, each beside its value in the previous period. */
import type { ReactNode } from "react";
import { BlockStack, Card, InlineGrid, Text } from "@shopify/polaris";
import { useFormat, useT } from "../../i18n/react";
import type { Summary } from "../../analytics/report";
import { days, integer, money, percent } from "./format";
import { RateText } from "./RateText";

function Figure({ id, label, value, previous }: { id: string; label: string; value: ReactNode; previous: string }) {
  const t = useT();
  return (
    <Card>
      <BlockStack gap="100">
        <Text as="h3" variant="headingSm" tone="subdued">
          {label}
        </Text>
        <Text as="p" variant="headingLg">
          <span data-figure={id}>{value}</span>
        </Text>
        <Text as="p" variant="bodySm" tone="subdued">
          {t("analytics.figure.previous", { value: previous })}
        </Text>
      </BlockStack>
    </Card>
  );
}

export function KeyFigures({ current, previous }: { current: Summary; previous: Summary }) {
  const t = useT();
  const format = useFormat();
  return (
    <BlockStack gap="200">
    <Text as="h2" variant="headingMd">
      {t("analytics.figures.title")}
    </Text>
    <InlineGrid columns={{ xs: 1, sm: 2, md: 5 }} gap="300">
      <Figure id="orders" label={t("analytics.figure.orders")} value={integer(format, current.steps.orders)} previous={integer(format, previous.steps.orders)} />
      <Figure
        id="deliveryRate"
        label={t("analytics.figure.deliveryRate")}
        value={<RateText rate={current.deliveryRate} of="analytics.rate.deliveredOfShipped" />}
        previous={percent(format, t, previous.deliveryRate)}
      />
      <Figure id="collected" label={t("analytics.figure.collected")} value={money(format, current.collectedCents)} previous={money(format, previous.collectedCents)} />
      <Figure id="profit" label={t("analytics.figure.profit")} value={money(format, current.profitCents)} previous={money(format, previous.profitCents)} />
      <Figure
        id="medianDays"
        label={t("analytics.figure.medianDays")}
        value={days(format, t, current.medianDeliveryDays)}
        previous={days(format, t, previous.medianDeliveryDays)}
      />
    </InlineGrid>
    </BlockStack>
  );
}
