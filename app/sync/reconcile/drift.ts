/**
 * Where a Shopify order disagrees with what the app wrote back to it (pure), after the
 * order was written to: the write-back is queued again, with the `done` flags Shopify
 * contradicts cleared so the plan looks at the order's live state for them.
 *
 * A fulfilment or a payment the app recorded as done and Shopify does not show was lost
 * (a mutation answered and not applied): it is written again. A status tag the app never
 * managed to write is written. A tag the app wrote that is gone now is left alone: the
 * merchant may have removed it, and the plan never puts such a tag back.
 */
import {
  FULFILL_SHIPPING_STATUSES,
  PAID_SHIPPING_STATUSES,
  type WriteBackDone,
  type WriteBackSettings,
} from "../../shopify/write-back-plan";
import { desiredTags, isManagedTag, tagKey } from "../../shopify/write-back-tags";
import type { ShopifyOrderState } from "./compare";

/** Fulfilment statuses that show no fulfilment yet (not on hold or declined: those are someone's decision). */
const NOT_FULFILLED = new Set(["UNFULFILLED", "PENDING_FULFILLMENT", "OPEN", "IN_PROGRESS", "SCHEDULED"]);
/** Financial statuses of an order not paid (not refunded or voided: those are someone's decision). */
const NOT_PAID = new Set(["PENDING", "AUTHORIZED", "PARTIALLY_PAID", "EXPIRED"]);

export type DriftKind = "fulfillment" | "paid" | "tags";

export interface WrittenLink {
  leadRef: string | null;
  confirmationStatus: string | null;
  shippingStatus: string | null;
  hasAnomalies: boolean;
  done: WriteBackDone;
}

export interface Drift {
  kinds: DriftKind[];
  /** The `done` record to store before the write-back runs again. */
  done: WriteBackDone;
}

export function writeBackDrift(link: WrittenLink, toggles: WriteBackSettings, order: ShopifyOrderState): Drift | null {
  if (order.cancelledAt || !link.leadRef) return null;
  const kinds: DriftKind[] = [];
  const done = { ...link.done };
  const shipping = link.shippingStatus ?? "";
  if (
    toggles.fulfillment &&
    FULFILL_SHIPPING_STATUSES.has(shipping) &&
    NOT_FULFILLED.has(order.displayFulfillmentStatus ?? "")
  ) {
    kinds.push("fulfillment");
    done.fulfilled = false;
  }
  if (toggles.markPaid && PAID_SHIPPING_STATUSES.has(shipping) && NOT_PAID.has(order.displayFinancialStatus ?? "")) {
    kinds.push("paid");
    done.paid = false;
  }
  if (toggles.tags) {
    const present = new Set(order.tags.map(tagKey));
    const written = new Set(link.done.tags.map(tagKey));
    const wanted = desiredTags(link);
    const wantedKeys = new Set(wanted.map(tagKey));
    const neverWritten = wanted.some((t) => !present.has(tagKey(t)) && !written.has(tagKey(t)));
    const outdated = order.tags.some((t) => isManagedTag(t, link.done.tags) && !wantedKeys.has(tagKey(t)));
    if (neverWritten || outdated) kinds.push("tags");
  }
  return kinds.length > 0 ? { kinds, done } : null;
}
