/**
 * CSV download of one Analytics table (?table=funnel|cities|products|weeks) for the page's period, in the
 * reader's spreadsheet dialect (?locale=, as the page's; csv.ts).
 */
import type { LoaderFunctionArgs } from "@remix-run/node";
import { authenticate } from "../shopify.server";
import { withErrorReference } from "../http/error-reference.server";
import prisma from "../db.server";
import { loadAnalytics } from "../analytics/report.server";
import { breakdownCsv, csvDialect, csvFileName, funnelCsv, isCsvTable, weeksCsv } from "../analytics/csv";
import { localeFromRequest } from "../i18n";
import { env } from "../env.server";

export const loader = withErrorReference(async ({ request }: LoaderFunctionArgs) => {
  const { session } = await authenticate.admin(request);
  const params = new URL(request.url).searchParams;
  const table = params.get("table");
  if (!isCsvTable(table)) throw new Response("table must be funnel, cities, products or weeks", { status: 400 });
  // Every line of the city and product tables: the CSV has the long tail the page adds up in "Others".
  const report = await loadAnalytics(prisma, session.shop, params, { whole: true });
  if (report.periodError) throw new Response(`period refused: ${report.periodError}`, { status: 400 });
  const dialect = csvDialect(localeFromRequest(request, { pseudo: env.PSEUDO_LOCALES }));
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
  return new Response(csv, {
    headers: {
      "Content-Type": "text/csv; charset=utf-8",
      "Content-Disposition": `attachment; filename="${csvFileName(session.shop, table, report.period)}"`,
      "Cache-Control": "no-store",
    },
  });
});
