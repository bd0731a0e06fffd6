/**
 * What an ad platform's answer means for the feed, one class per decision:
 * the token was refused (stop until the merchant saves a new one), the rate
 * limit was reached (wait the stated time), the platform failed for now (retry
 * with backoff), or it refused the events for good (record its message).
 * Messages never carry the access token (the transport cuts it out).
 */
import type { AdPlatform } from "./conversion";

export interface AdErrorInit {
  platform: AdPlatform;
  message: string;
  status?: number;
  /** The platform's own code (Meta's error.code, TikTok's code). */
  code?: number;
  subcode?: number;
  /** Meta's fbtrace_id, TikTok's request_id: what their support asks for. */
  traceId?: string | null;
  cause?: unknown;
}

export class AdPlatformError extends Error {
  readonly platform: AdPlatform;
  readonly status: number | undefined;
  readonly code: number | undefined;
  readonly subcode: number | undefined;
  readonly traceId: string | null;
  constructor(init: AdErrorInit) {
    super(init.message, init.cause === undefined ? undefined : { cause: init.cause });
    this.name = new.target.name;
    this.platform = init.platform;
    this.status = init.status;
    this.code = init.code;
    this.subcode = init.subcode;
    this.traceId = init.traceId ?? null;
  }
}

/** The access token is invalid, expired or lacks the permission: nothing goes until a new one is saved. */
export class AdAuthError extends AdPlatformError {}

/** Too many calls: wait `retryAfterMs` (stated, or a minute). */
export class AdRateLimitError extends AdPlatformError {
  readonly retryAfterMs: number;
  constructor(init: AdErrorInit & { retryAfterMs: number }) {
    super(init);
    this.retryAfterMs = init.retryAfterMs;
  }
}

/** 5xx, a transient error, no answer in time, or an unreadable one: the same call may succeed later. */
export class AdTransientError extends AdPlatformError {}

/** The platform refused the request for good (a parameter it does not accept): its message says why. */
export class AdRefusedError extends AdPlatformError {}
