/**
 * One order's page: the lead as it was (or will be) sent, its findings and
 * anomalies each with the fix that applies, the timeline with exact times, and
 * the per-order corrections. Scoped to the shop: another shop's link is "not found".
 */
import type { OrderLink } from "@prisma/client";
import type { Db } from "../db.server";
import { fromWebhookOrder } from "../leads/adapters/webhook-order";
import { MAX_LINE_ITEMS } from "../leads/field-limits";
import { normalizeMoroccanPhone } from "../leads/phone";
import type { CatalogueProduct, City, Finding, FindingParams, Suggestion } from "../leads/types";
import { DEFAULT_TIME_ZONE } from "../analytics/days";
import {
  findingGroup,
  FixInputError,
  orderAddressOf,
  referenceOptions,
  requireCity,
  sortProposals,
  type CityOption,
  type OrderAddress,
  type ProductOption,
} from "./anomalies.server";
import {
  assertOverrideLengths,
  resendOrder,
  setOrderOverrides,
  type Actor,
  type OrderOverrides,
} from "../sync/order-actions.server";
import { listTimeline } from "../models/timeline.server";
import { customerTimelineDetail, type CustomerTimelineDetail } from "../customers/hold-reason";
import { zonedTime } from "../time-zone";
import { isMessageKey } from "../i18n";
import { readMessageRef, type MessageRef } from "../i18n/message-ref";
import { FLAG_DUPLICATE_AFTER_NETWORK_FAILURE } from "../models/order-link-state";
import { FLAG_DUPLICATE_KEPT, nextActionOf, type NextAction } from "../models/next-action";
import type { Refusal } from "../models/refusal";
import { lastRefusals } from "./orders.server";
import { customerHoldReasons } from "../customers/hold-reasons.server";
import { duplicateOfRef } from "../sync/order-actions.server";
import { shopifyOrderUrl } from "./shopify-order-url";
import { readShopSettings } from "../models/shop-settings";
import { ageInDays } from "../models/stale-order";
import { costsMoney, isMismatch, type Mismatch } from "../models/mismatch";
import { toCents } from "../leads/money";

/** How a finding is fixed from the order's page. */
export type FindingFix =
  /** Map the Shopify SKU to a platform product: every order with it is resent. */
  | "mapSku"
  /** Map the lines' Shopify variants (no SKU) to a platform product. */
  | "mapVariant"
  /** Learn the spelling as an alias of a delivered city: every order with it is resent. */
  | "aliasCity"
  /** Choose the city for this order only. */
  | "setCity"
  /** Enter the customer's mobile for this order only. */
  | "phone"
  | "none";

export interface FindingView {
  code: string;
  severity: "blocking" | "warning";
  field: string;
  /** The mapper's plain-English message (shown when the code has no translation). */
  message: string;
  params: FindingParams;
  suggestions: Suggestion[];
  fix: FindingFix;
  /** The Anomalies group this finding belongs to (fixes through it apply to the whole group). */
  groupKey: string | null;
}

export interface LeadItemView {
  sku: string | null;
  productId: number | null;
  /** The platform's name, from the cached catalogue; else the Shopify product's title. */
  name: string | null;
  /** False when the platform's catalogue does not hold the item (its name is then Shopify's). */
  inCatalogue: boolean;
  quantity: number;
}

export interface LeadView {
  /** "lead": what was or will be sent; "order": no lead could be built yet, the Shopify order's own fields. */
  source: "lead" | "order";
  customerName: string | null;
  phone: string | null;
  cityId: number | null;
  /** The delivered city's name, or the text as the customer wrote it. */
  cityName: string | null;
  address: string | null;
  totalClient: string | null;
  /** MAD for a lead; the order's own currency otherwise. */
  currency: string;
  items: LeadItemView[];
}

