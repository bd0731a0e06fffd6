/**
 * The Anomalies queue: the shop's blocked orders grouped by cause, so one fix
 * (a SKU mapping, a city alias) unblocks every order of its group and resends them.
 *
 * Grouping keys: an unknown or missing SKU by its normalised SKU (by the line's
 * title when it has none), an unrecognised city by its normalised spelling, any
 * other blocking finding or platform anomaly by its code. Only links still waiting
 * for the merchant are read (held, invalid, failed, damaged; not cancelled), at
 * most SCAN_LIMIT of them, newest change first: the work stays bounded however
 * many orders the shop has.
 */
import type { OrderLink } from "@prisma/client";
import type { Db } from "../db.server";
import { fromWebhookOrder } from "../leads/adapters/webhook-order";
import { normalizeCityKey } from "../leads/city-key";
import { LeadRuleError } from "../leads/errors";
import { normalizeSku, shopifyIdDigits } from "../leads/sku-match";
import type { CatalogueProduct, City, Finding, Suggestion } from "../leads/types";
import { FieldTooLongError, fixUnknownCity, fixUnknownSku, OrderActionError, resendOrder, type Actor } from "../sync/order-actions.server";
import { upsertSkuMapping } from "../models/sku-mapping.server";
import { ANOMALY_CODES, isKnownAnomaly, type AnomalyCodeInfo } from "../models/anomaly-codes";

/** Waiting links read per page load: about 80 ms at most on a 2-core machine (scripts/dev/bench/admin.ts). */
export const SCAN_LIMIT = 2000;
/** Orders listed under a group on the page (the count says how many there are). */
export const ORDERS_SHOWN = 10;
const WAITING_STATES = ["held", "invalid", "failed", "damaged"];

/** Why a fix was refused, for the page to say in the merchant's language. */
export type FixErrorCode = "unknown_product" | "unknown_city" | "not_fixable" | "no_variant" | "group_gone" | "invalid_phone" | "nothing";

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
 * one, their Shopify variants), learn the city spelling, send the orders again, or
 * nothing at group level (each order needs its own fix, e.g. a phone).
 */
export type GroupFix = "mapSku" | "mapVariant" | "aliasCity" | "resend" | "none";

export type GroupKind = "sku" | "city" | "finding" | "anomaly" | "state";

export interface ProblemGroup {
  /** Stable id of the cause: "sku:BABOUCHE-YLW", "title:Tapis", "city:casaanfa", "finding:phone_missing", "anomaly:inconsistent_total", "state:failed". */
  key: string;
  kind: GroupKind;
  /** The finding or anomaly code that names it (the first seen for sku / city groups). */
  code: string;
  /** The SKU, title or city spelling as the customer's order wrote it; the code otherwise. */
  label: string;
  fix: GroupFix;
  linkIds: string[];
  orders: { id: string; orderName: string; state: string }[];
  /** Best first, one per product or city. */
  suggestions: Suggestion[];
}

export type ProblemGroupView = Omit<ProblemGroup, "linkIds" | "orders"> & {
  count: number;
  orders: ProblemGroup["orders"];
};

export interface AnomalyGroups {
  groups: ProblemGroupView[];
  /** Links read; equals SCAN_LIMIT when older ones were left out. */
  scanned: number;
  truncated: boolean;
}

type ScannedLink = Pick<OrderLink, "id" | "orderName" | "state" | "findings" | "anomalies">;

function parseArray<T>(json: string): T[] {
  try {
    const value = JSON.parse(json) as unknown;
    return Array.isArray(value) ? (value as T[]) : [];
  } catch {
    return [];
  }
}

interface Cause {
  key: string;
  kind: GroupKind;
  code: string;
  label: string;
  fix: GroupFix;
  suggestions?: Suggestion[];
}

/**
 * The group a SKU or city finding belongs to, with the fix that serves the whole
 * group; undefined for the other codes. Pure.
 */
export function findingGroup(f: Pick<Finding, "code" | "params">): { key: string; label: string; fix: GroupFix } | undefined {
  const params = f.params ?? {};
  if (f.code === "sku_unmatched" || f.code === "sku_missing") {
    const rawSku = typeof params.sku === "string" && params.sku.trim() ? params.sku : null;
    if (rawSku) return { key: `sku:${normalizeSku(rawSku)}`, label: rawSku, fix: "mapSku" };
    const title = typeof params.title === "string" ? params.title : "";
    return { key: `title:${title}`, label: title, fix: "mapVariant" };
  }
  if (f.code === "city_unmatched" || f.code === "city_missing") {
    const input = typeof params.input === "string" ? params.input : "";
    const key = normalizeCityKey(input);
    return { key: `city:${key}`, label: input, fix: key ? "aliasCity" : "none" };
  }
  return undefined;
}

