/**
 * What a job does when a call fails, decided once per family of errors (the
 * Seller Order API's, Shopify Admin's): wait and run again at a known time
 * without counting an attempt (a rate limit is not the job's fault), give up
 * now (the call was refused for good), pause the shop (its key was refused),
 * or let the queue retry with its backoff (5xx, timeouts, network). Each task
 * adds only what it records on the order (its timeline, its link's state).
 */
import { PermanentJobError, RetryLaterError } from "../queue/errors";
import {
  AuthenticationError,
  BadRequestError,
  InvalidLeadInputError,
  RateLimitError,
  RateLimitWaitError,
  UnprocessableEntityError,
} from "../seller-api";
import { ShopifyOrderNotFoundError, ShopifyThrottledError, ShopifyUserError } from "../shopify/errors";
import type { ShopifyBudget } from "../shopify/points-budget";

export type JobOutcome =
  /** Run again after delayMs, or at `until` when the limiter named the time. */
  | { kind: "later"; delayMs: number; until?: Date; reason: string }
  | { kind: "permanent"; reason: string }
  | { kind: "pause-shop" }
  | { kind: "backoff" };

/** The Seller Order API: 429 or our own limiter wait; 401 pauses the shop; 400 and 422 refuse the lead. */
export function sellerApiOutcome(error: unknown, now: Date): JobOutcome {
  if (error instanceof AuthenticationError) return { kind: "pause-shop" };
  if (error instanceof RateLimitError)
    return { kind: "later", delayMs: error.retryAfterMs, reason: "rate limit reached" };
  if (error instanceof RateLimitWaitError) {
    return {
      kind: "later",
      delayMs: Math.max(0, error.untilMs - now.getTime()),
      until: new Date(error.untilMs),
      reason: "rate limit reached",
    };
  }
  if (
    error instanceof InvalidLeadInputError ||
    error instanceof UnprocessableEntityError ||
    error instanceof BadRequestError
  ) {
    return { kind: "permanent", reason: error.message };
  }
  return { kind: "backoff" };
}

/** Shopify's Admin API: THROTTLED waits for the bucket; a refused mutation or a missing order is final. */
export function shopifyOutcome(error: unknown): JobOutcome {
  if (error instanceof ShopifyThrottledError)
    return { kind: "later", delayMs: error.retryAfterMs, reason: "Shopify API throttled" };
  if (error instanceof ShopifyUserError || error instanceof ShopifyOrderNotFoundError)
    return { kind: "permanent", reason: error.message };
  return { kind: "backoff" };
}

/** The error that makes the worker do what the outcome says (the original one for a backoff). */
export function jobErrorFor(outcome: JobOutcome, error: unknown): unknown {
  if (outcome.kind === "later")
    return new RetryLaterError(outcome.until ?? outcome.delayMs, { countAttempt: false, reason: outcome.reason });
  if (outcome.kind === "permanent") return new PermanentJobError(outcome.reason, { cause: error });
  return error;
}

/** A job's Admin API points: those its calls ask to be in the bucket, and what they are expected to cost in all. */
export interface ShopifyPoints {
  requested: number;
  charge: number;
}

/** The worker's line for Shopify's points, and its clock. */
export interface ShopifyLine {
  budget: ShopifyBudget;
  nowMs: number;
}

/** Throws a RetryLaterError to the job's place in the shop's line when its points are not there yet (app/shopify/points-budget.ts). */
export function waitForShopifyPoints(
  { budget, nowMs }: ShopifyLine,
  shop: string,
  jobId: string,
  points: ShopifyPoints,
): void {
  const at = budget.take(shop, jobId, points.requested, points.charge, nowMs);
  if (at !== null)
    throw new RetryLaterError(new Date(at), {
      countAttempt: false,
      reason: "Shopify API points: in line behind the shop's other calls",
    });
}

/** After THROTTLED: the bucket as Shopify described it, and the job's place in line (else the answer's own wait applies). */
export function throttledInLine(
  line: ShopifyLine,
  shop: string,
  jobId: string,
  points: ShopifyPoints,
  error: ShopifyThrottledError,
): void {
  line.budget.observe(shop, error.cost, line.nowMs);
  waitForShopifyPoints(line, shop, jobId, points);
}
