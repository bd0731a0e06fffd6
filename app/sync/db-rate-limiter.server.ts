/**
 * The Seller Order API rate limit, shared by every process that uses the same
 * key: each call reserves the next free instant in RateLimitSlot with a
 * conditional update on `version`, then waits for it. Calls are spaced evenly,
 * so no minute window (fixed or sliding) ever holds more than the limit.
 */
import { AsyncLocalStorage } from "node:async_hooks";
import type { Db } from "../db.server";
import type { RateLimiter } from "../seller-api";
import { asDate, asNumber, sqlDatabaseOf, statement, type BatchItem, type Sql } from "../db/sql";
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

const READ_SLOT = statement(`SELECT "nextAt", "blockedUntil", "version" FROM "RateLimitSlot" WHERE "key" = ?`);
const CREATE_SLOT = statement(
  `INSERT INTO "RateLimitSlot" ("key", "nextAt", "version") VALUES (?, ?, 0) ON CONFLICT ("key") DO NOTHING`,
);
const RESERVE = statement(
  `UPDATE "RateLimitSlot" SET "nextAt" = ?, "version" = "version" + 1 WHERE "key" = ? AND "version" = ?`,
);
const PENALIZE = statement(`INSERT INTO "RateLimitSlot" ("key", "nextAt", "blockedUntil", "version") VALUES (?, ?, ?, 0)
  ON CONFLICT ("key") DO UPDATE SET "blockedUntil" = excluded."blockedUntil", "version" = "RateLimitSlot"."version" + 1`);
const SHARED_RATE = statement(`SELECT "ratePerMinute", "rateReadAt" FROM "RateLimitSlot" WHERE "key" = ?`);
const SHARE_RATE =
  statement(`INSERT INTO "RateLimitSlot" ("key", "nextAt", "version", "ratePerMinute", "rateReadAt") VALUES (?, ?, 0, ?, ?)
  ON CONFLICT ("key") DO UPDATE SET "ratePerMinute" = excluded."ratePerMinute", "rateReadAt" = excluded."rateReadAt"`);
const CLAIM_RATE_READ = statement(`UPDATE "RateLimitSlot" SET "rateReadAt" = ? WHERE "key" = ? AND "rateReadAt" = ?`);

interface Slot {
  nextAt: number;
  blockedUntil: number;
  version: number;
}

/** A slot taken ahead for one call (see reservationFor). */
export interface Reservation {
  key: string;
  startAt: number;
  used: boolean;
  /** The 429s this limiter had heard for the key when the slot was taken (see heardPenalty). */
  penaltiesHeard: number;
}

const reservedForCall = new AsyncLocalStorage<Reservation>();

/** Runs the call with its slot already reserved: the limiter's acquire for that key then only waits for it (once). */
export function withReservation<T>(reservation: Reservation | undefined, call: () => Promise<T>): Promise<T> {
  return reservation ? reservedForCall.run(reservation, call) : call();
}

export interface DbRateLimiter extends RateLimiter {
  /**
   * The key's next slot as a write for the caller's batch (posting's mark, so
   * the reservation is not a commit of its own), from what this limiter last
   * wrote and the rate the key's last call used; `settle` takes the rows the
   * write changed and says whether the slot is ours. Undefined when either is
   * not known, or the slot looks further than maxWaitMs: the call then reserves
   * as usual (reading the row).
   */
  reservationFor(
    key: string,
  ): { item: BatchItem; reservation: Reservation; settle(changed: number): boolean } | undefined;
}

