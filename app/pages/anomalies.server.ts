/**
 * The Anomalies queue: what waits for the merchant, grouped by cause, each group
 * with what is at stake (orders, amount, oldest) and the fix that applies: one fix
 * (a SKU mapping, a city alias) frees every order of its group and sends it; a
 * phone is typed per order; a refusal says what the platform said; a duplicate is
 * decided; a flagged lead is corrected in the platform's seller space.
 *
 * Grouping keys: an unknown or missing SKU by its normalised SKU (by the line's
 * title when it has none), an unrecognised city by its normalised spelling, any
 * other blocking finding or platform anomaly by its code, a refusal by the field's
 * family, and "failed" / "ready" for orders nothing else explains. Only links still waiting
 * for the merchant are read (held, invalid, failed, damaged; not cancelled), at
 * most SCAN_LIMIT of them, newest change first: the work stays bounded however
 * many orders the shop has.
 */
import { Prisma, type OrderLink } from "@prisma/client";
import type { Db } from "../db.server";
import { fromWebhookOrder } from "../leads/adapters/webhook-order";
import { normalizeCityKey } from "../leads/city-key";
import { regionOf } from "../leads/city-regions";
import { LeadRuleError } from "../leads/errors";
import { normalizeSku, shopifyIdDigits } from "../leads/sku-match";
import type { CatalogueProduct, City, Finding, Suggestion } from "../leads/types";
import {
  FieldTooLongError,
  OrderActionError,
  resendOrder,
  SecondLeadError,
  type Actor,
} from "../sync/order-actions.server";
import {
  recheckHeldOrders,
  ReleaseNotConfirmedError,
  sendReleased,
  type FixScope,
  type Release,
} from "../sync/release-held.server";
import { ensureReferenceData } from "../sync/reference-data.server";
import { connectShop, ShopNotConnectedError } from "../sync/seller-connection.server";
import { SellerApiError } from "../seller-api/errors";
import { ShopifyAdminError } from "../shopify/errors";
import { upsertSkuMapping } from "../models/sku-mapping.server";
import { saveCityAlias } from "../models/city-alias.server";
import { ANOMALY_CODES, isKnownAnomaly, type AnomalyCodeInfo } from "../models/anomaly-codes";
import { FINDING_CAUSES, readyReasonOf, type Cause, type ReadyReason } from "../models/attention";
import { FLAG_DUPLICATE_KEPT } from "../models/next-action";
import { refusedFieldOf, type Refusal } from "../models/refusal";
import { readShopSettings } from "../models/shop-settings";
import { customerHoldReasons } from "../customers/hold-reasons.server";
import { lastRefusals } from "./orders.server";
import { shopifyOrderUrl } from "./shopify-order-url";

/** Waiting links read per page load: about 80 ms at most on a 2-core machine (scripts/dev/bench/admin.ts). */
export const SCAN_LIMIT = 2000;
/** Orders listed under a group on the page (the count says how many there are). */
export const ORDERS_SHOWN = 10;
const WAITING_STATES = ["held", "invalid", "failed", "damaged"];

/** Why a fix was refused, for the page to say in the merchant's language. */
export type FixErrorCode =
  | "unknown_product"
  | "unknown_city"
  | "not_fixable"
  | "no_variant"
  | "group_gone"
  | "group_changed"
  | "invalid_phone"
  | "nothing"
  | "not_connected";

/** A fix the input makes impossible (422) or that has nothing left to do (409). */
export class FixInputError extends OrderActionError {
  constructor(
    readonly code: FixErrorCode,
    message: string,
    status: 409 | 422 = 422,
  ) {
    super(status, message);
    this.name = "FixInputError";
  }
}

/**
 * What the merchant can do for the whole group: map the SKU (or, for lines without
 * one, their Shopify variants), learn the city spelling, try sending failed orders
 * again, send orders that are ready, decide about each flagged duplicate, correct
 * flagged leads in the platform's seller space, or fix each order on its own
 * (a phone, a refused field). Never a blind "send again" of refused or flagged orders.
 */
export type GroupFix =
  | "mapSku"
  | "mapVariant"
  | "aliasCity"
  | "resend"
  | "send"
  /** Orders placed longer ago than the shop's limit: sent only on a confirmation that says how old. */
  | "sendStale"
  | "decide"
  | "sellerSpace"
  | "none";

export type GroupKind = "sku" | "city" | "finding" | "anomaly" | "refused" | "state";

