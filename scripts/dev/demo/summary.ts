/**
 * What became of each replayed order, read from the app's OrderLink rows:
 * the JSON summary, the progress lines and the table (pure functions).
 */
import type { Expectation } from "../lib/order-files";
import type { ShopifyReadback } from "./shopify-readback";

/** One event an ad platform's stand-in accepted for an order (the conversion feed). */
export interface AdEventSummary {
  platform: "meta" | "tiktok";
  /** The event's name as sent: CODDelivered, CODRefused, CODReturned... */
  event: string;
}

/** The OrderLink columns the summary reads. */
export interface LinkRow {
  orderId: string;
  orderName: string;
  state: string;
  leadRef: string | null;
  confirmationStatus: string | null;
  shippingStatus: string | null;
  findings: string;
  anomalies: string;
  totalClient: string | null;
  phone: string | null;
  cityId: number | null;
  leadJson: string | null;
  cancelledAt: Date | null;
}

export interface OrderSummary {
  order_id: string;
  order_name: string;
  state: string;
  lead_ref: string | null;
  confirmation_status: string | null;
  shipping_status: string | null;
  findings: string[];
  anomalies: string[];
  total_client: string | null;
  phone: string | null;
  city_id: number | null;
  items: { sku?: string; product_id?: number; quantity: number }[];
  /** What the order shows in Shopify (the stand-in) after the app's write-back; null when Shopify has no such order. */
  shopify?: ShopifyReadback | null;
  /** The Shopify Flow triggers Shopify received for the order, oldest first (see flowTriggersByOrder). */
  flow_triggers?: string[];
  /** Why the customer hold keeps the order back, from its customer's delivery record; null when it does not. */
  customer_hold?: string | null;
  /** The events Meta's and TikTok's stand-ins accepted for the order, in the order they came. */
  ad_events?: AdEventSummary[];
}

/** A link still on its way to an outcome. */
export const IN_FLIGHT_STATES: ReadonlySet<string> = new Set(["received", "posting", "retrying"]);

function parseArray(json: string | null): unknown[] {
  try {
    const value: unknown = json ? JSON.parse(json) : [];
    return Array.isArray(value) ? value : [];
  } catch {
    return [];
  }
}

/** Codes of findings or anomalies stored as [{ code }] (or plain strings). */
export function codesOf(json: string | null): string[] {
  return parseArray(json).flatMap((entry) => {
    if (typeof entry === "string") return [entry];
    if (entry && typeof entry === "object" && typeof (entry as { code?: unknown }).code === "string")
      return [(entry as { code: string }).code];
    return [];
  });
}

function itemsOf(leadJson: string | null): OrderSummary["items"] {
  let lead: unknown;
  try {
    lead = leadJson ? JSON.parse(leadJson) : null;
  } catch {
    return [];
  }
  const items = lead && typeof lead === "object" ? (lead as { items?: unknown }).items : undefined;
  if (!Array.isArray(items)) return [];
  return items.flatMap((raw) => {
    if (!raw || typeof raw !== "object") return [];
    const item = raw as { sku?: unknown; product_id?: unknown; quantity?: unknown };
    return [
      {
        ...(typeof item.sku === "string" ? { sku: item.sku } : {}),
        ...(typeof item.product_id === "number" ? { product_id: item.product_id } : {}),
        quantity: typeof item.quantity === "number" ? item.quantity : 0,
      },
    ];
  });
}

export function summarize(row: LinkRow): OrderSummary {
  return {
    order_id: row.orderId,
    order_name: row.orderName,
    state: row.state,
    lead_ref: row.leadRef,
    confirmation_status: row.confirmationStatus,
    shipping_status: row.shippingStatus,
    findings: codesOf(row.findings),
    anomalies: codesOf(row.anomalies),
    total_client: row.totalClient,
    phone: row.phone,
    city_id: row.cityId,
    items: itemsOf(row.leadJson),
  };
}

/** An order the app has stored nothing for (yet), though its webhook was accepted. */
export function notReceivedSummary(orderId: string, orderName: string): OrderSummary {
  return { ...refusedSummary(orderId, orderName, 0), state: "not_received", findings: [] };
}

/** An order whose webhook the app refused (no link was stored). */
export function refusedSummary(orderId: string, orderName: string, httpStatus: number): OrderSummary {
  return {
    order_id: orderId,
    order_name: orderName,
    state: "refused",
    lead_ref: null,
    confirmation_status: null,
    shipping_status: null,
    findings: [`http_${httpStatus}`],
    anomalies: [],
    total_client: null,
    phone: null,
    city_id: null,
    items: [],
  };
}

/** `[12/31] #1012 created ATB-100012 (item_out_of_stock)` */
export function progressLine(done: number, total: number, s: OrderSummary): string {
  const width = String(total).length;
  const codes = [...s.findings, ...s.anomalies];
  return `[${String(done).padStart(width)}/${total}] ${s.order_name} ${s.state}${s.lead_ref ? ` ${s.lead_ref}` : ""}${codes.length ? ` (${codes.join(", ")})` : ""}`;
}

