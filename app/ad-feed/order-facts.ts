/**
 * What an order gives the feed, read from its stored Shopify snapshot (the
 * orders/* webhook's JSON) and its link: the customer's fields to hash, the
 * browser at checkout (client_details), what was bought, and where. Orders a
 * COD form app created through the API have no client_details and never passed
 * a checkout: they are told from the customer's data alone. Pure.
 */
import type { ConversionItem, CustomerFields } from "../ad-platforms";

export interface OrderFacts {
  customer: CustomerFields;
  browser: { ip: string | null; userAgent: string | null };
  /** The order went through Shopify's checkout in a browser (not created through the API by an app). */
  fromCheckout: boolean;
  items: ConversionItem[];
  /** The checkout the order was placed from (a pixel's message must name it to count). */
  checkoutToken: string | null;
  /** The order's status page, when Shopify gave it (a URL on the store's own domain). */
  statusUrl: string | null;
  currency: string | null;
}

type Json = Record<string, unknown>;
const obj = (v: unknown): Json | null => (v && typeof v === "object" && !Array.isArray(v) ? (v as Json) : null);
const text = (v: unknown): string | null =>
  typeof v === "string" && v.trim() ? v.trim() : typeof v === "number" ? String(v) : null;
const money = (v: unknown): number => {
  const n = typeof v === "number" ? v : typeof v === "string" ? Number(v) : NaN;
  return Number.isFinite(n) && n >= 0 ? Math.round(n * 100) / 100 : 0;
};

/** An order's snapshot, or null when it was erased (customers/redact) or cannot be read. */
export function parseOrderSnapshot(payload: string): Json | null {
  try {
    const order = obj(JSON.parse(payload));
    return order && order.redacted !== true ? order : null;
  } catch {
    return null;
  }
}

/**
 * The facts of an order. `linkPhone` is the link's phone (the 06/07 form the
 * lead was sent with, the merchant's correction included), preferred to the
 * order's own fields.
 */
export function orderFacts(order: Json, linkPhone: string | null): OrderFacts {
  const shipping = obj(order.shipping_address);
  const billing = obj(order.billing_address);
  const customer = obj(order.customer);
  const client = obj(order.client_details);
  const address = shipping ?? billing;
  const lines = Array.isArray(order.line_items) ? order.line_items.map(obj).filter((l): l is Json => l !== null) : [];
  const userAgent = text(client?.user_agent);
  return {
    customer: {
      email: text(order.email) ?? text(order.contact_email) ?? text(customer?.email),
      phone:
        (linkPhone ? `+212${linkPhone.replace(/^0/, "")}` : null) ??
        text(address?.phone) ??
        text(order.phone) ??
        text(customer?.phone),
      firstName: text(address?.first_name) ?? text(customer?.first_name),
      lastName: text(address?.last_name) ?? text(customer?.last_name),
      city: text(address?.city),
      countryCode: text(address?.country_code) ?? "MA",
      customerId: text(customer?.id),
    },
    browser: { ip: text(client?.browser_ip), userAgent },
    fromCheckout: !!userAgent || !!text(order.checkout_token),
    items: lines.map((line) => ({
      id: text(line.sku) ?? text(line.variant_id) ?? text(line.product_id) ?? "unknown",
      name: text(line.title),
      quantity: Math.max(1, Math.floor(Number(line.quantity) || 1)),
      price: money(line.price),
    })),
    checkoutToken: text(order.checkout_token),
    statusUrl: text(order.order_status_url),
    currency: text(order.currency),
  };
}
