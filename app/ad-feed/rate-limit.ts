/**
 * Token buckets for the pixel endpoint, per key (a shop, an order), in this
 * process: a storefront sends one message per checkout, so a steady stream
 * beyond a shop's checkouts is someone else. Pure: the clock is passed in.
 */
export interface BucketOptions {
  /** Tokens a bucket holds (the burst). */
  capacity: number;
  /** Tokens added a second. */
  perSecond: number;
  /** Keys kept at most (the oldest are dropped). */
  maxKeys?: number;
}

export class RateBuckets {
  private buckets = new Map<string, { tokens: number; atMs: number }>();
  constructor(private readonly options: BucketOptions) {}

  /** Takes a token from the key's bucket; false when it is empty. */
  take(key: string, nowMs: number): boolean {
    const { capacity, perSecond } = this.options;
    const bucket = this.buckets.get(key) ?? { tokens: capacity, atMs: nowMs };
    bucket.tokens = Math.min(capacity, bucket.tokens + ((nowMs - bucket.atMs) / 1000) * perSecond);
    bucket.atMs = nowMs;
    this.buckets.delete(key);
    this.buckets.set(key, bucket);
    if (this.buckets.size > (this.options.maxKeys ?? 10_000)) {
      const oldest = this.buckets.keys().next().value;
      if (oldest !== undefined) this.buckets.delete(oldest);
    }
    if (bucket.tokens < 1) return false;
    bucket.tokens -= 1;
    return true;
  }
}