/** The causes of one link's trouble, one per group it belongs to. Pure. */
export function causesOf(link: Pick<ScannedLink, "state" | "findings" | "anomalies">): Cause[] {
  const causes: Cause[] = [];
  let sku = false;
  let city = false;
  for (const f of parseArray<Finding>(link.findings)) {
    if (!f || typeof f.code !== "string") continue;
    // SKU and city findings of any severity: ordersBlockedBySku / ByCity resend those orders too.
    const group = findingGroup(f);
    if (group) {
      const kind = f.code.startsWith("sku") ? "sku" : "city";
      causes.push({ ...group, kind, code: f.code, suggestions: f.suggestions });
      if (kind === "sku") sku = true;
      else city = true;
    } else if (f.severity === "blocking") {
      causes.push({ key: `finding:${f.code}`, kind: "finding", code: f.code, label: f.code, fix: "none" });
    }
  }
  if (link.state === "damaged") {
    for (const a of parseArray<{ code?: unknown } | string>(link.anomalies)) {
      const code = typeof a === "string" ? a : typeof a?.code === "string" ? a.code : undefined;
      if (!code) continue;
      const known = isKnownAnomaly(code) ? (ANOMALY_CODES[code] as AnomalyCodeInfo) : undefined;
      // Already in the group whose fix resends it.
      if ((known?.sameCauseAs === "sku" && sku) || (known?.sameCauseAs === "city" && city)) continue;
      causes.push({ key: `anomaly:${code}`, kind: "anomaly", code, label: code, fix: known?.resendable ? "resend" : "none" });
    }
  }
  if (causes.length === 0 && (link.state === "failed" || link.state === "invalid")) {
    causes.push({ key: `state:${link.state}`, kind: "state", code: link.state, label: link.state, fix: "resend" });
  }
  return causes;
}

function mergeSuggestions(into: Suggestion[], more: Suggestion[] | undefined) {
  for (const s of more ?? []) {
    const id = s.kind === "city" ? s.cityId : s.productId;
    const existing = into.findIndex((x) => x.kind === s.kind && (x.kind === "city" ? x.cityId : x.productId) === id);
    if (existing === -1) into.push(s);
    else if (into[existing].score < s.score) into[existing] = s;
  }
}

/** Groups links by cause, biggest group first. Pure. */
export function groupProblems(links: readonly ScannedLink[]): ProblemGroup[] {
  const groups = new Map<string, ProblemGroup>();
  for (const link of links) {
    const seen = new Set<string>();
    for (const cause of causesOf(link)) {
      let group = groups.get(cause.key);
      if (!group) {
        group = { key: cause.key, kind: cause.kind, code: cause.code, label: cause.label, fix: cause.fix, linkIds: [], orders: [], suggestions: [] };
        groups.set(cause.key, group);
      }
      mergeSuggestions(group.suggestions, cause.suggestions);
      if (seen.has(cause.key)) continue;
      seen.add(cause.key);
      group.linkIds.push(link.id);
      group.orders.push({ id: link.id, orderName: link.orderName, state: link.state });
    }
  }
  for (const group of groups.values()) group.suggestions.sort((a, b) => b.score - a.score);
  return [...groups.values()].sort((a, b) => b.linkIds.length - a.linkIds.length || a.key.localeCompare(b.key));
}

async function scanWaitingLinks(db: Db, shop: string): Promise<ScannedLink[]> {
  return db.orderLink.findMany({
    where: { shop, state: { in: WAITING_STATES }, cancelledAt: null },
    orderBy: [{ updatedAt: "desc" }, { id: "desc" }],
    take: SCAN_LIMIT,
    select: { id: true, orderName: true, state: true, findings: true, anomalies: true },
  });
}

export async function computeProblemGroups(db: Db, shop: string): Promise<{ groups: ProblemGroup[]; scanned: number }> {
  const links = await scanWaitingLinks(db, shop);
  return { groups: groupProblems(links), scanned: links.length };
}

/** The Anomalies page's groups, each with its first orders only. */
export async function loadAnomalyGroups(db: Db, shop: string): Promise<AnomalyGroups> {
  const { groups, scanned } = await computeProblemGroups(db, shop);
  return {
    groups: groups.map(({ linkIds, orders, ...group }) => ({ ...group, count: linkIds.length, orders: orders.slice(0, ORDERS_SHOWN) })),
    scanned,
    truncated: scanned >= SCAN_LIMIT,
  };
}

// ---------------------------------------------------------------------------
// Picker options from the cached platform lists

export interface ProductOption {
  /** The platform SKU a mapping targets (the variant's when there is one). */
  sku: string;
  productId: number;
  name: string;
  inStock: boolean;
}

export interface CityOption {
  id: number;
  name: string;
}

function parseList<T>(json: string | null | undefined): T[] {
  return json ? parseArray<T>(json) : [];
}