export interface GroupOrder {
  id: string;
  orderName: string;
  state: string;
  amountCents: number;
  createdAt: string;
  /** A refused order: what the platform said. */
  refusal?: Refusal | null;
  /** A flagged duplicate: the earlier lead it repeats, and that lead's order in the app when it is one of the shop's. */
  duplicateOf?: { ref: string; orderId: string | null; orderName: string | null } | null;
  /** The customer's mobile (a phone group fixes it in place): never for an erased customer. */
  phone?: string | null;
  /** A product or city group: the order in Shopify's admin, where it can be cancelled. */
  shopifyUrl?: string;
  /** The Shopify order id behind shopifyUrl (read from the link, dropped from the page's data). */
  shopifyOrderId?: string;
  /** A city group: where the order goes, for the merchant to judge a proposed city. */
  address?: OrderAddress | null;
}

/** The order's shipping address as the customer wrote it. */
export interface OrderAddress {
  address1: string | null;
  address2: string | null;
  city: string | null;
  zip: string | null;
  province: string | null;
}

export interface ProblemGroup {
  /** Stable id of the cause: "sku:BABOUCHE-YLW", "title:Tapis", "city:casaanfa", "finding:phone_missing", "anomaly:inconsistent_total", "refused:phone", "state:failed", "state:ready". */
  key: string;
  kind: GroupKind;
  /** Home's cause (models/attention) this group answers. */
  cause: Cause;
  /** The finding or anomaly code that names it (the first seen for sku / city groups); the refused field's family. */
  code: string;
  /** The SKU, title or city spelling as the customer's order wrote it; the code otherwise. */
  label: string;
  fix: GroupFix;
  linkIds: string[];
  orders: GroupOrder[];
  /** Best first, one per product or city; a certain one (the one-click fix) first of all. */
  suggestions: Suggestion[];
  /** A product group: the line's title in the order ("Lampe zellige artisanale"). */
  itemTitle?: string;
  /** The amount to collect at stake, in cents. */
  amountCents: number;
  /** Orders without an amount in dirhams (a non-MAD order): not in amountCents, and not a zero either. */
  unknownAmounts: number;
  /** The "ready" group: why its orders waited, each reason once (the help says only what is true). */
  readyReasons: ReadyReason[];
  /** The oldest order's date (when it was placed). */
  oldestAt: string | null;
  /** The oldest of the orders placed within the shop's limit: the oldest a send of the group sends. */
  oldestWithinLimitAt: string | null;
  /**
   * Orders placed longer ago than the shop's limit, and their amount: a send of the group
   * leaves them waiting for the merchant's word (models/stale-order.ts), and says so first.
   */
  olderThanLimit: { count: number; amountCents: number };
}

export type ProblemGroupView = Omit<ProblemGroup, "linkIds" | "orders"> & {
  count: number;
  orders: GroupOrder[];
};

export interface AnomalyGroups {
  groups: ProblemGroupView[];
  /** The shop's limit in days (Settings): older orders are sent only with the merchant's word. */
  staleOrderDays: number;
  /** Links read; equals SCAN_LIMIT when older ones were left out. */
  scanned: number;
  truncated: boolean;
}

type ScannedLink = Pick<
  OrderLink,
  | "id"
  | "orderName"
  | "state"
  | "findings"
  | "anomalies"
  | "flags"
  | "totalCents"
  | "totalClient"
  | "createdAt"
  | "phone"
> &
  Partial<Pick<OrderLink, "orderId" | "reason">>;

function parseArray<T>(json: string): T[] {
  try {
    const value = JSON.parse(json) as unknown;
    return Array.isArray(value) ? (value as T[]) : [];
  } catch {
    return [];
  }
}

/** What names a group and its fix, before its orders are counted. */
type GroupCause = Pick<ProblemGroup, "key" | "kind" | "cause" | "code" | "label" | "fix" | "itemTitle"> &
  Partial<Pick<ProblemGroup, "suggestions">>;

/**
 * The group a SKU or city finding belongs to, with the fix that serves the whole
 * group; undefined for the other codes. Pure.
 */
export function findingGroup(
  f: Pick<Finding, "code" | "params"> & Partial<Pick<Finding, "severity">>,
): { key: string; label: string; fix: GroupFix } | undefined {
  const params = f.params ?? {};
  if (f.code === "sku_unmatched" || f.code === "sku_missing") {
    const rawSku = typeof params.sku === "string" && params.sku.trim() ? params.sku : null;
    if (rawSku) return { key: `sku:${normalizeSku(rawSku)}`, label: rawSku, fix: "mapSku" };
    const title = typeof params.title === "string" ? params.title : "";
    return { key: `title:${title}`, label: title, fix: "mapVariant" };
  }
  // A held misspelling the rules do not prove: the city the merchant picks becomes a confirmed spelling.
  if (
    f.code === "city_unmatched" ||
    f.code === "city_missing" ||
    (f.code === "city_fuzzy" && f.severity === "blocking")
  ) {
    const input = typeof params.input === "string" ? params.input : "";
    const key = normalizeCityKey(input);
    return { key: `city:${key}`, label: input, fix: key ? "aliasCity" : "none" };
  }
  return undefined;
}

