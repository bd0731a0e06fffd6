/** CSV download of one Analytics table (?table=funnel|cities|products|weeks) for the page's period. */
import type { LoaderFunctionArgs } from "@remix-run/node";
import { authenticate } from "../shopify.server";
import { withErrorReference } from "../http/error-reference.server";
import prisma from "../db.server";
import { loadAnalytics } from "../analytics/report.server";
import { breakdownCsv, csvFileName, funnelCsv, isCsvTable, weeksCsv } from "../analytics/csv";

export const loader = withErrorReference(async ({ request }: LoaderFunctionArgs) => {
  const { session } = await authenticate.admin(request);
  const params = new URL(request.url).searchParams;
  const table = params.get("table");
  if (!isCsvTable(table)) throw new Response("table must be funnel, cities, products or weeks", { status: 400 });
  // Every line of the city and product tables: the CSV has the long tail the page adds up in "Others".
  const report = await loadAnalytics(prisma, session.shop, params, { whole: true });
  if (report.periodError) throw new Response(`period refused: ${report.periodError}`, { status: 400 });
  const csv =
    table === "funnel"
      ? funnelCsv(report.current, report.previous)
      : table === "weeks"
        ? weeksCsv(report.weeks)
        : breakdownCsv(
            table === "cities" ? "city_id" : "product_key",
            table === "cities" ? report.cities : report.products,
          );
  return new Response(csv, {
    headers: {
      "Content-Type": "text/csv; charset=utf-8",
      "Content-Disposition": `attachment; filename="${csvFileName(session.shop, table, report.period)}"`,
      "Cache-Control": "no-store",
    },
  });
});
