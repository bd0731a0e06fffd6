/**
 * Sent orders that Shopify and the platform disagree about in a way that costs money
 * (models/attention.ts costsMoney): cancelled or refunded in Shopify while the parcel
 * still ships, or edited after the lead was sent. Home's to-do inbox puts them first,
 * the Orders list's "To do" tab and the Anomalies page list them, the order page says
 * what to do. What doing nothing costs is the platform's delivery fee for the order's
 * city (GET /v1/cities, cached with the shop), plus a return the platform charges for
 * but does not publish.
 *
 * Bounded: the (shop, mismatch, statusFinal) index holds only the few sent orders that
 * ever disagreed, and a read takes at most MISMATCHES_READ of the live ones.
 */
import type { Db } from "../db.server";
import type { City } from "../leads/types";
import { toCents } from "../leads/money";
import { isMismatch, type Mismatch } from "../models/mismatch";

export const MISMATCHES_READ = 200;

export interface MismatchOrder {
  id: string;
  orderName: string;
  what: Mismatch;
  leadRef: string | null;
  confirmationStatus: string | null;
  shippingStatus: string | null;
  /** The amount to collect, in cents; null when unknown. */
  amountCents: number | null;
  /** The platform's delivery fee for the order's city, in cents; null when the city or its fee is unknown. */
  deliveryFeeCents: number | null;
  /** The order's date (placed). */
  createdAt: string;
}

export interface Mismatches {
  orders: MismatchOrder[];
  count: number;
  /** Sum of the known delivery fees, in cents. */
  feesCents: number;
  /** Orders whose delivery fee is not known. */
  unknownFees: number;
  oldest: Date | null;
}

/** Delivery fees by city id, parsed once per cached list. */
const feesCache = new Map<string, { key: number; fees: Map<number, number> }>();
const FEES_CACHE_SHOPS = 200;

export async function deliveryFees(db: Db, shop: string): Promise<Map<number, number>> {
  const stamp = await db.shop.findUnique({ where: { domain: shop }, select: { citiesFetchedAt: true } });
  const key = stamp?.citiesFetchedAt?.getTime() ?? 0;
  const cached = feesCache.get(shop);
  if (cached && cached.key === key) return cached.fees;
  const row = await db.shop.findUnique({ where: { domain: shop }, select: { citiesJson: true } });
  let cities: City[] = [];
  try {
    const value: unknown = row?.citiesJson ? JSON.parse(row.citiesJson) : [];
    cities = Array.isArray(value) ? (value as City[]) : [];
  } catch {
    cities = [];
  }
  const fees = new Map<number, number>();
  for (const city of cities) {
    const cents = city && typeof city.id === "number" ? toCents(city.delivery_fee) : undefined;
    if (cents !== undefined) fees.set(city.id, cents);
  }
  if (feesCache.size >= FEES_CACHE_SHOPS) feesCache.delete(feesCache.keys().next().value!);
  feesCache.set(shop, { key, fees });
  return fees;
}

export async function loadMismatches(db: Db, shop: string, options: { ids?: string[] } = {}): Promise<Mismatches> {
  const rows = await db.orderLink.findMany({
    where: {
      shop,
      mismatch: { not: null },
      statusFinal: false,
      state: { in: ["created", "damaged"] },
      ...(options.ids ? { id: { in: options.ids } } : {}),
    },
    orderBy: [{ updatedAt: "desc" }, { id: "desc" }],
    take: MISMATCHES_READ,
    select: {
      id: true,
      orderName: true,
      mismatch: true,
      leadRef: true,
      confirmationStatus: true,
      shippingStatus: true,
      totalClient: true,
      totalCents: true,
      cityId: true,
      createdAt: true,
    },
  });
  const fees = rows.length > 0 ? await deliveryFees(db, shop) : new Map<number, number>();
  const orders: MismatchOrder[] = rows.flatMap((r) =>
    isMismatch(r.mismatch)
      ? [
          {
            id: r.id,
            orderName: r.orderName,
            what: r.mismatch,
            leadRef: r.leadRef,
            confirmationStatus: r.confirmationStatus,
            shippingStatus: r.shippingStatus,
            amountCents: r.totalClient === null ? null : r.totalCents,
            deliveryFeeCents: r.cityId === null ? null : (fees.get(r.cityId) ?? null),
            createdAt: r.createdAt.toISOString(),
          },
        ]
      : [],
  );
  const oldest = rows.reduce<Date | null>((o, r) => (!o || r.createdAt < o ? r.createdAt : o), null);
  return {
    orders,
    count: orders.length,
    feesCents: orders.reduce((s, o) => s + (o.deliveryFeeCents ?? 0), 0),
    unknownFees: orders.filter((o) => o.deliveryFeeCents === null).length,
    oldest,
  };
}