/** The fix a flagged lead's group offers: a decision for a duplicate, the seller space otherwise. */
export function anomalyGroupFix(code: string): GroupFix {
  return isKnownAnomaly(code) && ANOMALY_CODES[code].fix === "decideDuplicate" ? "decide" : "sellerSpace";
}

/** The Home cause of a finding group that blocks. */
function findingCause(code: string): Cause {
  return FINDING_CAUSES.find(([, codes]) => (codes as readonly string[]).includes(code))?.[0] ?? "other";
}

export interface CauseContext {
  /** A refused order's refusal (read from its timeline). */
  refusal?: Refusal | null;
  /** Held by the customer hold (those are the customer section's, not a group's). */
  heldByCustomer?: boolean;
}

/** The causes of one link's trouble, one per group it belongs to. Pure. */
export function causesOf(
  link: Pick<ScannedLink, "state" | "findings" | "anomalies"> & Partial<Pick<ScannedLink, "flags" | "reason">>,
  context: CauseContext = {},
): GroupCause[] {
  const causes: GroupCause[] = [];
  let sku = false;
  let city = false;
  for (const f of parseArray<Finding>(link.findings)) {
    if (!f || typeof f.code !== "string") continue;
    // SKU and city findings of any severity: a fix of the group rechecks those orders too.
    const group = findingGroup(f);
    if (group) {
      const kind = f.code.startsWith("sku") ? "sku" : "city";
      const title = kind === "sku" && typeof f.params?.title === "string" ? f.params.title : undefined;
      causes.push({
        ...group,
        kind,
        cause: kind === "sku" ? "product" : "city",
        code: f.code,
        suggestions: f.suggestions,
        ...(title ? { itemTitle: title } : {}),
      });
      if (kind === "sku") sku = true;
      else city = true;
    } else if (f.severity === "blocking") {
      causes.push({
        key: `finding:${f.code}`,
        kind: "finding",
        cause: findingCause(f.code),
        code: f.code,
        label: f.code,
        fix: "none",
      });
    }
  }
  if (link.state === "damaged") {
    // A duplicate the merchant kept waits for nothing more.
    if (parseArray<string>(link.flags ?? "[]").includes(FLAG_DUPLICATE_KEPT)) return [];
    for (const a of parseArray<{ code?: unknown } | string>(link.anomalies)) {
      const code = typeof a === "string" ? a : typeof a?.code === "string" ? a.code : undefined;
      if (!code) continue;
      const known = isKnownAnomaly(code) ? (ANOMALY_CODES[code] as AnomalyCodeInfo) : undefined;
      // Already in the group whose fix resolves its cause for the next orders.
      if ((known?.sameCauseAs === "sku" && sku) || (known?.sameCauseAs === "city" && city)) continue;
      const fix = anomalyGroupFix(code);
      causes.push({
        key: `anomaly:${code}`,
        kind: "anomaly",
        cause: fix === "decide" ? "duplicate" : "flagged",
        code,
        label: code,
        fix,
      });
    }
  }
  if (causes.length === 0 && link.state === "invalid") {
    const family = refusedFieldOf(context.refusal?.field ?? null);
    causes.push({
      key: `refused:${family}`,
      kind: "refused",
      cause: "refused",
      code: family,
      label: family,
      fix: "none",
    });
  }
  if (causes.length === 0 && link.state === "failed") {
    causes.push({
      key: "state:failed",
      kind: "state",
      cause: "failed",
      code: "failed",
      label: "failed",
      fix: "resend",
    });
  }
  if (causes.length === 0 && link.state === "held" && !context.heldByCustomer) {
    causes.push(
      readyReasonOf(link.reason ?? null) === "stale"
        ? { key: "state:stale", kind: "state", cause: "stale", code: "stale", label: "stale", fix: "sendStale" }
        : { key: "state:ready", kind: "state", cause: "ready", code: "ready", label: "ready", fix: "send" },
    );
  }
  return causes;
}

/** One per item (a product's variants are items of their own), the stronger of two kept. */
function mergeSuggestions(into: Suggestion[], more: Suggestion[] | undefined) {
  const idOf = (x: Suggestion) => (x.kind === "city" ? `c${x.cityId}` : `p${x.sku}`);
  for (const s of more ?? []) {
    const existing = into.findIndex((x) => idOf(x) === idOf(s));
    if (existing === -1) into.push(s);
    else if (rankOf(into[existing]) < rankOf(s)) into[existing] = s;
  }
}

/** Certain before likely, then by score. Findings stored before confidences existed read as likely. */
const rankOf = (s: Suggestion) => (s.confidence === "certain" ? 2 : 0) + s.score;