export function createDbRateLimiter(db: Db, options: DbRateLimiterOptions = {}): DbRateLimiter {
  const now = options.now ?? Date.now;
  const sleep = options.sleep ?? realSleep;
  const margin = options.margin ?? DEFAULT_SPACING_MARGIN;
  const maxWaitMs = options.maxWaitMs ?? Infinity;
  const sql = sqlDatabaseOf(db);
  /**
   * Each key's slot as this limiter last left it: the reservation is tried on
   * it without reading the row first. Any other writer (another process, a
   * penalty) bumps the version, the conditional update then misses, and the
   * row is read again: one statement per call while one process uses the key.
   */
  const known = new Map<string, Slot>();
  /** The rate each key's last call was paced at, for reservations made ahead. */
  const lastRate = new Map<string, number>();
  /**
   * The 429s this limiter heard for each key (how many, and the latest
   * blockedUntil). A call whose slot was reserved before one of them does not
   * go out into it when its wait ends: its slot is planned again, after the
   * penalty (retrying at once would be refused too and charged to the
   * platform's next minute). Only this process's 429s: another process's
   * would cost a read of the row per call.
   */
  const penalties = new Map<string, { heard: number; until: number }>();
  const penaltiesHeard = (key: string) => penalties.get(key)?.heard ?? 0;
  const heardPenalty = (key: string, heardBefore: number) => {
    const penalty = penalties.get(key);
    return penalty !== undefined && penalty.heard !== heardBefore && penalty.until > now();
  };
  const intervalAt = (ratePerMinute: number) => Math.ceil((60_000 / ratePerMinute) * (1 + margin));

  async function readSlot(key: string, from: Sql = sql): Promise<Slot | undefined> {
    const [row] = await from.all(READ_SLOT, [key]);
    if (!row) return undefined;
    return {
      nextAt: asDate(row.nextAt)!.getTime(),
      blockedUntil: asDate(row.blockedUntil)?.getTime() ?? 0,
      version: asNumber(row.version),
    };
  }

  return {
    reservationFor(key) {
      const rate = lastRate.get(key);
      const slot = known.get(key);
      if (rate === undefined || !slot) return undefined;
      const t = now();
      const startAt = Math.max(t, slot.nextAt, slot.blockedUntil);
      if (startAt - t > maxWaitMs) return undefined;
      const nextAt = startAt + intervalAt(rate);
      return {
        item: { statement: RESERVE, params: [new Date(nextAt), key, slot.version] },
        reservation: { key, startAt, used: false, penaltiesHeard: penaltiesHeard(key) },
        settle(changed) {
          // Assumed committed: if the caller's transaction rolls back, the next conditional update misses and reads again.
          if (changed === 1) known.set(key, { nextAt, blockedUntil: slot.blockedUntil, version: slot.version + 1 });
          else known.delete(key);
          return changed === 1;
        },
      };
    },

    async acquire(key, ratePerMinute) {
      if (!Number.isFinite(ratePerMinute) || ratePerMinute <= 0) throw new RangeError(`invalid rate ${ratePerMinute}`);
      lastRate.set(key, ratePerMinute);
      const reservation = reservedForCall.getStore();
      if (reservation && reservation.key === key && !reservation.used) {
        reservation.used = true;
        const wait = reservation.startAt - now();
        if (wait > 0) {
          recordRateLimitWait("spacing", wait);
          await sleep(wait);
        }
        // A 429 heard since the slot was taken: planned again below, after it.
        if (!heardPenalty(key, reservation.penaltiesHeard)) return;
      }
      const interval = intervalAt(ratePerMinute);
      const low = isPolling();
      const gaveUpAt = now() + maxWaitMs;
      for (let round = 0; round < 50; round++) {
        const t = now();
        // Polling reads the row each time: it only takes a slot that is free now.
        const slot = (!low && known.get(key)) || (await readSlot(key));
        if (!slot) {
          if ((await sql.run(CREATE_SLOT, [key, new Date(t + interval)])) === 1) {
            known.set(key, { nextAt: t + interval, blockedUntil: 0, version: 0 });
            return;
          }
          continue;
        }
        // A 429 this process heard holds even before its penalty is in the row.
        const startAt = Math.max(t, slot.nextAt, slot.blockedUntil, penalties.get(key)?.until ?? 0);
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
          // What we know may be old: only the row itself may send the caller away.
          if (known.delete(key)) continue;
          recordRateLimitWait("rescheduled", startAt - t);
          throw new RateLimitWaitError(startAt);
        }
        const nextAt = startAt + interval;
        const heardBefore = penaltiesHeard(key); // read with startAt, no await between
        const count = await sql.run(RESERVE, [new Date(nextAt), key, slot.version]);
        if (count === 1) {
          known.set(key, { nextAt, blockedUntil: slot.blockedUntil, version: slot.version + 1 });
          if (startAt > t) {
            recordRateLimitWait("spacing", startAt - t);
            await sleep(startAt - t);
          }
          // A 429 heard since the slot was read: this slot is given up and one after the penalty taken.
          if (heardPenalty(key, heardBefore)) continue;
          return;
        }
        known.delete(key);
      }
      throw new RateLimiterContentionError(key);
    },

    async penalize(key, untilMs) {
      const until = new Date(untilMs);
      known.delete(key);
      penalties.set(key, { heard: penaltiesHeard(key) + 1, until: untilMs });
      await sql.run(PENALIZE, [key, until, until]);
      // nextAt stays; acquire takes the later of nextAt and blockedUntil.
    },

    async sharedRate(key) {
      const [slot] = await sql.all(SHARED_RATE, [key]);
      const perMinute =
        slot?.ratePerMinute === null || slot?.ratePerMinute === undefined ? 0 : asNumber(slot.ratePerMinute);
      const readAt = asDate(slot?.rateReadAt);
      if (!perMinute || !readAt) return undefined;
      return { perMinute, readAt: readAt.getTime() };
    },

    async shareRate(key, perMinute, readAt) {
      const rateReadAt = new Date(readAt);
      // No version bump: the limit read does not move the slot, so a reservation in flight stays valid.
      await sql.run(SHARE_RATE, [key, rateReadAt, perMinute, rateReadAt]);
    },

    async claimRateRead(key, seenReadAt, nowMs) {
      // Conditional on the read seen: of the processes that found it stale, one wins.
      return (await sql.run(CLAIM_RATE_READ, [new Date(nowMs), key, new Date(seenReadAt)])) === 1;
    },
  };
}
