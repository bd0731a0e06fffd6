/**
 * GET /api/orders/:orderId/status: the order-page extensions' view of an
 * order's lead. Called by admin UI extensions with a session token (Bearer);
 * authenticate.admin validates it, answers the CORS preflight (Remix hands
 * OPTIONS to the loader), and `cors` adds the headers the admin's origin needs.
 */
import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import prisma from "../db.server";
import { orderStatusView, parseOrderIdParam } from "../pages/order-status-view.server";
import { authenticate } from "../shopify.server";
import { resolveLocale } from "../i18n";

const noStore = { "Cache-Control": "no-store" };

export const loader = async ({ request, params }: LoaderFunctionArgs) => {
  const { session, cors } = await authenticate.admin(request);
  const orderId = parseOrderIdParam(params.orderId);
  if (!orderId) return cors(Response.json({ error: "invalid order id" }, { status: 400, headers: noStore }));
  // The extension names its language (its locale file's own "locale"): sentences the app stores come back in it.
  const locale = resolveLocale(new URL(request.url).searchParams.get("locale"));
  return cors(Response.json(await orderStatusView(prisma, session.shop, orderId, locale), { headers: noStore }));
};

// No method but GET (and its preflight, in the loader) is expected: anything else is refused.
export const action = async ({ request }: ActionFunctionArgs) => {
  const { cors } = await authenticate.admin(request);
  return cors(Response.json({ error: "method not allowed" }, { status: 405, headers: { Allow: "GET" } }));
};