/** Proposals in the order the pages show them: the certain one first, then by score. */
export function sortProposals(suggestions: readonly Suggestion[]): Suggestion[] {
  return [...suggestions].sort((a, b) => rankOf(b) - rankOf(a));
}

/**
 * The group's proposals: a certain one only when every order of the group proves the same
 * item (two orders proving two items prove neither), then the likely ones, best first.
 */
function settleSuggestions(suggestions: Suggestion[]): Suggestion[] {
  const certain = suggestions.filter((s) => s.confidence === "certain");
  return sortProposals(
    certain.length > 1 ? suggestions.map((s) => ({ ...s, confidence: "likely" as const })) : suggestions,
  );
}

const duplicateOfRefOf = (link: Pick<ScannedLink, "anomalies">): string | null => {
  for (const a of parseArray<{ duplicateOf?: unknown }>(link.anomalies))
    if (a && typeof a.duplicateOf === "string" && a.duplicateOf) return a.duplicateOf;
  return null;
};

/** Groups links by cause, biggest group first. Pure. */
export function groupProblems(
  links: readonly ScannedLink[],
  contexts: ReadonlyMap<string, CauseContext> = new Map(),
  /** Orders placed before this are older than the shop's limit. */
  staleBefore: Date | null = null,
): ProblemGroup[] {
  const groups = new Map<string, ProblemGroup>();
  for (const link of links) {
    const seen = new Set<string>();
    const context = contexts.get(link.id) ?? {};
    for (const cause of causesOf(link, context)) {
      let group = groups.get(cause.key);
      if (!group) {
        group = {
          key: cause.key,
          kind: cause.kind,
          cause: cause.cause,
          code: cause.code,
          label: cause.label,
          fix: cause.fix,
          linkIds: [],
          orders: [],
          suggestions: [],
          amountCents: 0,
          unknownAmounts: 0,
          readyReasons: [],
          oldestAt: null,
          oldestWithinLimitAt: null,
          ...(cause.itemTitle ? { itemTitle: cause.itemTitle } : {}),
          olderThanLimit: { count: 0, amountCents: 0 },
        };
        groups.set(cause.key, group);
      }
      mergeSuggestions(group.suggestions, cause.suggestions);
      if (seen.has(cause.key)) continue;
      seen.add(cause.key);
      group.linkIds.push(link.id);
      group.amountCents += link.totalCents ?? 0;
      if (link.totalClient === null) group.unknownAmounts++;
      if (cause.cause === "ready") {
        const why = readyReasonOf(link.reason ?? null);
        if (!group.readyReasons.includes(why)) group.readyReasons.push(why);
      }
      if (staleBefore && link.createdAt < staleBefore) {
        group.olderThanLimit.count++;
        group.olderThanLimit.amountCents += link.totalCents ?? 0;
      }
      const createdAt = link.createdAt.toISOString();
      if (!group.oldestAt || createdAt < group.oldestAt) group.oldestAt = createdAt;
      const withinLimit = !staleBefore || link.createdAt >= staleBefore;
      if (withinLimit && (!group.oldestWithinLimitAt || createdAt < group.oldestWithinLimitAt))
        group.oldestWithinLimitAt = createdAt;
      const ref = cause.kind === "anomaly" && cause.fix === "decide" ? duplicateOfRefOf(link) : null;
      group.orders.push({
        id: link.id,
        orderName: link.orderName,
        state: link.state,
        amountCents: link.totalCents ?? 0,
        createdAt,
        ...(cause.kind === "refused" ? { refusal: context.refusal ?? null } : {}),
        ...(cause.kind === "anomaly" && cause.fix === "decide"
          ? { duplicateOf: ref ? { ref, orderId: null, orderName: null } : null }
          : {}),
        ...(cause.cause === "phone" ? { phone: link.phone } : {}),
        ...((cause.kind === "sku" || cause.kind === "city") && link.orderId ? { shopifyOrderId: link.orderId } : {}),
      });
    }
  }
  for (const group of groups.values()) group.suggestions = settleSuggestions(group.suggestions);
  return [...groups.values()].sort((a, b) => b.linkIds.length - a.linkIds.length || a.key.localeCompare(b.key));
}

async function scanWaitingLinks(db: Db, shop: string): Promise<ScannedLink[]> {
  return db.orderLink.findMany({
    where: { shop, state: { in: WAITING_STATES }, cancelledAt: null },
    orderBy: [{ updatedAt: "desc" }, { id: "desc" }],
    take: SCAN_LIMIT,
    select: {
      id: true,
      orderName: true,
      state: true,
      findings: true,
      anomalies: true,
      flags: true,
      totalCents: true,
      totalClient: true,
      createdAt: true,
      phone: true,
      orderId: true,
      reason: true,
    },
  });
}

