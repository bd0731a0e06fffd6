/**
 * The Seller Order API rate limit, shared by every process that uses the same
 * key: each call reserves the next free instant in RateLimitSlot with a
 * conditional update on `version`, then waits for it. Calls are spaced evenly,
 * so no minute window (fixed or sliding) ever holds more than the limit.
 * Several processes on one SQLite file collide on its write lock, so each
 * statement is retried while the database is busy, as the queue's are.
 */
import { AsyncLocalStorage } from "node:async_hooks";
import { Prisma } from "@prisma/client";
import type { Db } from "../db.server";
import type { RateLimiter } from "../seller-api";
import { retryWhileBusy } from "../db/sqlite-busy";
import { RateLimitWaitError } from "../seller-api";
import { recordRateLimitWait } from "../runtime/metrics.server";

export interface DbRateLimiterOptions {
  now?: () => number;
  sleep?: (ms: number) => Promise<void>;
  /**
   * Spacing margin over 60000 / rate: absorbs network jitter between our clock
   * and the platform's window edges (a call arriving a little early at the
   * next window would cost a 429 and a whole minute).
   */
  margin?: number;
  /**
   * Longest wait done in place. A later slot is not reserved: the caller gets
   * RateLimitWaitError and reschedules its job, so a slow key (a few calls a
   * minute) never holds a worker that other shops' jobs could use.
   */
  maxWaitMs?: number;
}

/**
 * Calls made inside asPolling (the status sync) give way to posting: they
 * never reserve a slot ahead, they take one only when it is free now, so
 * posts queued for the key go first. A poll that finds no free slot within
 * maxWaitMs gets RateLimitWaitError and its job comes back later.
 */
const polling = new AsyncLocalStorage<true>();
export const asPolling = <T>(work: () => Promise<T>): Promise<T> => polling.run(true, work);
export const isPolling = (): boolean => polling.getStore() === true;
/** A waiting poll looks again this often for a free slot. */
const POLL_RECHECK_MS = 250;

const realSleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

export class RateLimiterContentionError extends Error {
  constructor(key: string) {
    super(`could not reserve a rate-limit slot for ${key} after many tries`);
    this.name = "RateLimiterContentionError";
  }
}

/** The default spacing margin (see DbRateLimiterOptions.margin). */
export const DEFAULT_SPACING_MARGIN = 0.02;

export function createDbRateLimiter(db: Db, options: DbRateLimiterOptions = {}): RateLimiter {
  const now = options.now ?? Date.now;
  const sleep = options.sleep ?? realSleep;
  const margin = options.margin ?? DEFAULT_SPACING_MARGIN;
  const maxWaitMs = options.maxWaitMs ?? Infinity;

  return {
    async acquire(key, ratePerMinute) {
      if (!Number.isFinite(ratePerMinute) || ratePerMinute <= 0) throw new RangeError(`invalid rate ${ratePerMinute}`);
      const interval = Math.ceil((60_000 / ratePerMinute) * (1 + margin));
      const low = isPolling();
      const gaveUpAt = now() + maxWaitMs;
      for (let round = 0; round < 50; round++) {
        const t = now();
        const slot = await retryWhileBusy(() => db.rateLimitSlot.findUnique({ where: { key } }));
        if (!slot) {
          try {
            await retryWhileBusy(() => db.rateLimitSlot.create({ data: { key, nextAt: new Date(t + interval) } }));
            return;
          } catch (error) {
            if (error instanceof Prisma.PrismaClientKnownRequestError && error.code === "P2002") continue;
            throw error;
          }
        }
        const startAt = Math.max(t, slot.nextAt.getTime(), slot.blockedUntil?.getTime() ?? 0);
        if (low && startAt > t) {
          // Not free now: posting has it. Look again shortly, up to maxWaitMs in all.
          if (t + Math.min(POLL_RECHECK_MS, startAt - t) > gaveUpAt) {
            recordRateLimitWait("rescheduled", Math.max(startAt, gaveUpAt) - t);
            throw new RateLimitWaitError(Math.max(startAt, gaveUpAt));
          }
          await sleep(Math.min(POLL_RECHECK_MS, startAt - t));
          round--;
          continue;
        }
        if (startAt - t > maxWaitMs) {
          recordRateLimitWait("rescheduled", startAt - t);
          throw new RateLimitWaitError(startAt);
        }
        // Raw: one statement instead of Prisma's update in a transaction of its own (once per call to the platform).
        const nextAt = new Date(startAt + interval);
        const count = await retryWhileBusy(
          () => db.$executeRaw`UPDATE "RateLimitSlot" SET "nextAt" = ${nextAt}, "version" = "version" + 1 WHERE "key" = ${key} AND "version" = ${slot.version}`,
        );
        if (count === 1) {
          if (startAt > t) {
            recordRateLimitWait("spacing", startAt - t);
            await sleep(startAt - t);
          }
          return;
        }
      }
      throw new RateLimiterContentionError(key);
    },

    async penalize(key, untilMs) {
      const until = new Date(untilMs);
      await retryWhileBusy(() =>
        db.rateLimitSlot.upsert({
          where: { key },
          create: { key, nextAt: until, blockedUntil: until },
          update: { blockedUntil: until, version: { increment: 1 } },
        }),
      );
      // nextAt stays; acquire takes the later of nextAt and blockedUntil.
    },

    async sharedRate(key) {
      const slot = await retryWhileBusy(() => db.rateLimitSlot.findUnique({ where: { key }, select: { ratePerMinute: true, rateReadAt: true } }));
      if (!slot?.ratePerMinute || !slot.rateReadAt) return undefined;
      return { perMinute: slot.ratePerMinute, readAt: slot.rateReadAt.getTime() };
    },

    async shareRate(key, perMinute, readAt) {
      const rateReadAt = new Date(readAt);
      // No version bump: the limit read does not move the slot, so a reservation in flight stays valid.
      await retryWhileBusy(() =>
        db.rateLimitSlot.upsert({
          where: { key },
          create: { key, nextAt: rateReadAt, ratePerMinute: perMinute, rateReadAt },
          update: { ratePerMinute: perMinute, rateReadAt },
        }),
      );
    },

    async claimRateRead(key, seenReadAt, nowMs) {
      // Conditional on the read seen: of the processes that found it stale, one wins.
      const { count } = await retryWhileBusy(() =>
        db.rateLimitSlot.updateMany({ where: { key, rateReadAt: new Date(seenReadAt) }, data: { rateReadAt: new Date(nowMs) } }),
      );
      return count === 1;
    },
  };
}

