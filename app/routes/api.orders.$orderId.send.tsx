/**
 * POST /api/orders/:orderId/send: "Send to COD platform" / "Resend" from the
 * order page's action extension. Session token auth and CORS as for the status
 * route; answers the new status view, or { error } with the action's status.
 */
import type { ActionFunctionArgs } from "@remix-run/node";
import prisma from "../db.server";
import { OrderActionError } from "../models/order-actions.server";
import { parseOrderIdParam, sendFromOrderPage } from "../models/order-status-view.server";
import { authenticate } from "../shopify.server";

const noStore = { "Cache-Control": "no-store" };

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
