/**
 * What a change Shopify sends about an order already sent does to its lead, which the
 * Seller Order API can neither edit nor cancel: a refund, or an edit of what the parcel
 * carries (items, amount to collect, address, phone), leaves the lead saying something
 * Shopify no longer says, and the parcel ships unless the merchant stops or corrects it
 * in the platform's seller space. Changes that touch nothing the lead carries (tags,
 * notes, the app's own write-back) are none. Pure.
 */
import { fromWebhookOrder } from "../leads/adapters/webhook-order";
import type { ShopOrder } from "../leads/types";
import type { Mismatch } from "../models/mismatch";

const REFUNDED = new Set(["refunded", "partially_refunded", "voided"]);

function read(payload: unknown): ShopOrder | null {
  try {
    return fromWebhookOrder(payload as Record<string, unknown>);
  } catch {
    return null;
  }
}

/** What the lead carries of an order, as one comparable text. */
function carried(order: ShopOrder): string {
  const address = order.shippingAddress ?? order.billingAddress;
  return JSON.stringify([
    order.currentTotal?.amount ?? null,
    order.lineItems.map((l) => [l.sku ?? null, l.variantId ?? null, l.quantity]),
    [address?.address1, address?.address2, address?.city, address?.phone].map((v) => v?.trim() ?? null),
  ]);
}

/** How the new snapshot of a sent order disagrees with its lead; null when it does not. */
export function mismatchOfUpdate(previous: unknown, next: unknown): Mismatch | null {
  const before = read(previous);
  const after = read(next);
  if (!after) return null;
  if (REFUNDED.has(after.financialStatus ?? "") && !REFUNDED.has(before?.financialStatus ?? "")) return "refunded";
  if (before && carried(before) !== carried(after)) return "edited";
  return null;
}

/**
 * Whether a new snapshot of an order not yet sent changes nothing the lead is built from: only its tags (the app's
 * own write-back adds them, and Shopify sends orders/updated for it) or its update time. Such a snapshot is kept
 * without sending the order through the mapping again, which would tell the merchant it was updated in Shopify.
 */
export function changesNothingForTheLead(previous: unknown, next: unknown): boolean {
  const before = read(previous);
  const after = read(next);
  if (!before || !after) return false;
  return JSON.stringify({ ...before, tags: [] }) === JSON.stringify({ ...after, tags: [] });
}
