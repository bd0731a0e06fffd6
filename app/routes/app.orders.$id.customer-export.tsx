/** The order's customer on request (Customer card): ?format=json|csv of the delivery record and the phone's orders in this shop. */
import type { LoaderFunctionArgs } from "@remix-run/node";
import { authenticate } from "../shopify.server";
import { withErrorReference } from "../http/error-reference.server";
import { customerExportFile } from "../pages/order-page.server";

export const loader = withErrorReference(async ({ request, params }: LoaderFunctionArgs) => {
  const { session } = await authenticate.admin(request);
  return customerExportFile(session.shop, params.id ?? "", new URL(request.url).searchParams.get("format"));
});
