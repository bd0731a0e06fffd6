/**
 * CSV download of one Analytics table (?table=funnel|cities|products|weeks) for the page's period, in the
 * reader's spreadsheet dialect (?locale=, as the page's; csv.ts).
 */
import type { LoaderFunctionArgs } from "@remix-run/node";
import { authenticate } from "../shopify.server";
import { withErrorReference } from "../http/error-reference.server";
import { analyticsExportFile } from "../pages/analytics-page.server";

export const loader = withErrorReference(async ({ request }: LoaderFunctionArgs) => {
  const { session } = await authenticate.admin(request);
  return analyticsExportFile(request, session.shop);
});
