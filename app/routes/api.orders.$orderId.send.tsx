/**
 * POST /api/orders/:orderId/send: "Send to COD platform" / "Resend" from the
 * order page's action extension. Session token auth and CORS as for the status
 * route; answers the new status view, or { error } with the action's status.
 */
import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import prisma from "../db.server";
import { OrderActionError } from "../sync/order-actions.server";
import { parseOrderIdParam, sendFromOrderPage } from "../pages/order-status-view.server";
import { authenticate } from "../shopify.server";

const noStore = { "Cache-Control": "no-store" };

/**
 * Remix hands OPTIONS to the loader, not the action: without one, the browser's
 * CORS preflight (the extension runs on https://extensions.shopifycdn.com) got
 * 400 and the POST was never sent. authenticate.admin answers the preflight
 * (204 with the CORS headers); a plain GET is refused.
 */
export const loader = async ({ request }: LoaderFunctionArgs) => {
  const { cors } = await authenticate.admin(request);
  return cors(Response.json({ error: "method not allowed" }, { status: 405, headers: { ...noStore, Allow: "POST" } }));
};

export const action = async ({ request, params }: ActionFunctionArgs) => {
  const { session, sessionToken, cors } = await authenticate.admin(request);
  const reply = (body: unknown, status = 200) => cors(Response.json(body, { status, headers: noStore }));
  if (request.method !== "POST") return reply({ error: "method not allowed" }, 405);
  const orderId = parseOrderIdParam(params.orderId);
  if (!orderId) return reply({ error: "invalid order id" }, 400);
  // The session token names the staff member who clicked (offline sessions carry no user).
  const by = sessionToken.sub ? `staff ${sessionToken.sub}` : "merchant";
  try {
    return reply(await sendFromOrderPage(prisma, session.shop, orderId, { by }));
  } catch (error) {
    if (error instanceof OrderActionError) return reply({ error: error.message }, error.status);
    throw error;
  }
};
