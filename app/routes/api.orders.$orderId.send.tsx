/**
 * POST /api/orders/:orderId/send: "Send to COD platform" / "Resend" from the
 * order page's action extension. Session token auth and CORS as for the status
 * route; answers the new status view, or { error } with the action's status.
 */
import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { authenticate } from "../shopify.server";
import { methodNotAllowed, sendOrderAnswer } from "../pages/order-extensions-endpoint.server";

/**
 * Remix hands OPTIONS to the loader, not the action: without one, the browser's
 * CORS preflight (the extension runs on https://extensions.shopifycdn.com) got
 * 400 and the POST was never sent. authenticate.admin answers the preflight
 * (204 with the CORS headers); a plain GET is refused.
 */
export const loader = async ({ request }: LoaderFunctionArgs) => {
  const { cors } = await authenticate.admin(request);
  return cors(methodNotAllowed("POST", "no-store"));
};

export const action = async ({ request, params }: ActionFunctionArgs) => {
  const { session, sessionToken, cors } = await authenticate.admin(request);
  // The session token names the staff member who clicked (offline sessions carry no user).
  return cors(await sendOrderAnswer(request, session.shop, params.orderId, sessionToken.sub));
};
