/**
 * Shopify's GraphQL rate limit: a leaky bucket per shop (and app) that refills
 * at the shop's plan's rate (a Standard plan's: 2000 points, 100 a second). A
 * query runs only when its requested cost is available; the bucket is then
 * charged the actual cost.
 */
export const BUCKET_SIZE = 2000;
export const RESTORE_RATE = 100;

/** Shopify's published restore rates by plan; the bucket holds twenty seconds of it. */
export const PLAN_LIMITS = {
  standard: { maximumAvailable: BUCKET_SIZE, restoreRate: RESTORE_RATE },
  advanced: { maximumAvailable: 4000, restoreRate: 200 },
  plus: { maximumAvailable: 20_000, restoreRate: 1000 },
} as const;
export type ShopifyPlan = keyof typeof PLAN_LIMITS;

export interface ThrottleStatus {
  maximumAvailable: number;
  currentlyAvailable: number;
  restoreRate: number;
}

export class LeakyBucket {
  private available: number;
  private at: number;

  constructor(
    nowMs: number,
    readonly maximumAvailable = BUCKET_SIZE,
    readonly restoreRate = RESTORE_RATE,
  ) {
    this.available = maximumAvailable;
    this.at = nowMs;
  }

  /** Points available at `nowMs` (whole points, as Shopify reports them). */
  currentlyAvailable(nowMs: number): number {
    this.refill(nowMs);
    return Math.floor(this.available);
  }

  status(nowMs: number): ThrottleStatus {
    return {
      maximumAvailable: this.maximumAvailable,
      currentlyAvailable: this.currentlyAvailable(nowMs),
      restoreRate: this.restoreRate,
    };
  }

  /** True when `requested` points are available now (nothing is charged). */
  canAfford(requested: number, nowMs: number): boolean {
    return this.currentlyAvailable(nowMs) >= requested;
  }

  charge(points: number, nowMs: number): void {
    this.refill(nowMs);
    this.available = Math.max(0, this.available - points);
  }

  /** Empties the bucket (a test or the control API simulating other apps' traffic). */
  drain(nowMs: number, to = 0): void {
    this.refill(nowMs);
    this.available = Math.max(0, Math.min(this.maximumAvailable, to));
  }

  private refill(nowMs: number): void {
    const elapsed = Math.max(0, nowMs - this.at) / 1000;
    this.available = Math.min(this.maximumAvailable, this.available + elapsed * this.restoreRate);
    this.at = Math.max(this.at, nowMs);
  }
}
