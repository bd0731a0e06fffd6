/**
 * What a reconciliation pass does with each order Shopify listed (pure): the order as
 * Shopify has it now (a few scalars) against the app's link for it.
 *
 *   no link, placed since the coverage start          take it in, as orders/create would
 *   no link, placed before                             not the reconciliation's (Backfill's)
 *   cancelled in Shopify, not on the link              apply the cancellation, as orders/cancelled
 *   newer in Shopify, link still open to updates       read it whole, apply it as orders/updated
 *   anything else                                      nothing (the app is up to date)
 */
import { acceptsOrderUpdates, isLinkState } from "../../models/order-link-state";
import { idDigits } from "../../leads/adapters/read";

/** One node of RECONCILE_ORDERS / RECONCILE_ORDER_STATES, read. */
export interface ShopifyOrderState {
  /** Numeric id, as the app's links key orders. */
  orderId: string;
  gid: string;
  name: string;
  createdAt: Date | null;
  updatedAt: Date | null;
  cancelledAt: Date | null;
  displayFinancialStatus: string | null;
  displayFulfillmentStatus: string | null;
  tags: string[];
}

const time = (value: unknown) =>
  typeof value === "string" && !Number.isNaN(Date.parse(value)) ? new Date(value) : null;
const text = (value: unknown) => (typeof value === "string" ? value : null);

/** A node as Shopify sent it; null when it is not an order the app can key. */
export function readOrderState(node: unknown): ShopifyOrderState | null {
  if (!node || typeof node !== "object") return null;
  const o = node as Record<string, unknown>;
  const orderId = idDigits(o.id);
  if (!orderId || typeof o.id !== "string") return null;
  return {
    orderId,
    gid: o.id,
    name: text(o.name) ?? `#${orderId}`,
    createdAt: time(o.createdAt),
    updatedAt: time(o.updatedAt),
    cancelledAt: time(o.cancelledAt),
    displayFinancialStatus: text(o.displayFinancialStatus),
    displayFulfillmentStatus: text(o.displayFulfillmentStatus),
    tags: Array.isArray(o.tags) ? o.tags.filter((t): t is string => typeof t === "string") : [],
  };
}

/** What the app holds of an order, as far as a pass compares it. */
export interface KnownOrder {
  state: string;
  payloadAt: Date | null;
  cancelledAt: Date | null;
}

export type ReconcileAction = "take" | "before_coverage" | "cancel" | "update" | "none";

export function actionFor(order: ShopifyOrderState, link: KnownOrder | undefined, coverageFrom: Date): ReconcileAction {
  if (!link) {
    // An order without a creation time is taken: it can only be recent (Shopify always sends one).
    return order.createdAt && order.createdAt < coverageFrom ? "before_coverage" : "take";
  }
  if (order.cancelledAt && !link.cancelledAt) return "cancel";
  const open = isLinkState(link.state) && acceptsOrderUpdates(link.state);
  const newer = order.updatedAt !== null && (link.payloadAt === null || order.updatedAt > link.payloadAt);
  return open && newer && !link.cancelledAt ? "update" : "none";
}
