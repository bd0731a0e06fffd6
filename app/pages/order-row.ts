/**
 * What one row of the Orders list says about an order, from its stored lead
 * (or, before a lead could be built, from the Shopify order): the customer,
 * the city, the amount to collect, a short list of items, and why the order
 * needs the merchant. Pure: orders.server.ts reads the rows and calls these.
 */
import { fromWebhookOrder } from "../leads/adapters/webhook-order";
import type { CatalogueProduct, City } from "../leads/types";
import type { HoldReasonView } from "../customers/hold-reason";
import type { Refusal } from "../models/refusal";
import { readyReasonOf, type ReadyReason } from "../models/attention";
import { costsMoney, isMismatch, type Mismatch } from "../models/mismatch";

export { readyReasonOf, type ReadyReason };

/** What customers/redact writes in place of personal fields. */
export const REDACTED = "[redacted]";

/** Items shown in a row; the rest are counted. */
export const ITEMS_SHOWN = 2;

export interface RowItem {
  name: string;
  quantity: number;
  /** The item's SKU, when it has one (to name it from the Shopify order when the catalogue cannot). */
  sku?: string;
  /** Named by its SKU only: neither the platform's catalogue nor the Shopify order named it. */
  unnamed?: boolean;
}

export interface RowSummary {
  customerName: string | null;
  /** The customer's data was erased at Shopify's request: no name, no contact. */
  erased: boolean;
  cityName: string | null;
  items: RowItem[];
  /** Items beyond ITEMS_SHOWN. */
  moreItems: number;
}

/** Why a row needs the merchant, as data the page words in the merchant's language. */
export type Attention =
  /** Held by a blocking finding (its code). */
  | { kind: "finding"; code: string }
  /** Held by the customer hold. */
  | { kind: "customer"; hold: HoldReasonView }
  /** Held with no finding: automatic sending is off, the key is missing, or the app was uninstalled. */
  | { kind: "ready"; why: ReadyReason }
  /** Refused by the platform: the field and its words. */
  | { kind: "refused"; refusal: Refusal | null }
  | { kind: "failed" }
  /** A damaged lead: the platform's anomaly (the earlier lead of a recent duplicate). */
  | { kind: "anomaly"; code: string; duplicateOf: string | null }
  /** Sent twice after an unknown outcome: check for a second lead. */
  | { kind: "possibleDuplicate" }
  /** Cancelled, refunded or edited in Shopify after sending, while the lead goes on: it costs money. */
  | { kind: "mismatch"; what: Mismatch };

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);
const text = (v: unknown): string | null => (typeof v === "string" && v.trim() ? v.trim() : null);

export function parseJson(json: string | null | undefined): unknown {
  if (!json) return undefined;
  try {
    return JSON.parse(json) as unknown;
  } catch {
    return undefined;
  }
}

/** Names of the platform's products and cities, looked up by SKU, product id and city id. */
export interface ReferenceNames {
  bySku: Map<string, string>;
  byProductId: Map<number, string>;
  cities: Map<number, string>;
}

export function referenceNames(catalogue: readonly CatalogueProduct[], cities: readonly City[]): ReferenceNames {
  const bySku = new Map<string, string>();
  const byProductId = new Map<number, string>();
  for (const p of catalogue) {
    if (!p || typeof p.name !== "string") continue;
    if (typeof p.id === "number") byProductId.set(p.id, p.name);
    if (typeof p.sku === "string" && !bySku.has(p.sku)) bySku.set(p.sku, p.name);
    for (const v of Array.isArray(p.variants) ? p.variants : []) {
      if (v && typeof v.sku === "string" && !bySku.has(v.sku))
        bySku.set(v.sku, v.name ? `${p.name} (${v.name})` : p.name);
    }
  }
  return {
    bySku,
    byProductId,
    cities: new Map(cities.filter((c) => c && typeof c.id === "number").map((c) => [c.id, c.name])),
  };
}

function shortItems(items: RowItem[]): Pick<RowSummary, "items" | "moreItems"> {
  return { items: items.slice(0, ITEMS_SHOWN), moreItems: Math.max(0, items.length - ITEMS_SHOWN) };
}