const hasBlocking = (link: Pick<ScannedLink, "findings">) =>
  parseArray<Finding>(link.findings).some((f) => f?.severity === "blocking");

export async function computeProblemGroups(
  db: Db,
  shop: string,
  now: Date = new Date(),
): Promise<{ groups: ProblemGroup[]; scanned: number; staleOrderDays: number }> {
  const [links, shopRow] = await Promise.all([
    scanWaitingLinks(db, shop),
    db.shop.findUnique({ where: { domain: shop }, select: { settings: true } }),
  ]);
  const staleOrderDays = readShopSettings(shopRow?.settings).staleOrderDays;
  // What the timeline knows: the platform's refusals, and which held orders the customer hold keeps back.
  const [refusals, holds] = await Promise.all([
    lastRefusals(
      db,
      shop,
      links.filter((l) => l.state === "invalid").map((l) => l.id),
    ),
    customerHoldReasons(
      db,
      shop,
      links.filter((l) => l.state === "held" && !hasBlocking(l)).map((l) => l.id),
    ),
  ]);
  const contexts = new Map<string, CauseContext>(
    links.map((l) => [l.id, { refusal: refusals.get(l.id) ?? null, heldByCustomer: holds.has(l.id) }]),
  );
  const staleBefore = new Date(now.getTime() - staleOrderDays * 86_400_000);
  return { groups: groupProblems(links, contexts, staleBefore), scanned: links.length, staleOrderDays };
}

/** The Anomalies page's groups (those of one cause when asked), each with its first orders only. */
export async function loadAnomalyGroups(db: Db, shop: string, options: { cause?: Cause } = {}): Promise<AnomalyGroups> {
  const { groups, scanned, staleOrderDays } = await computeProblemGroups(db, shop);
  const shown = groups
    .filter((g) => !options.cause || g.cause === options.cause)
    .map(({ linkIds, orders, ...group }) => ({
      ...group,
      count: linkIds.length,
      orders: orders.slice(0, ORDERS_SHOWN),
    }));
  // A duplicate's earlier lead, when it is one of the shop's orders: its page is linked.
  const refs = [...new Set(shown.flatMap((g) => g.orders.flatMap((o) => (o.duplicateOf ? [o.duplicateOf.ref] : []))))];
  if (refs.length > 0) {
    const earlier = await db.orderLink.findMany({
      where: { shop, leadRef: { in: refs } },
      select: { id: true, orderName: true, leadRef: true },
    });
    const byRef = new Map(earlier.map((l) => [l.leadRef!, l]));
    for (const group of shown) {
      for (const order of group.orders) {
        const found = order.duplicateOf ? byRef.get(order.duplicateOf.ref) : undefined;
        if (order.duplicateOf && found)
          order.duplicateOf = { ref: order.duplicateOf.ref, orderId: found.id, orderName: found.orderName };
      }
    }
  }
  await addOrderFacts(db, shop, shown);
  return { groups: shown, staleOrderDays, scanned, truncated: scanned >= SCAN_LIMIT };
}

/** Payloads read for addresses, as the order page bounds them: a huge order is held for its size anyway. */
const MAX_ADDRESS_PAYLOAD_BYTES = 2_000_000;

/** The shipping (else billing) address of an orders/create payload; null when unreadable or erased. */
export function orderAddressOf(payload: string | null | undefined): OrderAddress | null {
  if (!payload) return null;
  try {
    const order = fromWebhookOrder(JSON.parse(payload));
    const a = order.shippingAddress ?? order.billingAddress;
    if (!a) return null;
    const clean = (v: string | undefined) => (typeof v === "string" && v.trim() ? v.trim() : null);
    const address = {
      address1: clean(a.address1),
      address2: clean(a.address2),
      city: clean(a.city),
      zip: clean(a.zip),
      province: clean(a.province),
    };
    return Object.values(address).some(Boolean) ? address : null;
  } catch {
    return null;
  }
}

/**
 * What the merchant needs beside a product or city proposal: each shown order's page in
 * Shopify (to cancel it there), and for a city, where the order goes (read from the
 * payload of the shown orders only).
 */
async function addOrderFacts(db: Db, shop: string, groups: ProblemGroupView[]): Promise<void> {
  const cityOrders = groups.filter((g) => g.kind === "city").flatMap((g) => g.orders.map((o) => o.id));
  const payloads = new Map<string, string | null>();
  if (cityOrders.length > 0) {
    const rows = await db.$queryRaw<{ id: string; payload: string | null }[]>`
      SELECT "id", CASE WHEN octet_length("payload") <= ${MAX_ADDRESS_PAYLOAD_BYTES} THEN "payload" END AS "payload"
      FROM "OrderLink" WHERE "shop" = ${shop} AND "id" IN (${Prisma.join(cityOrders)})`;
    for (const row of rows) payloads.set(row.id, row.payload);
  }
  for (const group of groups) {
    for (const order of group.orders) {
      if (order.shopifyOrderId) order.shopifyUrl = shopifyOrderUrl(shop, order.shopifyOrderId);
      delete order.shopifyOrderId;
      if (group.kind === "city") order.address = orderAddressOf(payloads.get(order.id));
    }
  }
}

