/**
 * A shop's Seller Order API client: its key decrypted only here, its calls
 * paced by the limiter shared through the database and logged to ApiCall.
 */
import type { Shop } from "@prisma/client";
import type { Db } from "../db.server";
import type { SecretBox } from "../crypto/secret-box.server";
import { secretBoxFromEnv, sellerApiEnv } from "../env.server";
import { createSellerApiClient, keyFingerprint, type SellerApiClient } from "../seller-api";
import { createDbRateLimiter, type DbRateLimiter } from "./db-rate-limiter.server";
import { sellerApiFetch } from "../net/public-address.server";
import { logCall } from "./call-log.server";
import { recordSellerApiCall } from "../runtime/metrics.server";

export class ShopNotConnectedError extends Error {
  constructor(
    readonly shop: string,
    readonly why: "no_key" | "no_base_url" | "paused",
  ) {
    super(
      why === "no_key"
        ? `${shop} has no seller API key yet`
        : why === "no_base_url"
          ? `${shop} has no Seller Order API base URL`
          : `${shop} is paused: the platform rejected its key`,
    );
    this.name = "ShopNotConnectedError";
  }
}

export interface ConnectionOptions {
  secretBox?: SecretBox;
  defaultBaseUrl?: string;
  fetch?: typeof fetch;
  now?: () => number;
  sleep?: (ms: number) => Promise<void>;
  timeoutMs?: number;
  /** Longer limiter waits reschedule the job instead of sleeping (see RateLimitWaitError). */
  maxLimiterWaitMs?: number;
  /** How long the rate read from GET /v1/me is trusted (default 60 s). */
  rateRefreshMs?: number;
}

export interface ShopConnection {
  client: SellerApiClient;
  /** Non-secret identifier of the key, for the limiter and logs. */
  keyId: string;
  baseUrl: string;
  /** The key's limiter shared through the database (a post reserves its slot with its mark). */
  limiter?: DbRateLimiter;
}

export function connectShop(db: Db, shop: Shop, options: ConnectionOptions = {}): ShopConnection {
  if (!shop.sellerApiKeyCipher) throw new ShopNotConnectedError(shop.domain, "no_key");
  if (shop.pausedReason) throw new ShopNotConnectedError(shop.domain, "paused");
  const baseUrl = shop.sellerApiBaseUrl || options.defaultBaseUrl || sellerApiEnv().SELLER_API_BASE_URL;
  if (!baseUrl) throw new ShopNotConnectedError(shop.domain, "no_base_url");
  const apiKey = (options.secretBox ?? secretBoxFromEnv()).open(shop.sellerApiKeyCipher, {
    shop: shop.domain,
    purpose: "seller-api-key",
  });
  const limiter = createDbRateLimiter(db, {
    now: options.now,
    sleep: options.sleep,
    maxWaitMs: options.maxLimiterWaitMs ?? 10_000,
  });
  const client = createSellerApiClient({
    baseUrl,
    apiKey,
    // In production only public addresses, checked on each connection (see app/net).
    fetch: options.fetch ?? sellerApiFetch(),
    now: options.now,
    sleep: options.sleep,
    timeoutMs: options.timeoutMs,
    // Re-read every minute: a limit the platform lowered for a while (and raised
    // again) is followed within a minute, for one call in `rate` of the budget.
    rateRefreshMs: options.rateRefreshMs ?? 60_000,
    limiter,
    // A 429 is not waited out inside a job: the job is rescheduled after the stated delay.
    retry: { maxRateLimitWaits: 0 },
    // Logged with the next commit (call-log.server.ts), not in a commit of its own.
    onCall: (call) => {
      recordSellerApiCall(call);
      logCall(db, {
        shop: shop.domain,
        method: call.method,
        path: call.path,
        status: call.status ?? 0,
        durationMs: Math.round(call.durationMs),
        attempt: call.attempt,
        apiVersion: call.apiVersion ?? null,
        at: call.at,
      });
    },
  });
  return { client, keyId: keyFingerprint(apiKey), baseUrl, limiter };
}
