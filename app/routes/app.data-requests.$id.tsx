/** JSON download of one customers/data_request: what the app holds about the customer, to send them. */
import type { LoaderFunctionArgs } from "@remix-run/node";
import { authenticate } from "../shopify.server";
import { withErrorReference } from "../http/error-reference.server";
import { dataRequestFile } from "../pages/activity-page.server";

export const loader = withErrorReference(async ({ request, params }: LoaderFunctionArgs) => {
  const { session } = await authenticate.admin(request);
  return dataRequestFile(session.shop, params.id ?? "");
});
