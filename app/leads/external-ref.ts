/**
 * The lead's external_ref: the Shopify order id (stable, for reconciliation) and its name
 * (what the merchant recognises in the platform's interface). The same order always gives
 * the same ref, so a resend is recognisable.
 */
import type { ShopOrder } from "./types";

const PREFIX = "shopify:";

export function externalRefFor(order: Pick<ShopOrder, "id" | "name">): string | undefined {
  const id = /^\d+$/.test(order.id) ? order.id : undefined;
  if (!id) return undefined;
  const name = typeof order.name === "string" ? order.name.trim() : "";
  return name ? `${PREFIX}${id} ${name}` : `${PREFIX}${id}`;
}

/** The Shopify order id and name back from an external_ref we wrote; undefined for any other ref. */
export function parseExternalRef(ref: string): { orderId: string; orderName?: string } | undefined {
  const match = /^shopify:(\d+)(?: (.+))?$/.exec(ref);
  if (!match) return undefined;
  return match[2] ? { orderId: match[1], orderName: match[2] } : { orderId: match[1] };
}