// ---------------------------------------------------------------------------
// Picker options from the cached platform lists

export interface ProductOption {
  /** The platform SKU a mapping targets (the variant's when there is one). */
  sku: string;
  productId: number;
  name: string;
  inStock: boolean;
  /** What the merchant judges a proposal by: the product, its variant, its platform price. */
  productName: string;
  variantName: string | null;
  price: string | null;
}

export interface CityOption {
  id: number;
  name: string;
  /** The region, for the merchant to judge a proposed city ("Casablanca-Settat"). */
  region: string | null;
}

function parseList<T>(json: string | null | undefined): T[] {
  return json ? parseArray<T>(json) : [];
}

/** Every platform product and variant the shop can map to, from the cached catalogue. */
export function productOptionsOf(catalogue: readonly CatalogueProduct[]): ProductOption[] {
  const options: ProductOption[] = [];
  for (const p of catalogue) {
    if (!p || typeof p.id !== "number") continue;
    const variants = (Array.isArray(p.variants) ? p.variants : []).filter(
      (v) => typeof v?.sku === "string" && v.sku.trim(),
    );
    const price = typeof p.platform_price === "string" && p.platform_price.trim() ? p.platform_price.trim() : null;
    if (typeof p.sku === "string" && p.sku.trim())
      options.push({
        sku: p.sku,
        productId: p.id,
        name: p.name,
        inStock: p.in_stock !== false,
        productName: p.name,
        variantName: null,
        price,
      });
    for (const v of variants) {
      options.push({
        sku: v.sku!,
        productId: p.id,
        name: `${p.name} (${v.name ?? v.sku})`,
        inStock: p.in_stock !== false && v.in_stock !== false,
        productName: p.name,
        variantName: v.name ?? v.sku ?? null,
        price,
      });
    }
  }
  return options;
}

export function cityOptionsOf(cities: readonly City[]): CityOption[] {
  return cities
    .filter((c) => c && typeof c.id === "number" && typeof c.name === "string")
    .map((c) => ({ id: c.id, name: c.name, region: regionOf(c.name) ?? null }))
    .sort((a, b) => a.name.localeCompare(b.name, "fr"));
}

export async function referenceOptions(
  db: Db,
  shop: string,
  want: { products: boolean; cities: boolean },
): Promise<{ products: ProductOption[]; cities: CityOption[] }> {
  if (!want.products && !want.cities) return { products: [], cities: [] };
  const row = await db.shop.findUnique({
    where: { domain: shop },
    select: { catalogueJson: want.products, citiesJson: want.cities },
  });
  return {
    products: want.products ? productOptionsOf(parseList<CatalogueProduct>(row?.catalogueJson)) : [],
    cities: want.cities ? cityOptionsOf(parseList<City>(row?.citiesJson)) : [],
  };
}

// ---------------------------------------------------------------------------
// Fixes

/** A refused fix as the page shows it: a code it translates. */
export type FixFailureCode =
  FixErrorCode | "conflict" | "invalid" | "too_long" | "second_lead" | "platform_unreachable";

/**
 * The page's answer for a refused action. Another shop's order, or one that does
 * not exist, is a 404 Response (thrown); any other error is rethrown.
 */
export function fixFailure(error: unknown): FixFailureCode {
  if (error instanceof FixInputError) return error.code;
  if (error instanceof SecondLeadError) return "second_lead";
  if (error instanceof FieldTooLongError) return "too_long";
  if (error instanceof ReleaseNotConfirmedError) return "group_changed";
  if (error instanceof OrderActionError) {
    if (error.status === 404) throw new Response("Not found", { status: 404 });
    return error.status === 409 ? "conflict" : "invalid";
  }
  if (error instanceof LeadRuleError) return "invalid";
  if (error instanceof ShopNotConnectedError) return "not_connected";
  if (error instanceof SellerApiError) return "platform_unreachable";
  throw error;
}

/** A refused merchant action as the order and Anomalies pages show it: Shopify's refusal, or the fix's. */
export function actionFailure(error: unknown): FixFailureCode | "shopify_failed" {
  return error instanceof ShopifyAdminError ? "shopify_failed" : fixFailure(error);
}