const COLUMNS: [string, (s: OrderSummary) => string][] = [
  ["Order", (s) => s.order_name],
  ["State", (s) => s.state],
  ["Lead ref", (s) => s.lead_ref ?? "-"],
  ["Confirmation", (s) => s.confirmation_status ?? "-"],
  ["Shipping", (s) => s.shipping_status ?? "-"],
  ["Findings", (s) => s.findings.join(", ") || "-"],
  ["Anomalies", (s) => s.anomalies.join(", ") || "-"],
  ["Ads told", (s) => adEventsText(s.ad_events ?? []) || "-"],
];

const PLATFORM_NAMES: Record<AdEventSummary["platform"], string> = { meta: "Meta", tiktok: "TikTok" };

/** Events grouped by name: "CODDelivered to Meta and TikTok". */
export function adEventsText(events: readonly AdEventSummary[]): string {
  const byName = new Map<string, string[]>();
  for (const e of events) byName.set(e.event, [...(byName.get(e.event) ?? []), PLATFORM_NAMES[e.platform]]);
  return [...byName].map(([name, platforms]) => `${name} to ${platforms.join(" and ")}`).join("; ");
}

/** A fixed-width text table, one line per order. */
export function formatTable(rows: readonly OrderSummary[]): string {
  const cells = rows.map((r) => COLUMNS.map(([, cell]) => cell(r)));
  const widths = COLUMNS.map(([title], i) => Math.max(title.length, ...cells.map((c) => c[i].length)));
  const line = (values: string[]) =>
    values.map((v, i) => (i === values.length - 1 ? v : v.padEnd(widths[i]))).join("  ");
  return [line(COLUMNS.map(([t]) => t)), widths.map((w) => "-".repeat(w)).join("  "), ...cells.map(line)].join("\n");
}

/** Counts per state, in a stable order: "created 20, damaged 2, held 8, skipped 3". */
export function stateCounts(rows: readonly OrderSummary[]): string {
  const counts = new Map<string, number>();
  for (const r of rows) counts.set(r.state, (counts.get(r.state) ?? 0) + 1);
  return [...counts.entries()]
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([s, n]) => `${s} ${n}`)
    .join(", ");
}

/** The summary's lines about the customer hold: each order it kept back and why, or that none was. */
export function customerHoldLines(rows: readonly OrderSummary[]): string[] {
  const held = rows.filter((r) => r.customer_hold);
  if (held.length === 0) return ["Customer hold: on, no order held by a customer's delivery record."];
  return held.map(
    (r) =>
      `Customer hold: ${r.order_name} held before sending, its returning customer's record says ${r.customer_hold}. Send it anyway from its page or Anomalies.`,
  );
}

/** The summary's line counting the feed's events: how many each stand-in accepted, by name, for how many orders. */
export function adEventsLine(rows: readonly OrderSummary[]): string {
  const events = rows.flatMap((r) => r.ad_events ?? []);
  if (events.length === 0) return "Conversion feed: no event accepted by Meta's or TikTok's stand-in yet.";
  const count = (platform: AdEventSummary["platform"]) => events.filter((e) => e.platform === platform).length;
  const names = new Map<string, number>();
  for (const e of events) names.set(e.event, (names.get(e.event) ?? 0) + 1);
  const orders = rows.filter((r) => (r.ad_events ?? []).length > 0).length;
  return (
    `Conversion feed: ${events.length} event${events.length === 1 ? "" : "s"} accepted for ${orders} order${orders === 1 ? "" : "s"}, ` +
    `${count("meta")} by Meta's stand-in and ${count("tiktok")} by TikTok's (` +
    [...names]
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([name, n]) => `${name} ${n}`)
      .join(", ") +
    ")."
  );
}

export interface Mismatch {
  order: string;
  expected: Expectation;
  actual: Pick<OrderSummary, "state" | "findings" | "anomalies"> | null;
}

const sameCodes = (a: readonly string[], b: readonly string[]) => [...a].sort().join(",") === [...b].sort().join(",");

/** Orders whose state, finding codes or anomaly codes differ from the expectation. */
export function compareWithExpectations(
  rows: readonly OrderSummary[],
  expected: ReadonlyMap<string, Expectation>,
): Mismatch[] {
  const byId = new Map(rows.map((r) => [r.order_id, r]));
  const mismatches: Mismatch[] = [];
  for (const [orderId, expectation] of expected) {
    const row = byId.get(orderId);
    const ok =
      row &&
      row.state === expectation.state &&
      sameCodes(row.findings, expectation.findings) &&
      sameCodes(row.anomalies, expectation.anomalies);
    if (!ok) {
      mismatches.push({
        order: row?.order_name ?? orderId,
        expected: expectation,
        actual: row ? { state: row.state, findings: row.findings, anomalies: row.anomalies } : null,
      });
    }
  }
  return mismatches;
}

export function describeMismatch(m: Mismatch): string {
  const show = (s: { state: string; findings: readonly string[]; anomalies: readonly string[] }) =>
    `${s.state} [${s.findings.join(", ")}] [${s.anomalies.join(", ")}]`;
  return `${m.order}: expected ${show(m.expected)}, got ${m.actual ? show(m.actual) : "nothing"}`;
}
