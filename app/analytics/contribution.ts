/**
 * What one order link adds to the daily rollups, and the sums of many such
 * contributions. Pure: the lead-events handler, the rebuild command and the
 * tests' recount all go through `factOf` and `addFact`, so they cannot disagree
 * on what a link counts for.
 */
import { toCents } from "../leads/money";
import { localDay } from "./days";
import {
  isDelivered,
  isReturned,
  isShipped,
  isTakenOrder,
  statusGroupOf,
  type StatusGroup,
} from "../vocabulary/status-groups";

/** cityId of an order whose city is not known (held before its city was matched). */
export const UNKNOWN_CITY = 0;
/** cityId of shop and product rows: counted over all cities. */
export const ALL_CITIES = -1;
/** productKey of shop and city rows (one per order, whatever its products). */
export const WHOLE_ORDER = "";

/**
 * The three kinds of rollup rows, each read through its own key prefix: the
 * shop's totals by status group, and the city and product tables' rows.
 */
export const GRAINS = ["shop", "city", "product"] as const;
export type Grain = (typeof GRAINS)[number];

/**
 * What the city and product tables show of a group (orders, shipped, delivered,
 * returned): fewer rows per day than the full groups, the same figures.
 */
export type TableOutcome = "skipped" | "ordered" | "in_transit" | "delivered" | "returned";
export function tableOutcome(group: StatusGroup): TableOutcome {
  if (!isTakenOrder(group)) return "skipped";
  if (isDelivered(group)) return "delivered";
  if (isReturned(group)) return "returned";
  return isShipped(group) ? "in_transit" : "ordered";
}
/** deliveryDays of rows whose group is not delivered. */
export const NOT_DELIVERED = -1;
/** Days to delivery beyond this count as this (a parcel that took longer is an outlier, not a new row). */
export const MAX_DELIVERY_DAYS = 30;

/** The link fields the rollups read. */
export interface LinkFields {
  id: string;
  shop: string;
  createdAt: Date;
  state: string;
  confirmationStatus: string | null;
  shippingStatus: string | null;
  cityId: number | null;
  productKeys: string;
  totalClient: string | null;
  sellerProfit: string | null;
}

/** One link's counted contribution (stored as AnalyticsLead). */
export interface LeadFact {
  linkId: string;
  shop: string;
  day: string;
  cityId: number;
  productKeys: string[];
  statusGroup: StatusGroup | null;
  totalCents: number;
  profitCents: number;
  deliveredDay: string | null;
}

export interface RollupKey {
  grain: Grain;
  day: string;
  cityId: number;
  productKey: string;
  statusGroup: string;
  deliveryDays: number;
}

export interface RollupDelta extends RollupKey {
  orders: number;
  totalCents: number;
  profitCents: number;
}

/** Signed integer cents of a platform decimal ("-12.50" for a loss); 0 when absent or unreadable. */
export function signedCents(value: string | null | undefined): number {
  const text = value?.trim();
  if (!text) return 0;
  const negative = text.startsWith("-");
  const cents = toCents(negative ? text.slice(1) : text) ?? 0;
  return negative ? -cents : cents;
}

export function parseProductKeys(json: string): string[] {
  try {
    const value: unknown = JSON.parse(json);
    return Array.isArray(value)
      ? [...new Set(value.filter((k): k is string => typeof k === "string" && k !== WHOLE_ORDER))].sort()
      : [];
  } catch {
    return [];
  }
}

/**
 * The contribution of a link as it is now. deliveredDay: the day the parcel was
 * first seen delivered, kept from the previous fact or from the event's time.
 */
export function factOf(link: LinkFields, timeZone: string, deliveredDay: string | null): LeadFact {
  const statusGroup = statusGroupOf(link);
  return {
    linkId: link.id,
    shop: link.shop,
    day: localDay(timeZone, link.createdAt),
    cityId: link.cityId ?? UNKNOWN_CITY,
    productKeys: parseProductKeys(link.productKeys),
    statusGroup,
    totalCents: signedCents(link.totalClient),
    profitCents: signedCents(link.sellerProfit),
    deliveredDay,
  };
}

export function daysBetween(from: string, to: string): number {
  return Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / 86_400_000);
}

/** The rollup rows a fact counts in: the shop's, its city's, and one per product. */
export function rowsOf(fact: LeadFact): RollupKey[] {
  const group = fact.statusGroup;
  if (group === null) return [];
  const deliveryDays =
    isDelivered(group) && fact.deliveredDay !== null
      ? Math.min(MAX_DELIVERY_DAYS, Math.max(0, daysBetween(fact.day, fact.deliveredDay)))
      : NOT_DELIVERED;
  const outcome = tableOutcome(group);
  const day = fact.day;
  return [
    { grain: "shop", day, cityId: ALL_CITIES, productKey: WHOLE_ORDER, statusGroup: group, deliveryDays },
    { grain: "city", day, cityId: fact.cityId, productKey: WHOLE_ORDER, statusGroup: outcome, deliveryDays },
    ...fact.productKeys.map((productKey) => ({
      grain: "product" as const,
      day,
      cityId: ALL_CITIES,
      productKey,
      statusGroup: outcome,
      deliveryDays,
    })),
  ];
}

export const rollupKeyString = (k: RollupKey): string =>
  `${k.grain}|${k.day}|${k.cityId}|${k.productKey}|${k.statusGroup}|${k.deliveryDays}`;

/** Adds sign x fact to deltas (keyed by rollupKeyString). */
export function addFact(deltas: Map<string, RollupDelta>, fact: LeadFact, sign: 1 | -1): void {
  for (const key of rowsOf(fact)) {
    const id = rollupKeyString(key);
    const row = deltas.get(id) ?? deltas.set(id, { ...key, orders: 0, totalCents: 0, profitCents: 0 }).get(id)!;
    row.orders += sign;
    row.totalCents += sign * fact.totalCents;
    row.profitCents += sign * fact.profitCents;
  }
}

/** The deltas that change something (a move within one row cancels out). */
export function nonZero(deltas: Map<string, RollupDelta>): RollupDelta[] {
  return [...deltas.values()].filter((d) => d.orders !== 0 || d.totalCents !== 0 || d.profitCents !== 0);
}