export interface TimelineView {
  id: string;
  kind: string;
  /** The stored English (rows written before `text`, or with a key this build lacks). */
  message: string;
  /** The sentence as a reference, rendered in the reader's language. */
  text: MessageRef | null;
  /** A technical message from the platform or Shopify, shown as they wrote it (English). */
  detail: string | null;
  /** Exact UTC instant, ISO with milliseconds. */
  at: string;
  /** The same instant in the shop's time zone, "YYYY-MM-DD HH:MM:SS". */
  local: string;
  /** That zone's offset at the instant, "+01:00" (the zone's name is shown, the offset on hover). */
  offset: string;
  /** A customer step's content as data, shown in the merchant's language instead of the message. */
  customer?: CustomerTimelineDetail;
  /**
   * What the step caused right after it, folded into its row: the Shopify order updated, the
   * Flow trigger sent, the platform's answer to a send. One row per event on the page.
   */
  consequences: { kind: string; text: MessageRef | null; message: string }[];
}

/** A consequence this long after its cause is an event of its own. */
const FOLD_WITHIN_MS = 15 * 60_000;

/**
 * The steps a row is the consequence of, when it succeeded: a Flow trigger of the event that
 * fires it, the Shopify order updated after a send or a status move, the platform's answer
 * to a send. Empty for a row that stands alone (a failure always does). Pure.
 */
export function causesOfRow(row: { kind: string; text: MessageRef | null; data?: unknown }): readonly string[] {
  const key = row.text?.key ?? "";
  const handle = row.data && typeof row.data === "object" ? (row.data as { handle?: unknown }).handle : undefined;
  if (row.kind === "flow" && key === "timeline.text.flowSent") {
    if (handle === "lead-created") return ["posted"];
    if (handle === "lead-status-changed") return ["status_changed"];
    if (handle === "order-needs-attention") return ["held", "posted", "failed", "customer_hold"];
    return [];
  }
  if (row.kind === "written_back" && key === "timeline.text.writtenBack")
    return ["status_changed", "posted", "cancelled"];
  if (row.kind === "answered" && (key === "timeline.text.leadCreated" || key === "timeline.text.leadCreatedAnomalies"))
    return ["posted"];
  return [];
}

/**
 * One row per event: a write-back to Shopify, a Flow trigger or the platform's answer joins
 * the latest row of the event that caused it (within minutes); failures stay rows of their
 * own. Pure; rows in time order.
 */
export function foldTimeline(
  rows: readonly (Omit<TimelineView, "consequences"> & { foldsInto: readonly string[] })[],
): TimelineView[] {
  const out: TimelineView[] = [];
  for (const { foldsInto, ...row } of rows) {
    const cause =
      foldsInto.length > 0
        ? out.findLast((r) => foldsInto.includes(r.kind) && Date.parse(row.at) - Date.parse(r.at) <= FOLD_WITHIN_MS)
        : undefined;
    if (cause) cause.consequences.push({ kind: row.kind, text: row.text, message: row.message });
    else out.push({ ...row, consequences: [] });
  }
  return out;
}

export interface OrderDetail {
  id: string;
  orderId: string;
  orderName: string;
  shopifyUrl: string;
  state: string;
  reason: string | null;
  /** The reason as a reference (rendered in the reader's language); null for older rows. */
  reasonText: MessageRef | null;
  leadRef: string | null;
  externalRef: string;
  confirmationStatus: string | null;
  shippingStatus: string | null;
  trackingNumber: string | null;
  sellerProfit: string | null;
  createdAt: string;
  updatedAt: string;
  postedAt: string | null;
  postCount: number;
  resendBy: string | null;
  resendAt: string | null;
  cancelledAt: string | null;
  /** The amount to collect in MAD cents, known from the order's arrival whatever holds it; null when it has none in MAD. */
  amountCents: number | null;
  /** When the order was placed in Shopify (ISO), and the same in the shop's zone. */
  placedAt: string;
  placedLocal: string;
  /** Whole days since it was placed. */
  ageDays: number;
  /** Set when an import of past orders took it in (ISO). */
  importedAt: string | null;
  /** The shop's limit in days: older orders are sent only with the merchant's word. */
  staleOrderDays: number;
  /** Shopify and the platform disagree about the sent order in a way that costs money, while its lead moves. */
  mismatch: Mismatch | null;
  /** The platform's delivery fee for the order's city, in cents; null when unknown. */
  deliveryFeeCents: number | null;
  /** The platform's seller space, when the merchant gave its address in Settings. */
  sellerSpaceUrl: string | null;
  lead: LeadView | null;
  findings: FindingView[];
  anomalies: { code: string; message: string; field: string | null }[];
  flags: string[];
  possibleDuplicate: boolean;
  overrides: OrderOverrides;
  canResend: boolean;
  timeline: TimelineView[];
  timeZone: string;
  /** Picker options, loaded only when a finding's fix needs them. */
  products: ProductOption[];
  cities: CityOption[];
  /** Where the order goes, read when a city is to be chosen: the merchant judges a proposed city by it. */
  shippingAddress: OrderAddress | null;
  /** The one thing the order asks of the merchant now (models/next-action). */
  nextAction: NextAction;
  /** The customer hold keeps it back (the last hold decision on the timeline says so). */
  heldByCustomer: boolean;
  /** A refused order: what the platform said. */
  refusal: Refusal | null;
  /** A flagged duplicate: the earlier lead it repeats, with its order in the app when it is the shop's. */
  duplicateOf: { ref: string; orderId: string | null; orderName: string | null } | null;
  duplicateKept: boolean;
  /** The customer's data was erased at Shopify's request: no contact. */
  erased: boolean;
  /** The customer's mobile (as stored for the lead), for the contact links; null when erased or unusable. */
  phone: string | null;
}

