/**
 * Home's cash: "Owed by the platform: 18,450 MAD, of which 2,300 MAD overdue
 * (delivered more than 14 days ago)" (DH if the shop chose it), linking to those
 * parcels, and the overdue alert above it: both count the parcels past the
 * merchant's threshold, in the same words. Nothing until the ledger has a parcel.
 */
import { Banner, BlockStack, Button, Card, InlineStack, Layout, Text } from "@shopify/polaris";
import { useFormat, useT } from "../../i18n/react";
import { cashSearch } from "../../analytics/cash-query";
import type { CashOverview as Overview } from "../../analytics/cash-report.server";

const listUrl = (minAge: number | null) => `/app/cash?${cashSearch({ state: "owed", minAge })}`;

export function CashOverview({ cash }: { cash: Overview }) {
  const t = useT();
  const format = useFormat();
  if (!cash.hasLedger) return null;
  const { owed, overdue, overdueDays } = cash;
  // Past the threshold: more than overdueDays days since delivery.
  const overdueUrl = listUrl(overdueDays + 1);
  return (
    <Layout.Section>
      <BlockStack gap="400">
        {overdue.parcels > 0 ? (
          <div data-cash-alert="overdue">
            <Banner
              tone="warning"
              title={t("home.cash.overdue.title", { count: overdue.parcels, days: overdueDays })}
              action={{ content: t("home.cash.overdue.action"), url: overdueUrl }}
            >
              <p>{t("home.cash.overdue.body", { amount: format.money(overdue.profitCents, { whole: true }) })}</p>
            </Banner>
          </div>
        ) : null}
        <Card>
          <div data-cash-card="">
            <BlockStack gap="200">
              <Text as="h2" variant="headingMd">
                {t("home.cash.title")}
              </Text>
              {owed.parcels > 0 ? (
                <>
                  <Text as="p" variant="headingLg">
                    <span data-cash="owed">
                      {t("home.cash.owed", { amount: format.money(owed.profitCents, { whole: true }) })}
                    </span>
                    {overdue.parcels > 0 ? (
                      <>
                        {", "}
                        <span data-cash="overdue">
                          {t("home.cash.ofWhich", {
                            amount: format.money(overdue.profitCents, { whole: true }),
                            days: overdueDays,
                          })}
                        </span>
                      </>
                    ) : null}
                  </Text>
                  <Text as="p" tone="subdued">
                    {t("home.cash.parcels", { count: owed.parcels })}{" "}
                    {owed.unknownProfit > 0 ? t("cash.summary.unknownProfit", { count: owed.unknownProfit }) : null}
                  </Text>
                  <InlineStack gap="200">
                    {overdue.parcels > 0 ? (
                      <Button url={overdueUrl} variant="primary">
                        {t("home.cash.overdue.action")}
                      </Button>
                    ) : null}
                    <Button url={listUrl(null)}>{t("home.cash.seeAll")}</Button>
                  </InlineStack>
                </>
              ) : (
                <Text as="p">{t("home.cash.nothingOwed")}</Text>
              )}
            </BlockStack>
          </div>
        </Card>
      </BlockStack>
    </Layout.Section>
  );
}
