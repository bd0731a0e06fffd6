/** The order's customer on request (Customer card): ?format=json|csv of the delivery record and the phone's orders in this shop. */
import type { LoaderFunctionArgs } from "@remix-run/node";
import { authenticate } from "../shopify.server";
import { withErrorReference } from "../http/error-reference.server";
import prisma from "../db.server";
import { customerExport, customerExportCsv } from "../customers/export.server";

export const loader = withErrorReference(async ({ request, params }: LoaderFunctionArgs) => {
  const { session } = await authenticate.admin(request);
  const format = new URL(request.url).searchParams.get("format") ?? "json";
  if (format !== "json" && format !== "csv") throw new Response("format must be json or csv", { status: 400 });
  // Another shop's order, or one without a valid phone: nothing to export here.
  const data = await customerExport(prisma, session.shop, params.id ?? "");
  if (!data) throw new Response("Not found", { status: 404 });
  const body = format === "csv" ? customerExportCsv(data) : JSON.stringify(data, null, 2);
  return new Response(body, {
    headers: {
      "Content-Type": format === "csv" ? "text/csv; charset=utf-8" : "application/json; charset=utf-8",
      "Content-Disposition": `attachment; filename="customer-${data.phoneKey}.${format}"`,
      "Cache-Control": "no-store",
    },
  });
});
