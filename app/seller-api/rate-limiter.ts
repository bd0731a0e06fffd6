/**
 * Client-side pacing so a key never exceeds `rate_limit_per_minute`. The limiter sits
 * behind a small interface so the pipeline shares one budget between processes
 * (through the database: app/sync/db-rate-limiter.server.ts); this file holds the
 * in-memory implementation.
 *
 * Keys given to a limiter are fingerprints, never the API key itself: a limiter's
 * state may be stored or logged.
 */
import { createHash } from "node:crypto";

export interface RateLimiter {
  /** Resolves when one call for `key` may start at `ratePerMinute`. */
  acquire(key: string, ratePerMinute: number): Promise<void>;
  /** The platform said 429: no call for `key` before `untilMs` (epoch ms). */
  penalize(key: string, untilMs: number): void | Promise<void>;
  /**
   * A limiter shared between processes also shares the key's limit as read from
   * GET /v1/me, so that N processes read it once per refresh, not N times (each
   * read is a call out of the key's budget). `readAt` is when it was read (epoch ms).
   */
  sharedRate?(key: string): Promise<{ perMinute: number; readAt: number } | undefined>;
  shareRate?(key: string, perMinute: number, readAt: number): Promise<void>;
  /**
   * When the shared read is stale, one process reads the limit again: this marks
   * the read seen at `seenReadAt` as being refreshed (its readAt becomes `nowMs`)
   * and says whether this caller won. The others go on with the last value,
   * instead of all calling GET /v1/me in the same second.
   */
  claimRateRead?(key: string, seenReadAt: number, nowMs: number): Promise<boolean>;
}

/** A stable, non-secret identifier of an API key (first 16 hex chars of its SHA-256). */
export function keyFingerprint(apiKey: string): string {
  return "key_sha256:" + createHash("sha256").update(apiKey).digest("hex").slice(0, 16);
}

export interface TokenBucketOptions {
  now?: () => number;
  sleep?: (ms: number) => Promise<void>;
  /**
   * Calls allowed back to back before pacing starts. The default 1 spaces calls evenly,
   * which keeps every 60 s window (fixed or sliding) within the limit; a larger burst
   * can exceed it by up to `burst - 1` calls in a window and earn 429s.
   */
  burst?: number;
}

interface KeyState {
  /** Theoretical arrival time of the next call at the current pace (GCRA). */
  nextAt: number;
  blockedUntil: number;
}

const realSleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * A token bucket written as GCRA: each acquire reserves its slot synchronously, then
 * sleeps until it, so concurrent callers are served in order without a queue.
 */
export function createTokenBucketLimiter(options: TokenBucketOptions = {}): RateLimiter {
  const now = options.now ?? Date.now;
  const sleep = options.sleep ?? realSleep;
  const burst = Math.max(1, Math.floor(options.burst ?? 1));
  const keys = new Map<string, KeyState>();
  const stateOf = (key: string) => {
    let state = keys.get(key);
    if (!state) keys.set(key, (state = { nextAt: -Infinity, blockedUntil: -Infinity }));
    return state;
  };

  return {
    async acquire(key, ratePerMinute) {
      if (!Number.isFinite(ratePerMinute) || ratePerMinute <= 0) {
        throw new RangeError(`ratePerMinute must be a positive number, got ${ratePerMinute}`);
      }
      // Rounded up: n calls spaced by floor(60000/n) could land n+1 in one minute.
      const interval = Math.ceil(60_000 / ratePerMinute);
      const state = stateOf(key);
      const t = now();
      const startAt = Math.max(t, state.nextAt - (burst - 1) * interval, state.blockedUntil);
      state.nextAt = Math.max(state.nextAt, startAt) + interval;
      if (startAt > t) await sleep(startAt - t);
    },
    penalize(key, untilMs) {
      const state = stateOf(key);
      state.blockedUntil = Math.max(state.blockedUntil, untilMs);
      state.nextAt = Math.max(state.nextAt, untilMs);
    },
  };
}
