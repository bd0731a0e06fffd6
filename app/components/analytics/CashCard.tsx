/**
 * Analytics' cash: what the platform paid and what came back in the period, what
 * it owes today by days since delivery (each band opens its parcels), and the
 * cash ledger of the period as CSV.
 */
import { BlockStack, Button, Card, InlineStack, Text } from "@shopify/polaris";
import { useFormat, useT } from "../../i18n/react";
import type { CashForPeriod } from "../../analytics/cash-report.server";
import { CashAgeBands } from "../cash/CashAgeBands";
import { money } from "./format";

export function CashCard({
  cash,
  onExport,
  exporting,
}: {
  cash: CashForPeriod;
  onExport: () => void;
  exporting: boolean;
}) {
  const t = useT();
  const format = useFormat();
  const { paid, returned } = cash.current;
  return (
    <Card>
      <BlockStack gap="300">
        <InlineStack align="space-between" blockAlign="center" gap="200">
          <Text as="h2" variant="headingMd">
            {t("analytics.cash.title")}
          </Text>
          <InlineStack gap="200">
            <Button url="/app/cash">{t("analytics.cash.list")}</Button>
            <Button onClick={onExport} loading={exporting}>
              {t("analytics.exportCash")}
            </Button>
          </InlineStack>
        </InlineStack>
        <Text as="p">
          <span data-cash-period="paid">{t("analytics.cash.paid", { amount: money(format, paid.profitCents) })}</span>
          {` (${t("cash.summary.parcels", { count: paid.parcels })})`}
        </Text>
        <Text as="p">
          <span data-cash-period="returned">
            {t("analytics.cash.returned", { amount: money(format, returned.totalCents) })}
          </span>
          {` (${t("cash.summary.parcels", { count: returned.parcels })})`}
        </Text>
        <CashAgeBands byAge={cash.byAge} title={t("analytics.cash.owedToday")} />
      </BlockStack>
    </Card>
  );
}
