/**
 * How long to wait after a THROTTLED answer. Shopify's GraphQL limit is a leaky bucket:
 * the query needs `requestedQueryCost` points, the bucket holds `currentlyAvailable`
 * and refills at `restoreRate` points per second.
 */
import type { QueryCost } from "./errors";

/** Without cost information (e.g. a bare HTTP 429), wait this long. */
export const DEFAULT_THROTTLE_RETRY_MS = 2_000;
/** A rescheduled job never comes back sooner than this; the bucket is shared with other apps' calls. */
export const MIN_THROTTLE_RETRY_MS = 1_000;

export function retryAfterMsFromCost(cost: QueryCost | undefined): number {
  const status = cost?.throttleStatus;
  const requested = cost?.requestedQueryCost;
  if (!status || typeof requested !== "number" || !(status.restoreRate > 0)) return DEFAULT_THROTTLE_RETRY_MS;
  const deficit = requested - status.currentlyAvailable;
  return Math.max(MIN_THROTTLE_RETRY_MS, Math.ceil((deficit / status.restoreRate) * 1000));
}

/** Retry-After of an HTTP 429, in seconds as Shopify sends it. */
export function retryAfterMsFromHeader(seconds: number | undefined): number {
  if (seconds === undefined || !Number.isFinite(seconds) || seconds <= 0) return DEFAULT_THROTTLE_RETRY_MS;
  return Math.max(MIN_THROTTLE_RETRY_MS, Math.ceil(seconds * 1000));
}

/**
 * The exact wait before the bucket holds the requested cost again, for a caller that
 * waits in place (a page load); null when the answer carried no cost to compute it from.
 */
export function throttleWaitMs(cost: QueryCost | undefined): number | null {
  const status = cost?.throttleStatus;
  const requested = cost?.requestedQueryCost;
  if (!status || typeof requested !== "number" || !(status.restoreRate > 0)) return null;
  const deficit = Math.max(0, requested - status.currentlyAvailable);
  return Math.ceil((deficit / status.restoreRate) * 1000);
}