/** From the lead as sent (or as it will be); undefined when the order has none. */
export function summaryFromLead(leadJson: string | null, names: ReferenceNames): RowSummary | undefined {
  const lead = parseJson(leadJson);
  if (!isRecord(lead)) return undefined;
  const name = text(lead.customer_name);
  const city = lead.city;
  const items = (Array.isArray(lead.items) ? lead.items : []).filter(isRecord).map((item) => {
    const sku = text(item.sku);
    const productId = typeof item.product_id === "number" ? item.product_id : null;
    const known = (sku && names.bySku.get(sku)) ?? (productId !== null ? names.byProductId.get(productId) : undefined);
    return {
      name: known ?? sku ?? (productId !== null ? `#${productId}` : "?"),
      quantity: typeof item.quantity === "number" ? item.quantity : 1,
      ...(sku ? { sku } : {}),
      ...(known ? {} : { unnamed: true }),
    };
  });
  return {
    customerName: name === REDACTED ? null : name,
    erased: name === REDACTED,
    cityName: typeof city === "number" ? (names.cities.get(city) ?? null) : text(city),
    ...shortItems(items),
  };
}

/** A lead's items the catalogue cannot name, named as the Shopify order names them (same SKU). */
export function nameUnnamed(summary: RowSummary, fromOrder: RowSummary | undefined): RowSummary {
  if (!fromOrder || !summary.items.some((i) => i.unnamed)) return summary;
  const titles = new Map(fromOrder.items.flatMap((i) => (i.sku ? [[i.sku, i.name] as const] : [])));
  return {
    ...summary,
    items: summary.items.map((i) => (i.unnamed && i.sku && titles.has(i.sku) ? { ...i, name: titles.get(i.sku)! } : i)),
  };
}

/** A lead whose items the catalogue cannot all name: its Shopify order names them. */
export const hasUnnamedItems = (summary: RowSummary | undefined): boolean =>
  summary?.items.some((i) => i.unnamed) ?? false;

/** From the Shopify order itself, before any lead could be built. */
export function summaryFromPayload(payload: string | null): RowSummary {
  const raw = parseJson(payload);
  if (!isRecord(raw)) return { customerName: null, erased: false, cityName: null, items: [], moreItems: 0 };
  if (raw.redacted === true) return { customerName: null, erased: true, cityName: null, items: [], moreItems: 0 };
  try {
    const order = fromWebhookOrder(raw);
    const address = order.shippingAddress ?? order.billingAddress;
    const name = address?.name ?? [address?.firstName, address?.lastName].filter(Boolean).join(" ");
    return {
      customerName: name || null,
      erased: false,
      cityName: address?.city ?? null,
      ...shortItems(
        order.lineItems.map((l) => ({
          name: l.title ?? l.name ?? l.sku ?? "?",
          quantity: l.quantity,
          ...(l.sku ? { sku: l.sku } : {}),
        })),
      ),
    };
  } catch {
    return { customerName: null, erased: false, cityName: null, items: [], moreItems: 0 };
  }
}

export interface AttentionInput {
  state: string;
  reason: string | null;
  findings: { code: string; severity: "blocking" | "warning" }[];
  anomalies: { code: string; duplicateOf: string | null }[];
  possibleDuplicate: boolean;
  /** The merchant kept a flagged duplicate as a real order. */
  duplicateKept?: boolean;
  cancelled: boolean;
  hold: HoldReasonView | null;
  refusal: Refusal | null;
  /** Shopify and the platform disagree about the sent order (OrderLink.mismatch). */
  mismatch?: string | null;
  statusFinal?: boolean;
}

/** Why the order waits for the merchant; null when it does not. */
export function attentionOf(row: AttentionInput): Attention | null {
  if (costsMoney(row) && isMismatch(row.mismatch)) return { kind: "mismatch", what: row.mismatch };
  if (row.state === "cancelled" || (row.cancelled && row.state !== "damaged" && row.state !== "created")) return null;
  switch (row.state) {
    case "held": {
      if (row.hold) return { kind: "customer", hold: row.hold };
      const blocking = row.findings.find((f) => f.severity === "blocking");
      return blocking ? { kind: "finding", code: blocking.code } : { kind: "ready", why: readyReasonOf(row.reason) };
    }
    case "invalid":
      return { kind: "refused", refusal: row.refusal };
    case "failed":
      return { kind: "failed" };
    case "damaged": {
      if (row.cancelled) return null;
      const duplicate = row.duplicateKept ? undefined : row.anomalies.find((a) => a.code === "recent_duplicate");
      const first = duplicate ?? row.anomalies.find((a) => a.code !== "recent_duplicate");
      if (first) return { kind: "anomaly", code: first.code, duplicateOf: first.duplicateOf };
      return row.possibleDuplicate ? { kind: "possibleDuplicate" } : null;
    }
    case "created":
      return row.possibleDuplicate && !row.cancelled ? { kind: "possibleDuplicate" } : null;
    default:
      return null;
  }
}