async function requireProduct(db: Db, shop: string, platformSku: string): Promise<ProductOption> {
  const { products } = await referenceOptions(db, shop, { products: true, cities: false });
  const wanted = normalizeSku(platformSku);
  const product = products.find((p) => normalizeSku(p.sku) === wanted);
  if (!product) throw new FixInputError("unknown_product", "this product is not in the platform catalogue");
  return product;
}

export async function requireCity(db: Db, shop: string, cityId: number): Promise<CityOption> {
  const { cities } = await referenceOptions(db, shop, { products: false, cities: true });
  const city = cities.find((c) => c.id === cityId);
  if (!city) throw new FixInputError("unknown_city", "this city is not one of the platform's delivered cities");
  return city;
}

function parseKey(key: string): { kind: string; value: string } {
  const at = key.indexOf(":");
  return at < 0 ? { kind: "", value: "" } : { kind: key.slice(0, at), value: key.slice(at + 1) };
}

export interface FixOutcome {
  resent: number;
  /** Orders of the group that could not be sent again (in flight, cancelled meanwhile). */
  skipped: number;
  /**
   * The orders a fix freed when they are more than one: not sent, they wait for the one
   * confirmation that states how many, how old and how much (ReleaseModal, then sendReleased).
   */
  release?: Release;
}

/**
 * Maps the group's Shopify SKU to a platform product and resends every order it
 * blocks. A group of lines without SKU is mapped by their Shopify variant ids.
 */
export async function fixSkuGroup(
  db: Db,
  shop: string,
  input: { key: string; platformSku: string },
  actor: Actor,
): Promise<FixOutcome> {
  const product = await requireProduct(db, shop, input.platformSku);
  const targets = [{ sku: product.sku, quantity: 1 }];
  const { kind, value } = parseKey(input.key);
  if (kind === "sku" && value) {
    return applyGroupFix(db, shop, input.key, { kind: "products" }, actor, async () => {
      await upsertSkuMapping(db, shop, { sourceKind: "sku", sourceKey: value, targets, label: product.name });
    });
  }
  if (kind !== "title") throw new FixInputError("not_fixable", "this group is not fixed by a product mapping");

  // No SKU to map: the lines' Shopify variants are, one mapping each.
  const links = await db.orderLink.findMany({
    where: {
      shop,
      state: { in: WAITING_STATES },
      cancelledAt: null,
      OR: [{ findings: { contains: '"sku_missing"' } }, { findings: { contains: '"sku_unmatched"' } }],
    },
    orderBy: [{ updatedAt: "desc" }],
    take: SCAN_LIMIT,
    select: { id: true, findings: true, payload: true },
  });
  const blocked: { link: { id: string }; variantIds: string[] }[] = [];
  for (const link of links) {
    const lineIds = parseArray<Finding>(link.findings)
      .filter(
        (f) =>
          (f.code === "sku_missing" || f.code === "sku_unmatched") &&
          !(typeof f.params?.sku === "string" && f.params.sku.trim()) &&
          f.params?.title === value,
      )
      .map((f) => String(f.params.lineItemId ?? ""));
    if (lineIds.length === 0) continue;
    let variantIds: string[] = [];
    try {
      const order = fromWebhookOrder(JSON.parse(link.payload));
      variantIds = order.lineItems
        .filter((l) => lineIds.includes(l.id))
        .flatMap((l) => shopifyIdDigits(l.variantId) ?? []);
    } catch {
      variantIds = [];
    }
    blocked.push({ link, variantIds });
  }
  const variants = [...new Set(blocked.flatMap((b) => b.variantIds))];
  if (variants.length === 0) throw new FixInputError("no_variant", "these lines have no Shopify variant to map");
  return applyGroupFix(db, shop, input.key, { kind: "products" }, actor, async () => {
    for (const variantId of variants) {
      await upsertSkuMapping(db, shop, {
        sourceKind: "variant",
        sourceKey: variantId,
        targets,
        label: value || product.name,
      });
    }
  });
}

/**
 * "Check again" for a product the platform did not have: reads the catalogue from the
 * platform now (the merchant has just added the product in their seller space), checks
 * the product group's held orders against it and sends those it frees, as a mapping does.
 * `resent` 0 means the product is still not on the platform.
 */
export async function checkCatalogueAgain(
  db: Db,
  shop: string,
  key: string,
  actor: Actor,
  options: { connect?: typeof connectShop } = {},
): Promise<FixOutcome> {
  const { kind } = parseKey(key);
  if (kind !== "sku" && kind !== "title") throw new FixInputError("not_fixable", "this group is not about a product");
  const shopRow = await db.shop.findUnique({ where: { domain: shop } });
  if (!shopRow) throw new ShopNotConnectedError(shop, "no_key");
  const { client } = (options.connect ?? connectShop)(db, shopRow);
  return applyGroupFix(db, shop, key, { kind: "products" }, actor, async () => {
    await ensureReferenceData(db, shopRow, client, { now: actor.now ?? new Date(), force: ["catalogue"] });
  });
}