// ---------------------------------------------------------------------------
// Pure parts

function parseJson<T>(json: string | null | undefined, fallback: T): T {
  if (!json) return fallback;
  try {
    return (JSON.parse(json) as T) ?? fallback;
  } catch {
    return fallback;
  }
}

const PHONE_CODES = new Set(["phone_missing", "phone_invalid", "phone_landline", "phone_foreign", "phone_unverified"]);
const CITY_CHOICE_CODES = new Set(["city_missing", "city_fuzzy", "city_from_address"]);

export function fixOf(finding: Pick<Finding, "code" | "params" | "severity">): {
  fix: FindingFix;
  groupKey: string | null;
} {
  const group = findingGroup(finding);
  if (group && group.fix !== "none") return { fix: group.fix as FindingFix, groupKey: group.key };
  if (CITY_CHOICE_CODES.has(finding.code) || finding.code === "city_unmatched")
    return { fix: "setCity", groupKey: group?.key ?? null };
  if (PHONE_CODES.has(finding.code)) return { fix: "phone", groupKey: null };
  return { fix: "none", groupKey: group?.key ?? null };
}

export function toFindingViews(json: string): FindingView[] {
  return parseJson<Finding[]>(json, [])
    .filter((f) => f && typeof f.code === "string")
    .map((f) => ({
      code: f.code,
      severity: f.severity === "blocking" ? "blocking" : "warning",
      field: typeof f.field === "string" ? f.field : "",
      message: typeof f.message === "string" ? f.message : "",
      params: f.params ?? {},
      suggestions: Array.isArray(f.suggestions) ? sortProposals(f.suggestions) : [],
      ...fixOf(f),
    }));
}

export { shopifyOrderUrl };

interface StoredLead {
  customer_name?: unknown;
  customer_phone?: unknown;
  city?: unknown;
  address?: unknown;
  total_client?: unknown;
  items?: unknown;
}

const str = (v: unknown) => (typeof v === "string" && v.trim() ? v : null);

