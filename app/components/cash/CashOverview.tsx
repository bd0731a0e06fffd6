/**
 * Home's cash: "Owed by the platform: 18,450 MAD, of which 2,300 MAD for 15 days
 * or more" (DH if the shop chose it), linking to those parcels, and the overdue
 * alert when parcels stay unpaid past the merchant's threshold. Nothing until the
 * ledger has a parcel.
 */
import { Banner, BlockStack, Button, Card, InlineStack, Layout, Text } from "@shopify/polaris";
import { useFormat, useT } from "../../i18n/react";
import { LONG_WAIT_DAYS } from "../../analytics/cash";
import { cashSearch } from "../../analytics/cash-query";
import type { CashOverview as Overview } from "../../analytics/cash-report.server";

const listUrl = (minAge: number | null) => `/app/cash?${cashSearch({ state: "owed", minAge })}`;

export function CashOverview({ cash }: { cash: Overview }) {
  const t = useT();
  const format = useFormat();
  if (!cash.hasLedger) return null;
  const { owed, longWait, overdue, overdueDays } = cash;
  return (
    <Layout.Section>
      <BlockStack gap="400">
        {overdue.parcels > 0 ? (
          <div data-cash-alert="overdue">
            <Banner
              tone="warning"
              title={t("home.cash.overdue.title", { count: overdue.parcels, days: overdueDays })}
              action={{ content: t("home.cash.overdue.action"), url: listUrl(overdueDays + 1) }}
            >
              <p>{t("home.cash.overdue.body", { amount: format.money(overdue.profitCents) })}</p>
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
                    <span data-cash="owed">{t("home.cash.owed", { amount: format.money(owed.profitCents) })}</span>
                    {longWait.parcels > 0 ? (
                      <>
                        {", "}
                        <span data-cash="long-wait">
                          {t("home.cash.ofWhich", {
                            amount: format.money(longWait.profitCents),
                            days: LONG_WAIT_DAYS,
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
                    {longWait.parcels > 0 ? (
                      <Button url={listUrl(LONG_WAIT_DAYS)} variant="primary">
                        {t("home.cash.seeLongWait", { days: LONG_WAIT_DAYS })}
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
