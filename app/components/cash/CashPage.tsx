/**
 * Cash: the parcels the platform has not paid yet (by days since delivery), has
 * paid, or got back, with their amounts, from the cash ledger; CSV of any view.
 */
import { useLoaderData, useNavigate } from "@remix-run/react";
import {
  Banner,
  BlockStack,
  Button,
  ButtonGroup,
  Card,
  InlineStack,
  Layout,
  Page,
  Pagination,
  Text,
} from "@shopify/polaris";
import type { cashPageData } from "../../pages/cash-page.server";
import { CASH_STATES, type CashState } from "../../analytics/cash";
import { cashSearch } from "../../analytics/cash-query";
import { useFormat, useLocale, useT } from "../../i18n/react";
import { useDownload } from "../useDownload";
import { CashAgeBands } from "./CashAgeBands";
import { CashParcelsTable } from "./CashParcelsTable";

const EMPTY: Record<CashState, "cash.empty.owed" | "cash.empty.paid" | "cash.empty.returned"> = {
  owed: "cash.empty.owed",
  paid: "cash.empty.paid",
  returned: "cash.empty.returned",
};

export function CashPage() {
  const data = useLoaderData<typeof cashPageData>();
  const t = useT();
  const locale = useLocale();
  const format = useFormat();
  const navigate = useNavigate();
  const { downloading, start } = useDownload<"cash">(t("cash.exportFailed"));
  const { view, totals, overview, page } = data;
  const search = cashSearch(view);
  const filtered = view.minAge !== null || view.maxAge !== null;

  // In the reader's spreadsheet dialect: French Excel reads ";" and a decimal comma.
  const exportCsv = () =>
    start("cash", `/app/cash/export?${search}&locale=${locale}`, `cash-${view.state}-${data.today}.csv`);

  const filterText =
    view.minAge !== null && view.maxAge !== null
      ? t("cash.filter.range", { min: format.integer(view.minAge), max: view.maxAge })
      : view.minAge
        ? // "more than N days", as Home's overdue alert and the last age band say it.
          t("cash.filter.minAge", { days: view.minAge - 1 })
        : view.maxAge !== null
          ? t("cash.filter.maxAge", { max: view.maxAge })
          : null;
  const summaryKey =
    view.state === "owed" ? "cash.summary.owed" : view.state === "paid" ? "cash.summary.paid" : "cash.summary.returned";
  // Owed and paid: the seller profit; returned: the amount that was not collected.
  const summaryAmount = view.state === "returned" ? totals.totalCents : totals.profitCents;

  return (
    <Page title={t("cash.title")}>
      <Layout>
        {data.errors.length > 0 ? (
          <Layout.Section>
            <Banner tone="critical" title={t("cash.error.title")}>
              {data.errors.map((e) => (
                <p key={e}>{t(`cash.error.${e}`)}</p>
              ))}
            </Banner>
          </Layout.Section>
        ) : null}
        <Layout.Section>
          <BlockStack gap="400">
            <Card>
              <BlockStack gap="300">
                <Text as="p">{t("cash.intro")}</Text>
                <Text as="p" tone="subdued" variant="bodySm">
                  {t("cash.overdueRule", { days: overview.overdueDays })}
                </Text>
                <ButtonGroup variant="segmented">
                  {CASH_STATES.map((state) => (
                    <Button
                      key={state}
                      pressed={view.state === state}
                      onClick={() => navigate(`?${cashSearch({ state })}`)}
                    >
                      {t(`cash.tab.${state}`)}
                    </Button>
                  ))}
                </ButtonGroup>
                {view.state === "owed" ? (
                  <CashAgeBands byAge={overview.byAge} active={data.bucket} title={t("cash.ages.title")} level="h2" />
                ) : null}
              </BlockStack>
            </Card>
            <Card>
              <BlockStack gap="300">
                <InlineStack align="space-between" blockAlign="center" gap="300">
                  <BlockStack gap="100">
                    <Text as="h2" variant="headingMd">
                      <span data-cash-total={view.state}>
                        {t(summaryKey, { amount: format.money(summaryAmount, { whole: true }) })}
                      </span>
                    </Text>
                    <Text as="p" tone="subdued">
                      <span data-cash-count="">{t("cash.summary.parcels", { count: totals.parcels })}</span>
                      {filterText ? ` · ${filterText}` : ""}
                    </Text>
                    {view.state !== "returned" && totals.unknownProfit > 0 ? (
                      <Text as="p" tone="subdued" variant="bodySm">
                        {t("cash.summary.unknownProfit", { count: totals.unknownProfit })}
                      </Text>
                    ) : null}
                  </BlockStack>
                  <InlineStack gap="200">
                    {filtered ? (
                      <Button onClick={() => navigate(`?${cashSearch({ state: "owed" })}`)}>
                        {t("cash.filter.clear")}
                      </Button>
                    ) : null}
                    <Button onClick={exportCsv} loading={downloading === "cash"} disabled={totals.parcels === 0}>
                      {t("cash.export")}
                    </Button>
                  </InlineStack>
                </InlineStack>
                {page.rows.length === 0 ? (
                  <Text as="p" tone="subdued">
                    <span data-cash-empty="">{filtered ? t("cash.empty.filtered") : t(EMPTY[view.state])}</span>
                  </Text>
                ) : (
                  <CashParcelsTable state={view.state} rows={page.rows} />
                )}
                {page.next || page.previous ? (
                  <InlineStack align="center">
                    <Pagination
                      accessibilityLabel={t("cash.pagination")}
                      hasPrevious={page.previous !== null}
                      hasNext={page.next !== null}
                      onPrevious={() => navigate(`?${search}&before=${page.previous}`)}
                      onNext={() => navigate(`?${search}&after=${page.next}`)}
                    />
                  </InlineStack>
                ) : null}
              </BlockStack>
            </Card>
          </BlockStack>
        </Layout.Section>
      </Layout>
    </Page>
  );
}
