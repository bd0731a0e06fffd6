/**
 * What a page tells the merchant about a failed Admin call: a kind and, for a throttle,
 * the wait. Plain data (loaders return it); never the error's message, which may hold
 * Shopify's text or ids. Pure: the banner (app/components/ShopifyErrorBanner.tsx) reads it.
 */
import {
  ShopifyAdminError,
  ShopifyGraphqlError,
  ShopifyNetworkError,
  ShopifyOrderNotFoundError,
  ShopifyResponseTooLargeError,
  ShopifyThrottledError,
  ShopifyTimeoutError,
  ShopifyUnauthorizedError,
  ShopifyUserError,
} from "./errors";

export const SHOPIFY_FAILURE_KINDS = [
  "timeout",
  "network",
  "unavailable",
  "throttled",
  "unauthorized",
  "too_large",
  "refused",
  "error",
] as const;
export type ShopifyFailureKind = (typeof SHOPIFY_FAILURE_KINDS)[number];

export interface ShopifyFailure {
  kind: ShopifyFailureKind;
  /** For "throttled": seconds until Shopify has room again. */
  retryAfterSeconds: number | null;
}

export function shopifyFailureOf(error: ShopifyAdminError): ShopifyFailure {
  const failure = (kind: ShopifyFailureKind, retryAfterSeconds: number | null = null): ShopifyFailure => ({
    kind,
    retryAfterSeconds,
  });
  if (error instanceof ShopifyTimeoutError) return failure("timeout");
  if (error instanceof ShopifyNetworkError) return failure("network");
  if (error instanceof ShopifyThrottledError)
    return failure("throttled", Math.max(1, Math.ceil(error.retryAfterMs / 1000)));
  if (error instanceof ShopifyUnauthorizedError) return failure("unauthorized");
  if (error instanceof ShopifyResponseTooLargeError) return failure("too_large");
  if (error instanceof ShopifyUserError || error instanceof ShopifyOrderNotFoundError) return failure("refused");
  if (error instanceof ShopifyGraphqlError && error.status !== undefined && error.status >= 500)
    return failure("unavailable");
  return failure("error");
}

/** A stored kind read back (e.g. from a job payload); anything else is null. */
export function parseShopifyFailureKind(value: unknown): ShopifyFailureKind | null {
  return typeof value === "string" && (SHOPIFY_FAILURE_KINDS as readonly string[]).includes(value)
    ? (value as ShopifyFailureKind)
    : null;
}
