/**
 * GET /api/orders/:orderId/status: the order-page extensions' view of an
 * order's lead. Called by admin UI extensions with a session token (Bearer);
 * authenticate.admin validates it, answers the CORS preflight (Remix hands
 * OPTIONS to the loader), and `cors` adds the headers the admin's origin needs.
 */
import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { authenticate } from "../shopify.server";
import { methodNotAllowed, orderStatusAnswer } from "../pages/order-extensions-endpoint.server";

export const loader = async ({ request, params }: LoaderFunctionArgs) => {
  const { session, cors } = await authenticate.admin(request);
  return cors(await orderStatusAnswer(request, session.shop, params.orderId));
};

// No method but GET (and its preflight, in the loader) is expected: anything else is refused.
export const action = async ({ request }: ActionFunctionArgs) => {
  const { cors } = await authenticate.admin(request);
  return cors(methodNotAllowed("GET"));
};
