/** CSV download of the shop's SKU mappings (?kind=sku_mappings) or city aliases (?kind=city_aliases). */
import type { LoaderFunctionArgs } from "@remix-run/node";
import { authenticate } from "../shopify.server";
import { withErrorReference } from "../http/error-reference.server";
import prisma from "../db.server";
import { exportMappingsCsv, type CsvFileKind } from "../pages/mappings.server";

export const loader = withErrorReference(async ({ request }: LoaderFunctionArgs) => {
  const { session } = await authenticate.admin(request);
  const kind = new URL(request.url).searchParams.get("kind");
  if (kind !== "sku_mappings" && kind !== "city_aliases")
    throw new Response("kind must be sku_mappings or city_aliases", { status: 400 });
  const csv = await exportMappingsCsv(prisma, session.shop, kind satisfies CsvFileKind);
  const store = session.shop.replace(/\.myshopify\.com$/, "");
  return new Response(csv, {
    headers: {
      "Content-Type": "text/csv; charset=utf-8",
      "Content-Disposition": `attachment; filename="${store}-${kind.replace("_", "-")}.csv"`,
      "Cache-Control": "no-store",
    },
  });
});
