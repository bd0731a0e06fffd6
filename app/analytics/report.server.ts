/**
 * The Analytics page's data, read from the daily rollups only (never from order
 * rows): a handful of GROUP BY queries over at most a period's days, whatever
 * the number of orders. Every query is scoped to the shop.
 */
import type { Prisma } from "@prisma/client";
import type { Db } from "../db.server";
import { NOT_DELIVERED, UNKNOWN_CITY, type Grain } from "./contribution";
import { DEFAULT_TIME_ZONE, localDay } from "./days";
import { parsePeriod, type Period, type PeriodError } from "./period";
import {
  breakdownLine,
  foldLongTail,
  summarise,
  summariseBy,
  weeklySeries,
  type BreakdownLine,
  type RollupRow,
  type Summary,
  type WeekPoint,
} from "./report";
import { loadCashForPeriod, type CashForPeriod } from "./cash-report.server";

/** Link states of orders the app is still working on: not in the rollups yet. */
export const PROCESSING_STATES = ["received", "posting", "retrying"];

type RollupDimension = "day" | "cityId" | "productKey";

/**
 * Rollup rows of one grain of the shop between from and to (days, inclusive),
 * summed over the other dimensions: an index range on the key's prefix
 * (shop, grain, day), so the cost follows the period, not the number of orders.
 */
export async function rollupRows(
  db: Db | Prisma.TransactionClient,
  shop: string,
  range: { from: string; to: string },
  options: { by?: RollupDimension[]; grain?: Grain; deliveryDays?: boolean } = {},
): Promise<RollupRow[]> {
  // Without the days to delivery (no median wanted), delivered parcels are one row per group, not one per day count.
  const by: Prisma.AnalyticsDailyScalarFieldEnum[] = [
    ...(options.by ?? []),
    "statusGroup",
    ...(options.deliveryDays === false ? [] : (["deliveryDays"] as const)),
  ];
  const rows = await db.analyticsDaily.groupBy({
    by,
    where: { shop, grain: options.grain ?? "shop", day: { gte: range.from, lte: range.to } },
    _sum: { orders: true, totalCents: true, profitCents: true },
  });
  return rows
    .map((r) => ({
      day: r.day,
      cityId: r.cityId,
      productKey: r.productKey,
      statusGroup: r.statusGroup,
      deliveryDays: r.deliveryDays ?? NOT_DELIVERED,
      orders: r._sum.orders ?? 0,
      totalCents: Number(r._sum.totalCents ?? 0),
      profitCents: Number(r._sum.profitCents ?? 0),
    }))
    .filter((r) => r.orders !== 0);
}

export interface AnalyticsReport {
  period: Period;
  periodError: PeriodError | null;
  today: string;
  timeZone: string;
  current: Summary;
  previous: Summary;
  weeks: WeekPoint[];
  /** The page's tables: the long tail added up in "Others" (unless asked whole, for the CSV). */
  cities: BreakdownLine[];
  products: BreakdownLine[];
  /** Orders the app is still processing (not counted yet). */
  processing: number;
  /** What the platform owed at the end of each period, paid and returned in it, and owes today by age. */
  cash: CashForPeriod;
}

interface Named {
  id: number;
  name: string;
  sku?: string;
}

function parseNamed(json: string | null | undefined): Named[] {
  try {
    const value: unknown = JSON.parse(json ?? "[]");
    return Array.isArray(value)
      ? value.filter((v): v is Named => typeof v?.id === "number" && typeof v?.name === "string")
      : [];
  } catch {
    return [];
  }
}

/** Names for the tables: the platform's cities and products as last read. */
async function namesFor(db: Db, shop: string) {
  const row = await db.shop.findUnique({ where: { domain: shop }, select: { citiesJson: true, catalogueJson: true } });
  const cities = new Map(parseNamed(row?.citiesJson).map((c) => [c.id, c.name]));
  const products = new Map(
    parseNamed(row?.catalogueJson).map((p) => [`product:${p.id}`, p.sku ? `${p.name} (${p.sku})` : p.name]),
  );
  return {
    city: (id: number) => (id === UNKNOWN_CITY ? null : (cities.get(id) ?? `#${id}`)),
    product: (key: string) => products.get(key) ?? key.replace(/^(sku|product):/, ""),
  };
}

export async function cityLines(
  db: Db,
  shop: string,
  period: Period,
  names?: Awaited<ReturnType<typeof namesFor>>,
  fold = false,
): Promise<BreakdownLine[]> {
  const [rows, n] = await Promise.all([
    rollupRows(db, shop, period, { by: ["cityId"], grain: "city" }),
    names ?? namesFor(db, shop),
  ]);
  const lineOf = (id: number, s: Summary) => breakdownLine(String(id), n.city(id) ?? "", s);
  return fold
    ? foldLongTail(rows, (r) => r.cityId!, lineOf)
    : [...summariseBy(rows, (r) => r.cityId!)].map(([id, s]) => lineOf(id, s));
}

export async function productLines(
  db: Db,
  shop: string,
  period: Period,
  names?: Awaited<ReturnType<typeof namesFor>>,
  fold = false,
): Promise<BreakdownLine[]> {
  const [rows, n] = await Promise.all([
    rollupRows(db, shop, period, { by: ["productKey"], grain: "product" }),
    names ?? namesFor(db, shop),
  ]);
  const lineOf = (key: string, s: Summary) => breakdownLine(key, n.product(key), s);
  return fold
    ? foldLongTail(rows, (r) => r.productKey!, lineOf)
    : [...summariseBy(rows, (r) => r.productKey!)].map(([key, s]) => lineOf(key, s));
}

export async function loadAnalytics(
  db: Db,
  shop: string,
  params: URLSearchParams,
  options: {
    now?: Date;
    timeZone?: string;
    /** Every line of the city and product tables (the CSV), no "Others". */ whole?: boolean;
  } = {},
): Promise<AnalyticsReport> {
  const timeZone = options.timeZone ?? DEFAULT_TIME_ZONE;
  const today = localDay(timeZone, options.now ?? new Date());
  const { period, error } = parsePeriod(params, today);
  const names = await namesFor(db, shop);
  // The period's totals (with days to delivery, for the median) and its days (for the weeks, without them).
  const fold = !options.whole;
  const [current, days, previous, cities, products, processing, cash] = await Promise.all([
    rollupRows(db, shop, period),
    rollupRows(db, shop, period, { by: ["day"], deliveryDays: false }),
    rollupRows(db, shop, period.previous),
    cityLines(db, shop, period, names, fold),
    productLines(db, shop, period, names, fold),
    db.orderLink.count({ where: { shop, state: { in: PROCESSING_STATES } } }),
    loadCashForPeriod(db, shop, period, today),
  ]);
  return {
    period,
    periodError: error,
    today,
    timeZone,
    current: summarise(current),
    previous: summarise(previous),
    weeks: weeklySeries(days, period.from, period.to),
    cities,
    products,
    processing,
    cash,
  };
}
