/**
 * What the order page's admin UI extensions (order-status-block, order-status-action) get
 * from their two endpoints, once the route has authenticated their session token: the
 * order's lead as the extension shows it, in the language it names; and "send" / "resend",
 * answered with the new view or { error } with the action's status. The route adds the CORS
 * headers; nothing here is cached.
 */
import prisma from "../db.server";
import { resolveLocale } from "../i18n";
import { OrderActionError } from "../sync/order-actions.server";
import { orderStatusView, parseOrderIdParam, sendFromOrderPage } from "./order-status-view.server";

const noStore = { "Cache-Control": "no-store" };

export async function orderStatusAnswer(request: Request, shop: string, orderIdParam: string | undefined) {
  const orderId = parseOrderIdParam(orderIdParam);
  if (!orderId) return Response.json({ error: "invalid order id" }, { status: 400, headers: noStore });
  // The extension names its language (its locale file's own "locale"): sentences the app stores come back in it.
  const locale = resolveLocale(new URL(request.url).searchParams.get("locale"));
  return Response.json(await orderStatusView(prisma, shop, orderId, locale), { headers: noStore });
}

/** staff: the session token's user (offline sessions carry none), named on the order's timeline. */
export async function sendOrderAnswer(
  request: Request,
  shop: string,
  orderIdParam: string | undefined,
  staff: string | undefined,
) {
  const reply = (body: unknown, status = 200) => Response.json(body, { status, headers: noStore });
  if (request.method !== "POST") return reply({ error: "method not allowed" }, 405);
  const orderId = parseOrderIdParam(orderIdParam);
  if (!orderId) return reply({ error: "invalid order id" }, 400);
  const by = staff ? `staff ${staff}` : "merchant";
  try {
    return reply(await sendFromOrderPage(prisma, shop, orderId, { by }));
  } catch (error) {
    if (error instanceof OrderActionError) return reply({ error: error.message }, error.status);
    throw error;
  }
}

/** Anything but the method the endpoint takes (and its preflight, which authenticate.admin answers). */
export function methodNotAllowed(allow: "GET" | "POST", cache: "no-store" | "default" = "default") {
  return Response.json(
    { error: "method not allowed" },
    { status: 405, headers: { ...(cache === "no-store" ? noStore : {}), Allow: allow } },
  );
}
