/**
 * Analytics, money first: key figures (net collected, seller profit, owed by the
 * platform, then the rates) against the previous period, the cash from the
 * platform, the funnel with its losses by cause, weekly charts, and the city and
 * product tables, all read from the rollups (app/analytics/), with a CSV export
 * of each table and of the period's cash ledger.
 */
import { useLoaderData } from "@remix-run/react";
import { Banner, BlockStack, Card, EmptyState, Layout, Page } from "@shopify/polaris";
import type { analyticsPageData } from "../../pages/analytics-page.server";
import { MAX_PERIOD_DAYS, periodSearch } from "../../analytics/period";
import type { CsvTable } from "../../analytics/csv";
import type { MessageKey } from "../../i18n";
import { useLocale, useT } from "../../i18n/react";
import { useDownload } from "../useDownload";
import { BreakdownTable } from "./BreakdownTable";
import { FunnelCard } from "./FunnelCard";
import { CashCard } from "./CashCard";
import { KeyFigures } from "./KeyFigures";
import { PeriodPicker } from "./PeriodPicker";
import { WeeklyCharts } from "./WeeklyCharts";
import { AdFeedCard } from "./AdFeedCard";

/** The period's breakdowns, by city and by product: the same table, its words apart. */
const BREAKDOWNS: {
  id: "cities" | "products";
  title: MessageKey;
  nameHeading: MessageKey;
  unknownLabel?: MessageKey;
  note?: MessageKey;
}[] = [
  {
    id: "cities",
    title: "analytics.cities.title",
    nameHeading: "analytics.column.city",
    unknownLabel: "analytics.city.unknown",
  },
  {
    id: "products",
    title: "analytics.products.title",
    nameHeading: "analytics.column.product",
    note: "analytics.products.note",
  },
];

export function AnalyticsPage() {
  const report = useLoaderData<typeof analyticsPageData>();
  const t = useT();
  const locale = useLocale();
  const { downloading: exporting, start } = useDownload<CsvTable | "cash">(t("analytics.exportFailed"));
  // In the reader's spreadsheet dialect: French Excel reads ";" and a decimal comma.
  const exportTable = (table: CsvTable) => () =>
    start(
      table,
      `/app/analytics/export?table=${table}&${periodSearch(report.period)}&locale=${locale}`,
      `analytics-${table}-${report.period.from}-${report.period.to}.csv`,
    );
  const exportCash = () =>
    start(
      "cash",
      `/app/cash/export?${periodSearch(report.period)}&locale=${locale}`,
      `cash-${report.period.from}-${report.period.to}.csv`,
    );
  const empty = report.current.steps.orders === 0 && report.current.skipped === 0;

  return (
    <Page title={t("analytics.title")}>
      <Layout>
        <Layout.Section>
          <BlockStack gap="400">
            {report.periodError ? (
              <Banner tone="critical" title={t("analytics.period.error.title")}>
                <p>{t(`analytics.period.error.${report.periodError}`, { max: MAX_PERIOD_DAYS })}</p>
              </Banner>
            ) : null}
            <PeriodPicker
              key={`${report.period.from}/${report.period.to}`}
              period={report.period}
              timeZone={report.timeZone}
            />
            {report.processing > 0 ? (
              <Banner tone="info">
                <p>{t("analytics.processing", { count: report.processing })}</p>
              </Banner>
            ) : null}
            {empty ? (
              <Card>
                <EmptyState heading={t("analytics.empty.title")} image="">
                  <p>{t("analytics.empty.body")}</p>
                </EmptyState>
              </Card>
            ) : (
              <>
                <KeyFigures current={report.current} previous={report.previous} cash={report.cash} />
                <CashCard cash={report.cash} onExport={exportCash} exporting={exporting === "cash"} />
                <FunnelCard
                  current={report.current}
                  previous={report.previous}
                  onExport={exportTable("funnel")}
                  exporting={exporting === "funnel"}
                />
                <WeeklyCharts weeks={report.weeks} onExport={exportTable("weeks")} exporting={exporting === "weeks"} />
                {report.adFeed ? <AdFeedCard report={report.adFeed} /> : null}
                {BREAKDOWNS.map((b) => (
                  <BreakdownTable
                    key={b.id}
                    id={b.id}
                    title={t(b.title)}
                    nameHeading={t(b.nameHeading)}
                    lines={report[b.id]}
                    unknownLabel={b.unknownLabel ? t(b.unknownLabel) : undefined}
                    note={b.note ? t(b.note) : undefined}
                    onExport={exportTable(b.id)}
                    exporting={exporting === b.id}
                  />
                ))}
              </>
            )}
          </BlockStack>
        </Layout.Section>
      </Layout>
    </Page>
  );
}
