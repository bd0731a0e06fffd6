/**
 * Analytics, money first: key figures (net collected, seller profit, owed by the
 * platform, then the rates) against the previous period, the cash from the
 * platform, the funnel with its losses by cause, weekly charts, and the city and
 * product tables, all read from the rollups (app/analytics/), with a CSV export
 * of each table and of the period's cash ledger.
 */
import { useState } from "react";
import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { useAppBridge } from "@shopify/app-bridge-react";
import { Banner, BlockStack, Card, EmptyState, Layout, Page } from "@shopify/polaris";
import vizStyles from "@shopify/polaris-viz/build/esm/styles.css?url";
import { authenticate } from "../shopify.server";
import { withErrorReference } from "../http/error-reference.server";
import prisma from "../db.server";
import { loadAnalytics } from "../analytics/report.server";
import { MAX_PERIOD_DAYS, periodSearch } from "../analytics/period";
import type { CsvTable } from "../analytics/csv";
import { pageTitle } from "../i18n/page-title";
import { useLocale, useT } from "../i18n/react";
import { BreakdownTable } from "../components/analytics/BreakdownTable";
import { FunnelCard } from "../components/analytics/FunnelCard";
import { CashCard } from "../components/analytics/CashCard";
import { KeyFigures } from "../components/analytics/KeyFigures";
import { PeriodPicker } from "../components/analytics/PeriodPicker";
import { WeeklyCharts } from "../components/analytics/WeeklyCharts";
import { download } from "../components/analytics/format";
import { AdFeedCard } from "../components/analytics/AdFeedCard";
import { loadAdFeedReport } from "../pages/ad-feed.server";

export const links = () => [{ rel: "stylesheet", href: vizStyles }];

export const meta: MetaFunction = ({ matches }) => pageTitle(matches, "analytics.title");

export const loader = withErrorReference(async ({ request }: LoaderFunctionArgs) => {
  const { session } = await authenticate.admin(request);
  const report = await loadAnalytics(prisma, session.shop, new URL(request.url).searchParams);
  return { ...report, adFeed: await loadAdFeedReport(prisma, session.shop, report.period, report.weeks) };
});

export default function Analytics() {
  const report = useLoaderData<typeof loader>();
  const t = useT();
  const locale = useLocale();
  const shopify = useAppBridge();
  const [exporting, setExporting] = useState<CsvTable | "cash" | null>(null);
  const exportTable = (table: CsvTable) => () => {
    setExporting(table);
    download(
      // In the reader's spreadsheet dialect: French Excel reads ";" and a decimal comma.
      `/app/analytics/export?table=${table}&${periodSearch(report.period)}&locale=${locale}`,
      `analytics-${table}-${report.period.from}-${report.period.to}.csv`,
    )
      .catch(() => shopify.toast.show(t("analytics.exportFailed"), { isError: true }))
      .finally(() => setExporting(null));
  };
  const exportCash = () => {
    setExporting("cash");
    download(
      `/app/cash/export?${periodSearch(report.period)}&locale=${locale}`,
      `cash-${report.period.from}-${report.period.to}.csv`,
    )
      .catch(() => shopify.toast.show(t("analytics.exportFailed"), { isError: true }))
      .finally(() => setExporting(null));
  };
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
                <BreakdownTable
                  id="cities"
                  title={t("analytics.cities.title")}
                  nameHeading={t("analytics.column.city")}
                  lines={report.cities}
                  unknownLabel={t("analytics.city.unknown")}
                  onExport={exportTable("cities")}
                  exporting={exporting === "cities"}
                />
                <BreakdownTable
                  id="products"
                  title={t("analytics.products.title")}
                  nameHeading={t("analytics.column.product")}
                  lines={report.products}
                  note={t("analytics.products.note")}
                  onExport={exportTable("products")}
                  exporting={exporting === "products"}
                />
              </>
            )}
          </BlockStack>
        </Layout.Section>
      </Layout>
    </Page>
  );
}
