/**
 * What the delivery-odds model reads about an order before it is sent, and the
 * numbers it turns that into. Every feature is 0 for an ordinary order (a
 * customer with no settled history, one item, the shop's usual amount, a city
 * and products that deliver like the shop as a whole, a full address), so a
 * coefficient times its feature is that feature's contribution to the order's
 * log-odds, read as it is in the explanations. Pure.
 */

export const FEATURES = [
  "customer_delivered",
  "customer_failed",
  "wrong_number",
  "first_order",
  "recent_orders",
  "city",
  "product",
  "amount",
  "quantity",
  "address",
] as const;
export type Feature = (typeof FEATURES)[number];

/** What the customer's phone has done before this order (this store, and paired stores that share). */
export interface CustomerFacts {
  /** Earlier orders delivered. */
  delivered: number;
  /** Earlier orders refused on the call, returned at the door, cancelled or fake. */
  failed: number;
  /** Earlier orders where the phone was a wrong number. */
  wrongNumber: number;
  /** Earlier orders sent and not settled yet. */
  inProgress: number;
  /** Other orders from the phone in the RECENT_HOURS before this one. */
  recentOrders: number;
}

/** "Several orders in a short time": the window. */
export const RECENT_HOURS = 24;

export interface OrderFacts {
  /** Amount to collect, in cents; null when unknown. */
  amountCents: number | null;
  /** Items in the order (sum of quantities). */
  quantity: number;
  cityId: number | null;
  /** The platform products of the order (app/leads' product keys). */
  productKeys: readonly string[];
  /** The delivery address is missing or too short to find the door. */
  addressIncomplete: boolean;
  /** Null when the order has no usable phone (then no record either). */
  customer: CustomerFacts | null;
}

/** Delivered and settled counts of one city, product or the shop. */
export interface RateCounts {
  delivered: number;
  settled: number;
}

/** How many settled orders a city or product is worth before its own rate counts as much as the shop's. */
export const RATE_SMOOTHING = 20;

const logit = (p: number) => Math.log(p / (1 - p));
const clamp = (x: number, lo: number, hi: number) => Math.min(hi, Math.max(lo, x));

/** The shop's delivery rate, pulled towards `prior` while it has few settled orders. */
export function shopRate(counts: RateCounts, prior: number): number {
  return (counts.delivered + RATE_SMOOTHING * prior) / (counts.settled + RATE_SMOOTHING);
}

/** A city's or product's rate, pulled towards the shop's while it has few settled orders. */
export function smoothedRate(counts: RateCounts | undefined, shop: number): number {
  if (!counts) return shop;
  return (counts.delivered + RATE_SMOOTHING * shop) / (counts.settled + RATE_SMOOTHING);
}

/** Log-odds of a smoothed rate against the shop's: 0 for a city that delivers like the shop. */
export function rateOffset(counts: RateCounts | undefined, shop: number): number {
  return clamp(logit(clamp(smoothedRate(counts, shop), 0.01, 0.99)) - logit(clamp(shop, 0.01, 0.99)), -3, 3);
}

/** What turns facts into features: the shop's rates and usual amount, as the model stored them. */
export interface FeatureContext {
  /** The shop's delivery rate (smoothed). */
  shopRate: number;
  cities: ReadonlyMap<number, RateCounts>;
  products: ReadonlyMap<string, RateCounts>;
  /** The shop's median amount to collect; null when it has none yet. */
  medianAmountCents: number | null;
}

/** A short or missing address: fewer than 8 characters, or fewer than 3 words and no number. */
export function addressIncomplete(address: string | null | undefined): boolean {
  const text = (address ?? "").trim();
  if (text.replace(/[\s,.;:-]/g, "").length < 8) return true;
  const words = text.split(/[\s,;]+/).filter(Boolean);
  return words.length < 3 && !/\d/.test(text);
}

/** The order's feature values, in FEATURES order. */
export function featureValues(facts: OrderFacts, context: FeatureContext): Float64Array {
  const x = new Float64Array(FEATURES.length);
  const c = facts.customer;
  if (c) {
    x[0] = Math.log1p(c.delivered);
    x[1] = Math.log1p(c.failed);
    x[2] = c.wrongNumber > 0 ? 1 : 0;
    x[3] = c.delivered + c.failed + c.wrongNumber + c.inProgress === 0 ? 1 : 0;
    x[4] = Math.log1p(c.recentOrders);
  } else {
    // No phone: no record, and the platform will not reach anyone; treated as a first order.
    x[3] = 1;
  }
  x[5] = facts.cityId === null ? 0 : rateOffset(context.cities.get(facts.cityId), context.shopRate);
  if (facts.productKeys.length > 0) {
    let sum = 0;
    for (const key of facts.productKeys) sum += rateOffset(context.products.get(key), context.shopRate);
    x[6] = sum / facts.productKeys.length;
  }
  if (facts.amountCents !== null && facts.amountCents > 0 && context.medianAmountCents)
    x[7] = clamp(Math.log(facts.amountCents / context.medianAmountCents), -2, 2);
  x[8] = Math.min(Math.log(Math.max(1, facts.quantity)), Math.log(10));
  x[9] = facts.addressIncomplete ? 1 : 0;
  return x;
}
