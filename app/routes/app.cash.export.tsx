/**
 * CSV of the cash ledger: a cash list view (?state=&minAge=&maxAge=) or an Analytics period (?period= or ?from=&to=),
 * in the reader's spreadsheet dialect (?locale=, as the page's; csv.ts).
 */
import type { LoaderFunctionArgs } from "@remix-run/node";
import { authenticate } from "../shopify.server";
import { withErrorReference } from "../http/error-reference.server";
import { cashExportFile } from "../pages/cash-page.server";

export const loader = withErrorReference(async ({ request }: LoaderFunctionArgs) => {
  const { session } = await authenticate.admin(request);
  return cashExportFile(request, session.shop);
});