/** The lead from leadJson, names from the cached lists; else the Shopify order's own fields. */
export function leadViewOf(
  link: Pick<OrderLink, "leadJson" | "payload" | "totalClient">,
  catalogue: readonly CatalogueProduct[],
  cities: readonly City[],
): LeadView | null {
  const lead = parseJson<StoredLead | null>(link.leadJson, null);
  if (lead && typeof lead === "object") {
    const cityId = typeof lead.city === "number" ? lead.city : null;
    const items = (Array.isArray(lead.items) ? lead.items : []).map((raw): LeadItemView => {
      const item = (raw ?? {}) as { sku?: unknown; product_id?: unknown; quantity?: unknown };
      const sku = str(item.sku);
      const productId = typeof item.product_id === "number" ? item.product_id : null;
      const name = catalogueName(catalogue, sku, productId);
      return {
        sku,
        productId,
        name,
        inCatalogue: name !== null,
        quantity: typeof item.quantity === "number" ? item.quantity : 1,
      };
    });
    return {
      source: "lead",
      customerName: str(lead.customer_name),
      phone: str(lead.customer_phone),
      cityId,
      cityName: cityId !== null ? (cities.find((c) => c.id === cityId)?.name ?? null) : str(lead.city),
      address: str(lead.address),
      totalClient: str(lead.total_client) ?? link.totalClient,
      currency: "MAD",
      items,
    };
  }
  try {
    const payload = JSON.parse(link.payload) as { line_items?: unknown };
    // No more lines than one lead may hold (an order over it is held with a finding saying how many).
    if (Array.isArray(payload?.line_items) && payload.line_items.length > MAX_LINE_ITEMS)
      payload.line_items = payload.line_items.slice(0, MAX_LINE_ITEMS);
    const order = fromWebhookOrder(payload);
    const address = order.shippingAddress ?? order.billingAddress;
    const name = address?.name ?? [address?.firstName, address?.lastName].filter(Boolean).join(" ");
    return {
      source: "order",
      customerName: name || null,
      phone: address?.phone ?? order.phone ?? order.customer?.phone ?? null,
      cityId: null,
      cityName: address?.city ?? null,
      address: [address?.address1, address?.address2].filter(Boolean).join(", ") || null,
      totalClient: order.currentTotal?.amount ?? null,
      currency: order.currentTotal?.currencyCode || order.currency || "",
      items: order.lineItems.map((l) => ({
        sku: l.sku ?? null,
        productId: null,
        name: l.title ?? l.name ?? null,
        inCatalogue: true,
        quantity: l.quantity,
      })),
    };
  } catch {
    return null;
  }
}

function catalogueName(
  catalogue: readonly CatalogueProduct[],
  sku: string | null,
  productId: number | null,
): string | null {
  for (const p of catalogue) {
    if (productId !== null && p.id === productId) return p.name;
    if (sku === null) continue;
    if (p.sku === sku) return p.name;
    const variant = (p.variants ?? []).find((v) => v.sku === sku);
    if (variant) return `${p.name} (${variant.name ?? variant.sku})`;
  }
  return null;
}

/** Names the items the catalogue lacks by the Shopify line of the same SKU. */
function nameFromShopify(items: LeadItemView[], payload: string): void {
  let titles = new Map<string, string>();
  try {
    const order = fromWebhookOrder(JSON.parse(payload));
    titles = new Map(
      order.lineItems.flatMap((l) => (l.sku && (l.title || l.name) ? [[l.sku, (l.title || l.name)!] as const] : [])),
    );
  } catch {
    return;
  }
  for (const item of items) if (item.name === null && item.sku) item.name = titles.get(item.sku) ?? null;
}

/** The platform's delivery fee for a city, in cents; null when the city or its fee is unknown. */
export function deliveryFeeOf(cities: readonly City[], cityId: number | null): number | null {
  if (cityId === null) return null;
  return toCents(cities.find((c) => c?.id === cityId)?.delivery_fee) ?? null;
}

/** Mirrors resendOrder's rule: anything but in flight or cancelled. */
export function canResend(link: Pick<OrderLink, "state" | "cancelledAt">): boolean {
  return !link.cancelledAt && link.state !== "posting" && link.state !== "cancelled";
}

// ---------------------------------------------------------------------------
// Queries and actions

/**
 * Payloads shown as the order's own fields: 500 lines with long titles stay well
 * under this. A larger order is held for its size (its finding says so), and
 * reading its megabytes on every view cost more than the rest of the page.
 */
const MAX_PAYLOAD_SHOWN_BYTES = 2_000_000;

/**
 * The link's payload when at most MAX_PAYLOAD_SHOWN_BYTES, else "" (octet_length is read from
 * the varlena header). Quoted identifiers: PostgreSQL folds unquoted ones to lower case.
 */
async function payloadIfShown(db: Db, linkId: string): Promise<string> {
  const rows = await db.$queryRaw<{ payload: string | null }[]>`
    SELECT CASE WHEN octet_length("payload") <= ${MAX_PAYLOAD_SHOWN_BYTES} THEN "payload" END AS "payload" FROM "OrderLink" WHERE "id" = ${linkId}`;
  return rows[0]?.payload ?? "";
}