/** Every platform product and variant the shop can map to, from the cached catalogue. */
export function productOptionsOf(catalogue: readonly CatalogueProduct[]): ProductOption[] {
  const options: ProductOption[] = [];
  for (const p of catalogue) {
    if (!p || typeof p.id !== "number") continue;
    const variants = (Array.isArray(p.variants) ? p.variants : []).filter((v) => typeof v?.sku === "string" && v.sku.trim());
    if (typeof p.sku === "string" && p.sku.trim()) options.push({ sku: p.sku, productId: p.id, name: p.name, inStock: p.in_stock !== false });
    for (const v of variants) {
      options.push({ sku: v.sku!, productId: p.id, name: `${p.name} (${v.name ?? v.sku})`, inStock: p.in_stock !== false && v.in_stock !== false });
    }
  }
  return options;
}

export function cityOptionsOf(cities: readonly City[]): CityOption[] {
  return cities
    .filter((c) => c && typeof c.id === "number" && typeof c.name === "string")
    .map((c) => ({ id: c.id, name: c.name }))
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
export type FixFailureCode = FixErrorCode | "conflict" | "invalid" | "too_long";

/**
 * The page's answer for a refused action. Another shop's order, or one that does
 * not exist, is a 404 Response (thrown); any other error is rethrown.
 */
export function fixFailure(error: unknown): FixFailureCode {
  if (error instanceof FixInputError) return error.code;
  if (error instanceof FieldTooLongError) return "too_long";
  if (error instanceof OrderActionError) {
    if (error.status === 404) throw new Response("Not found", { status: 404 });
    return error.status === 409 ? "conflict" : "invalid";
  }
  if (error instanceof LeadRuleError) return "invalid";
  throw error;
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
    const { resent } = await fixUnknownSku(db, shop, { sku: value, targets, label: product.name }, actor);
    return { resent, skipped: 0 };
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
      .filter((f) => (f.code === "sku_missing" || f.code === "sku_unmatched") && !(typeof f.params?.sku === "string" && f.params.sku.trim()) && f.params?.title === value)
      .map((f) => String(f.params.lineItemId ?? ""));
    if (lineIds.length === 0) continue;
    let variantIds: string[] = [];
    try {
      const order = fromWebhookOrder(JSON.parse(link.payload));
      variantIds = order.lineItems.filter((l) => lineIds.includes(l.id)).flatMap((l) => shopifyIdDigits(l.variantId) ?? []);
    } catch {
      variantIds = [];
    }
    blocked.push({ link, variantIds });
  }
  const variants = [...new Set(blocked.flatMap((b) => b.variantIds))];
  if (variants.length === 0) throw new FixInputError("no_variant", "these lines have no Shopify variant to map");
  for (const variantId of variants) {
    await upsertSkuMapping(db, shop, { sourceKind: "variant", sourceKey: variantId, targets, label: value || product.name });
  }
  return resendAll(db, shop, blocked.filter((b) => b.variantIds.length > 0).map((b) => b.link.id), actor);
}

/** Learns the group's city spelling as an alias of a delivered city and resends every order it blocks. */
export async function fixCityGroup(db: Db, shop: string, input: { key: string; cityId: number }, actor: Actor): Promise<FixOutcome> {
  const city = await requireCity(db, shop, input.cityId);
  const { kind, value } = parseKey(input.key);
  // The key is the spelling already normalised, and normalising is idempotent.
  if (kind !== "city" || !value) throw new FixInputError("not_fixable", "this group is not fixed by a city alias");
  const { resent } = await fixUnknownCity(db, shop, { spelling: value, cityId: city.id }, actor);
  return { resent, skipped: 0 };
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
export async function resendGroup(db: Db, shop: string, key: string, actor: Actor): Promise<FixOutcome> {
  const { groups } = await computeProblemGroups(db, shop);
  const group = groups.find((g) => g.key === key);
  if (!group) throw new FixInputError("group_gone", "no orders wait for this cause any more", 409);
  if (group.fix !== "resend") throw new FixInputError("not_fixable", "this group is not fixed by sending again");
  return resendAll(db, shop, group.linkIds, actor);
}

/** Resends the given links of the shop (the Orders page's bulk action); others' ids count as skipped. */
export async function resendOrders(db: Db, shop: string, linkIds: readonly string[], actor: Actor): Promise<FixOutcome> {
  return resendAll(db, shop, [...new Set(linkIds)].slice(0, 500), actor);
}

/** Sends again the shop's failed orders: the given ones, or every one (up to 500). */
export async function retryFailedOrders(db: Db, shop: string, linkIds: readonly string[] | undefined, actor: Actor): Promise<FixOutcome> {
  const failed = await db.orderLink.findMany({
    where: { shop, state: "failed", cancelledAt: null, ...(linkIds ? { id: { in: [...new Set(linkIds)].slice(0, 500) } } : {}) },
    orderBy: { updatedAt: "desc" },
    take: 500,
    select: { id: true },
  });
  const outcome = await resendAll(db, shop, failed.map((l) => l.id), actor);
  return { ...outcome, skipped: outcome.skipped + (linkIds ? new Set(linkIds).size - failed.length : 0) };
}
