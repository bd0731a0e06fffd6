/** CSV download of the shop's SKU mappings (?kind=sku_mappings) or city aliases (?kind=city_aliases). */
import type { LoaderFunctionArgs } from "@remix-run/node";
import { authenticate } from "../shopify.server";
import { withErrorReference } from "../http/error-reference.server";
import { mappingsExportFile } from "../pages/mappings-page.server";

export const loader = withErrorReference(async ({ request }: LoaderFunctionArgs) => {
  const { session } = await authenticate.admin(request);
  return mappingsExportFile(request, session.shop);
});
