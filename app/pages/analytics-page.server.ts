/**
 * The Analytics page's loader work and its CSV, as their routes call them once they have
 * authenticated: the report for the URL's period with the conversion feed's figures, and one
 * table of it as a file in the reader's spreadsheet dialect.
 */
import prisma from "../db.server";
import { loadAnalytics } from "../analytics/report.server";
import { breakdownCsv, csvFileName, funnelCsv, isCsvTable, weeksCsv } from "../analytics/csv";
import { loadAdFeedReport } from "./ad-feed.server";
import { requestCsvDialect } from "./request-locale.server";
import { fileResponse } from "./file-response";

export async function analyticsPageData(request: Request, shop: string) {
  const report = await loadAnalytics(prisma, shop, new URL(request.url).searchParams);
  return { ...report, adFeed: await loadAdFeedReport(prisma, shop, report.period, report.weeks) };
}

export async function analyticsExportFile(request: Request, shop: string): Promise<Response> {
  const params = new URL(request.url).searchParams;
  const table = params.get("table");
  if (!isCsvTable(table)) throw new Response("table must be funnel, cities, products or weeks", { status: 400 });
  // Every line of the city and product tables: the CSV has the long tail the page adds up in "Others".
  const report = await loadAnalytics(prisma, shop, params, { whole: true });
  if (report.periodError) throw new Response(`period refused: ${report.periodError}`, { status: 400 });
  const dialect = requestCsvDialect(request);
  const csv =
    table === "funnel"
      ? funnelCsv(report.current, report.previous, dialect)
      : table === "weeks"
        ? weeksCsv(report.weeks, dialect)
        : breakdownCsv(
            table === "cities" ? "cityId" : "productKey",
            table === "cities" ? report.cities : report.products,
            dialect,
          );
  return fileResponse(csv, "csv", csvFileName(shop, table, report.period));
}