export async function loadOrderDetail(
  db: Db,
  shop: string,
  linkId: string,
  options: { timeZone?: string; now?: Date } = {},
): Promise<OrderDetail | null> {
  const timeZone = options.timeZone ?? DEFAULT_TIME_ZONE;
  // Shopify's payload is read only when the page shows it (no lead yet), and only when not huge.
  const row = await db.orderLink.findFirst({ where: { id: linkId, shop }, omit: { payload: true } });
  if (!row) return null;
  const link = { ...row, payload: row.leadJson ? "" : await payloadIfShown(db, row.id) };
  const [shopRow, timeline] = await Promise.all([
    db.shop.findUnique({ where: { domain: shop }, select: { catalogueJson: true, citiesJson: true, settings: true } }),
    listTimeline(db, shop, link.id),
  ]);
  const catalogue = parseJson<CatalogueProduct[]>(shopRow?.catalogueJson, []);
  const cities = parseJson<City[]>(shopRow?.citiesJson, []);
  const findings = toFindingViews(link.findings);
  const flags = parseJson<unknown[]>(link.flags, []).filter((f): f is string => typeof f === "string");
  const wantProducts = findings.some((f) => f.fix === "mapSku" || f.fix === "mapVariant");
  const wantCities = findings.some((f) => f.fix === "aliasCity" || f.fix === "setCity");
  const addressPayload = wantCities ? link.payload || (await payloadIfShown(db, link.id)) : "";
  const ref = link.state === "damaged" ? duplicateOfRef(link) : null;
  const [options_, refusals, holds, earlier] = await Promise.all([
    referenceOptions(db, shop, { products: wantProducts, cities: wantCities }),
    link.state === "invalid" ? lastRefusals(db, shop, [link.id]) : Promise.resolve(new Map<string, Refusal>()),
    link.state === "held" ? customerHoldReasons(db, shop, [link.id]) : Promise.resolve(new Map()),
    ref
      ? db.orderLink.findFirst({
          where: { shop, leadRef: ref, id: { not: link.id } },
          select: { id: true, orderName: true },
        })
      : Promise.resolve(null),
  ]);
  const iso = (d: Date | null) => (d ? d.toISOString() : null);
  const settings = readShopSettings(shopRow?.settings);
  const placedAt = link.orderCreatedAt ?? link.createdAt;
  const heldByCustomer = holds.has(link.id);
  const duplicateKept = flags.includes(FLAG_DUPLICATE_KEPT);
  const anomalyCodes = parseJson<unknown[]>(link.anomalies, []).flatMap((a) =>
    typeof a === "string"
      ? [a]
      : a && typeof (a as { code?: unknown }).code === "string"
        ? [(a as { code: string }).code]
        : [],
  );
  const lead = leadViewOf(link, catalogue, cities);
  // An item the catalogue lacks is named as the Shopify order names it (read only then).
  if (lead?.source === "lead" && lead.items.some((i) => i.name === null))
    nameFromShopify(lead.items, await payloadIfShown(db, link.id));
  const erased = lead?.customerName === "[redacted]" || link.payload.includes('"redacted":true');
  return {
    id: link.id,
    orderId: link.orderId,
    orderName: link.orderName,
    shopifyUrl: shopifyOrderUrl(shop, link.orderId),
    state: link.state,
    reason: link.reason,
    reasonText: link.reason ? readMessageRef(link.reasonText, isMessageKey) : null,
    leadRef: link.leadRef,
    externalRef: link.externalRef,
    confirmationStatus: link.confirmationStatus,
    shippingStatus: link.shippingStatus,
    trackingNumber: link.trackingNumber,
    sellerProfit: link.sellerProfit,
    createdAt: link.createdAt.toISOString(),
    updatedAt: link.updatedAt.toISOString(),
    postedAt: iso(link.postedAt),
    postCount: link.postCount,
    resendBy: link.resendBy,
    resendAt: iso(link.resendAt),
    cancelledAt: iso(link.cancelledAt),
    amountCents: link.totalClient === null ? null : link.totalCents,
    placedAt: placedAt.toISOString(),
    placedLocal: zonedTime(placedAt, timeZone).local,
    ageDays: ageInDays(placedAt, options.now ?? new Date()),
    importedAt: iso(link.importedAt),
    staleOrderDays: settings.staleOrderDays,
    mismatch: costsMoney(link) && isMismatch(link.mismatch) ? link.mismatch : null,
    deliveryFeeCents: deliveryFeeOf(cities, link.cityId),
    sellerSpaceUrl: settings.sellerSpaceUrl ?? null,
    lead,
    findings,
    anomalies: parseJson<unknown[]>(link.anomalies, []).flatMap((a) => {
      if (typeof a === "string") return [{ code: a, message: a, field: null }];
      const record = (a ?? {}) as { code?: unknown; message?: unknown; field?: unknown };
      return typeof record.code === "string"
        ? [
            {
              code: record.code,
              message: typeof record.message === "string" ? record.message : "",
              field: typeof record.field === "string" ? record.field : null,
            },
          ]
        : [];
    }),
    flags,
    possibleDuplicate: flags.includes(FLAG_DUPLICATE_AFTER_NETWORK_FAILURE),
    overrides: parseJson<OrderOverrides>(link.overrides, {}),
    canResend: canResend(link),
    timeline: foldTimeline(
      timeline.map((event) => ({
        id: event.id,
        kind: event.kind,
        message: event.message,
        text: event.text,
        detail: detailOf(event.data),
        at: event.at.toISOString(),
        ...zonedTime(event.at, timeZone),
        ...withCustomerDetail(event.kind, event.data),
        foldsInto: causesOfRow(event),
      })),
    ),
    timeZone,
    products: options_.products,
    cities: options_.cities,
    shippingAddress: wantCities ? orderAddressOf(addressPayload) : null,
    nextAction: nextActionOf({
      state: link.state,
      cancelled: link.cancelledAt !== null,
      leadRef: link.leadRef,
      blocking: findings.filter((f) => f.severity === "blocking").map((f) => f.code),
      anomalies: anomalyCodes,
      heldByCustomer,
      confirmationStatus: link.confirmationStatus,
      duplicateKept,
      reason: link.reason,
      mismatch: link.mismatch,
      statusFinal: link.statusFinal,
    }),
    heldByCustomer,
    refusal: refusals.get(link.id) ?? null,
    duplicateOf: ref ? { ref, orderId: earlier?.id ?? null, orderName: earlier?.orderName ?? null } : null,
    duplicateKept,
    erased,
    phone: erased ? null : link.phone,
  };
}