/**
 * Saves a group's fix, then releases what it frees: the held orders it may concern
 * are checked again (their findings rewritten) and those nothing holds any more are
 * named. One is sent at once; more than one go only on the merchant's confirmation
 * (returned as `release`), as every send of more than one order does. `skipped` counts
 * the group's orders still waiting (another finding, or a lead already on the platform).
 */
async function applyGroupFix(
  db: Db,
  shop: string,
  key: string,
  scope: FixScope,
  actor: Actor,
  save: () => Promise<void>,
): Promise<FixOutcome> {
  const before = (await computeProblemGroups(db, shop)).groups.find((g) => g.key === key);
  await save();
  const release = await recheckHeldOrders(db, shop, scope, { now: actor.now });
  const released = new Set(release.orders.map((o) => o.id));
  const skipped = (before?.linkIds ?? []).filter((id) => !released.has(id)).length;
  if (release.orders.length > 1) return { resent: 0, skipped, release };
  const { sent } = await sendReleased(
    db,
    shop,
    release.orders.map((o) => o.id),
    actor,
  );
  return { resent: sent, skipped };
}

/** Learns the group's city spelling as an alias of a delivered city and resends every order it blocks. */
export async function fixCityGroup(
  db: Db,
  shop: string,
  input: { key: string; cityId: number },
  actor: Actor,
): Promise<FixOutcome> {
  const city = await requireCity(db, shop, input.cityId);
  const { kind, value } = parseKey(input.key);
  // The key is the spelling already normalised, and normalising is idempotent.
  if (kind !== "city" || !value) throw new FixInputError("not_fixable", "this group is not fixed by a city alias");
  return applyGroupFix(db, shop, input.key, { kind: "cities" }, actor, async () => {
    await saveCityAlias(db, shop, { alias: value, cityId: city.id, source: "learned" });
  });
}

async function resendAll(db: Db, shop: string, linkIds: readonly string[], actor: Actor): Promise<FixOutcome> {
  let resent = 0;
  let skipped = 0;
  for (const id of linkIds) {
    try {
      await resendOrder(db, shop, id, actor);
      resent++;
    } catch (error) {
      if (!(error instanceof OrderActionError)) throw error;
      skipped++;
    }
  }
  return { resent, skipped };
}

/** Sends every order of a group again (after a fix made elsewhere, or a failure that passed). */
export async function resendGroup(
  db: Db,
  shop: string,
  key: string,
  actor: Actor,
  confirmedCount?: number,
): Promise<FixOutcome> {
  const { groups } = await computeProblemGroups(db, shop);
  const group = groups.find((g) => g.key === key);
  if (!group) throw new FixInputError("group_gone", "no orders wait for this cause any more", 409);
  // Only orders without a lead: failed ones (tried again), ready ones (sent for the first time), and
  // old ones the merchant confirmed knowing their age.
  if (group.fix !== "resend" && group.fix !== "send" && group.fix !== "sendStale")
    throw new FixInputError("not_fixable", "this group is not fixed by sending again");
  // The confirmation said how many: a group that changed since is shown again with its new figures.
  if (confirmedCount !== undefined && confirmedCount !== group.linkIds.length)
    throw new FixInputError("group_changed", "the group changed since the confirmation", 409);
  return resendAll(db, shop, group.linkIds, {
    ...actor,
    sendStale: group.fix === "sendStale" && actor.sendStale === true,
  });
}

/** Resends the given links of the shop (the Orders page's bulk action); others' ids count as skipped. */
export async function resendOrders(
  db: Db,
  shop: string,
  linkIds: readonly string[],
  actor: Actor,
): Promise<FixOutcome> {
  return resendAll(db, shop, [...new Set(linkIds)].slice(0, 500), actor);
}

/** Sends again the shop's failed orders: the given ones, or every one (up to 500). */
export async function retryFailedOrders(
  db: Db,
  shop: string,
  linkIds: readonly string[] | undefined,
  actor: Actor,
): Promise<FixOutcome> {
  const failed = await db.orderLink.findMany({
    where: {
      shop,
      state: "failed",
      cancelledAt: null,
      ...(linkIds ? { id: { in: [...new Set(linkIds)].slice(0, 500) } } : {}),
    },
    orderBy: { updatedAt: "desc" },
    take: 500,
    select: { id: true },
  });
  const outcome = await resendAll(
    db,
    shop,
    failed.map((l) => l.id),
    actor,
  );
  return { ...outcome, skipped: outcome.skipped + (linkIds ? new Set(linkIds).size - failed.length : 0) };
}
