/**
 * The Orders page's loader and action work, as its route calls them once it has authenticated:
 * a page of orders for the URL's filter and sort, the failed orders a "retry all" would send,
 * and the facts the page shows around them; then the bulk resend and retry.
 */
import prisma from "../db.server";
import { DEFAULT_TIME_ZONE } from "../analytics/days";
import { isPhoneUserAgent } from "../http/user-agent";
import { DEFAULT_SORT, failedOrders, parseOrdersSearch, queryOrders } from "./orders.server";
import { loadShopFacts } from "./shop-facts.server";
import { fixFailure, resendOrders, retryFailedOrders, type FixFailureCode } from "./anomalies.server";

const DAY_MS = 86_400_000;

export async function ordersPageData(request: Request, shop: string) {
  const search = parseOrdersSearch(new URL(request.url).searchParams);
  const facts = await loadShopFacts(prisma, shop);
  const now = Date.now();
  const [page, failed] = await Promise.all([
    queryOrders(prisma, shop, search, { timeZone: DEFAULT_TIME_ZONE }),
    failedOrders(prisma, shop, new Date(now - facts.staleOrderDays * DAY_MS)),
  ]);
  const { after, before, limit: _limit, sort = DEFAULT_SORT, ...filter } = search;
  return {
    page,
    filter: { ...filter, sort },
    failed,
    staleOrderDays: facts.staleOrderDays,
    // Ages are computed against the server's clock: the page shows them as they are.
    now,
    firstPage: !after && !before,
    timeZone: DEFAULT_TIME_ZONE,
    connected: facts.connected,
    contact: facts.contact,
    phoneLayout: isPhoneUserAgent(request.headers.get("User-Agent")),
  };
}

export type OrdersActionResult =
  { ok: true; intent: string; resent: number; skipped: number } | { ok: false; intent: string; error: FixFailureCode };

export async function ordersPageAction(request: Request, shop: string): Promise<OrdersActionResult> {
  const form = await request.formData();
  const intent = String(form.get("intent") ?? "");
  const ids = String(form.get("ids") ?? "")
    .split(",")
    .map((id) => id.trim())
    .filter(Boolean);
  const actor = { by: "merchant" };
  try {
    if (intent === "resend") return { ok: true, intent, ...(await resendOrders(prisma, shop, ids, actor)) };
    if (intent === "retryFailed") {
      // No ids: every failed order of the shop.
      return { ok: true, intent, ...(await retryFailedOrders(prisma, shop, ids.length ? ids : undefined, actor)) };
    }
  } catch (error) {
    return { ok: false, intent, error: fixFailure(error) };
  }
  throw new Response("Unknown intent", { status: 400 });
}
