/**
 * Each shop's Admin API points as this process last saw them, for the
 * background jobs that call Shopify (write-back, Flow triggers). Shopify's
 * GraphQL limit is a leaky bucket per shop: a call runs when its requested
 * cost is in the bucket, which refills at the plan's rate. Once an answer said
 * THROTTLED (its cost tells the bucket's size, level and rate), a job calls
 * only when the bucket, as modelled here, holds its points; otherwise it is put
 * in line, charged, and rescheduled to its moment. A busy shop's jobs then go
 * one after the other at the plan's pace, instead of all trying, being
 * throttled and trying again together. Nothing is paced before Shopify first
 * throttles (a Plus shop refills ten times faster than a standard one). One
 * per worker (its job handlers, createJobHandlers): several workers on one
 * shop each keep their own line, and a throttle corrects them.
 */
import type { QueryCost } from "./errors";

/**
 * The bucket as a virtual schedule (GCRA): `freeAt` is when the bucket would
 * be full again after every call already let through or put in line; a call
 * asking `requested` points may start once the bucket holds them, that is at
 * freeAt - (max - requested) / rate, and its charge moves freeAt on.
 */
interface Bucket {
  max: number;
  /** Points per second. */
  rate: number;
  freeAt: number;
}

/** A job woken this much before its moment still goes. */
const EARLY_MS = 250;
/** A place in line is forgotten after this long (its job ran elsewhere, or was erased). */
const PLACE_KEPT_MS = 10 * 60_000;

export class ShopifyBudget {
  readonly #buckets = new Map<string, Bucket>();
  /** Places in line, by job id: its moment, its points already counted. */
  readonly #places = new Map<string, { at: number; forgetAt: number }>();

  /**
   * Null: the call may go now. A time (epoch ms): the job's place in line,
   * when the bucket will hold `requested` points after the calls before it.
   * `charge` is what the job's calls are expected to cost in all.
   */
  take(shop: string, jobId: string, requested: number, charge: number, nowMs: number): number | null {
    const place = this.#places.get(jobId);
    if (place && place.at <= nowMs + EARLY_MS) {
      this.#places.delete(jobId);
      return null;
    }
    if (place) return place.at;
    const bucket = this.#buckets.get(shop);
    if (!bucket) return null;
    const at = Math.max(nowMs, bucket.freeAt - ((bucket.max - Math.min(requested, bucket.max)) / bucket.rate) * 1000);
    bucket.freeAt = Math.max(bucket.freeAt, at) + (charge / bucket.rate) * 1000;
    if (at <= nowMs + EARLY_MS) return null;
    this.#forgetOld(nowMs);
    this.#places.set(jobId, { at, forgetAt: at + PLACE_KEPT_MS });
    return at;
  }

  /**
   * What an answer's cost says of the bucket (a THROTTLED one carries it): the
   * schedule is moved on to what Shopify sees, never back (the calls put in
   * line keep their places).
   */
  observe(shop: string, cost: QueryCost | undefined, nowMs: number): void {
    const status = cost?.throttleStatus;
    if (!status || !(status.restoreRate > 0)) return;
    const seenFreeAt = nowMs + ((status.maximumAvailable - status.currentlyAvailable) / status.restoreRate) * 1000;
    const known = this.#buckets.get(shop);
    this.#buckets.set(shop, {
      max: status.maximumAvailable,
      rate: status.restoreRate,
      freeAt: Math.max(known?.freeAt ?? 0, seenFreeAt),
    });
  }

  #forgetOld(nowMs: number): void {
    if (this.#places.size < 10_000) return;
    for (const [id, place] of this.#places) if (place.forgetAt < nowMs) this.#places.delete(id);
  }
}