/**
 * Corrects this order only (the Shopify order is unchanged) and sends it again.
 * A phone must be a Moroccan mobile; a city must be one the platform delivers.
 */
export async function correctAndResend(
  db: Db,
  shop: string,
  linkId: string,
  input: { phone?: string; address?: string; cityId?: number },
  actor: Actor,
): Promise<{ resent: number }> {
  assertOverrideLengths(input);
  const overrides: OrderOverrides = {};
  if (input.phone?.trim()) {
    const phone = normalizeMoroccanPhone(input.phone);
    if (!phone.ok) throw new FixInputError("invalid_phone", "enter a Moroccan mobile number (06 or 07)");
    overrides.phone = phone.phone;
  }
  if (input.address?.trim()) overrides.address = input.address.trim().slice(0, 500);
  if (input.cityId !== undefined) overrides.city = (await requireCity(db, shop, input.cityId)).name;
  if (Object.keys(overrides).length === 0) throw new FixInputError("nothing", "nothing to correct");
  await setOrderOverrides(db, shop, linkId, overrides, actor);
  await resendOrder(db, shop, linkId, actor);
  return { resent: 1 };
}

/** True when the link exists and is the shop's (checked before any shop-wide fix runs). */
export async function orderBelongsTo(db: Db, shop: string, linkId: string): Promise<boolean> {
  return (await db.orderLink.count({ where: { id: linkId, shop } })) === 1;
}
/** The third party's own words kept with an entry (data.detail), when any. */
function detailOf(data: unknown): string | null {
  const detail = data && typeof data === "object" ? (data as { detail?: unknown }).detail : undefined;
  return typeof detail === "string" && detail.trim() ? detail : null;
}

function withCustomerDetail(kind: string, data: unknown): { customer?: CustomerTimelineDetail } {
  const customer = customerTimelineDetail(kind, data);
  return customer ? { customer } : {};
}
