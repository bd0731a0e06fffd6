/**
 * The sync ledger's latencies as histograms (pure): counts per bucket of seconds, so a
 * week of them is a few hundred rows whatever the number of orders, and a share "within
 * N seconds" is exact when N is a bucket bound (the promise's figures are).
 */

/** Upper bounds in seconds; a latency above the last one counts in OVER. */
export const LATENCY_BUCKETS = [
  5, 10, 20, 30, 45, 60, 90, 120, 180, 240, 300, 360, 420, 480, 600, 660, 900, 1200, 1800, 2700, 3600, 7200, 14400,
  43200, 86400,
] as const;
export const OVER = 0;

export const LATENCY_METRICS = {
  /** Order placed in Shopify -> lead created on the platform (orders sent with no merchant action). */
  orderToLead: "order_to_lead",
  /** A lead's status change seen by the app -> the Shopify order written back. */
  statusToShopify: "status_to_shopify",
} as const;
export type LatencyMetric = (typeof LATENCY_METRICS)[keyof typeof LATENCY_METRICS];

/** The bucket a latency falls in: the first bound at or above it. */
export function bucketOf(seconds: number): number {
  const s = Math.max(0, seconds);
  for (const bound of LATENCY_BUCKETS) if (s <= bound) return bound;
  return OVER;
}

/** The smallest bound that holds at least `seconds` (a promise's figure rounded up to the histogram). */
export function boundAtLeast(seconds: number): number {
  return LATENCY_BUCKETS.find((b) => b >= seconds) ?? OVER;
}

export type Histogram = ReadonlyMap<number, number>;

/** Buckets in increasing order, OVER last. */
const ordered = (histogram: Histogram) =>
  [...histogram.entries()].sort(([a], [b]) => (a === OVER ? Infinity : a) - (b === OVER ? Infinity : b));

export function totalOf(histogram: Histogram): number {
  let total = 0;
  for (const count of histogram.values()) total += count;
  return total;
}

/** The bound under which a share p (0..1) of the latencies fall; OVER when beyond the last; null when empty. */
export function percentile(histogram: Histogram, p: number): number | null {
  const total = totalOf(histogram);
  if (total === 0) return null;
  const target = Math.max(1, Math.ceil(p * total));
  let seen = 0;
  for (const [bucket, count] of ordered(histogram)) {
    seen += count;
    if (seen >= target) return bucket;
  }
  return OVER;
}

/** Share of the latencies at or under `seconds` (a bucket bound); null when empty. */
export function shareWithin(histogram: Histogram, seconds: number): number | null {
  const total = totalOf(histogram);
  if (total === 0) return null;
  let within = 0;
  for (const [bucket, count] of histogram) if (bucket !== OVER && bucket <= seconds) within += count;
  return within / total;
}
