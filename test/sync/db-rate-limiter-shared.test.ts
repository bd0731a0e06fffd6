/**
 * The key's rate limit holds across clients: two Prisma clients on one database
 * (as two worker processes have) reserve slots from the same RateLimitSlot
 * row, so their calls together stay within the key's rate. The same run with a
 * limiter per client (in memory) shows what sharing prevents.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { PrismaClient } from "@prisma/client";
import { createDbRateLimiter } from "../../app/sync/db-rate-limiter.server";
import { createTokenBucketLimiter, keyFingerprint, type RateLimiter } from "../../app/seller-api/rate-limiter";
import { createPrismaClient } from "../../app/db/client";
import { createTestDatabase, type TestDatabase } from "../helpers/db";

let db: TestDatabase;
let second: PrismaClient;
beforeAll(async () => {
  db = await createTestDatabase();
  second = createPrismaClient(db.url);
});
afterAll(async () => {
  await second.$disconnect();
  await db.cleanup();
});
beforeEach(async () => {
  await db.prisma.rateLimitSlot.deleteMany();
});

const KEY = keyFingerprint("sk_test_shared_between_processes");
const RATE = 60;
const INTERVAL = Math.ceil(1000 * 1.02); // the limiter's 2 % margin over 60000 / RATE
const CALLS_PER_CLIENT = 8;

/**
 * Both limiters acquire CALLS_PER_CLIENT slots each, all at once, on a clock
 * that does not move; answers the instant each call was allowed to start.
 */
async function startsOf(
  make: (record: (ms: number) => Promise<void>, now: () => number) => [RateLimiter, RateLimiter],
) {
  const t = 5_000_000;
  const starts: number[] = [];
  const record = async (ms: number) => void starts.push(t + ms);
  const limiters = make(record, () => t);
  let immediate = 0;
  // Each client calls one after another (its sleeps are instant), the two clients at the same time.
  await Promise.all(
    limiters.map(async (limiter) => {
      for (let i = 0; i < CALLS_PER_CLIENT; i++) {
        const before = starts.length;
        await limiter.acquire(KEY, RATE);
        // No sleep: the call started at once.
        if (starts.length === before) immediate++;
      }
    }),
  );
  return [...Array.from({ length: immediate }, () => t), ...starts].sort((a, b) => a - b);
}

const gaps = (starts: number[]) => starts.slice(1).map((s, i) => s - starts[i]);

describe("the database limiter shared by two clients of one database", () => {
  it("GIVEN two clients acquiring at once WHEN 16 calls start THEN every two calls are at least one interval apart", async () => {
    const starts = await startsOf((sleep, now) => [
      createDbRateLimiter(db.prisma, { now, sleep }),
      createDbRateLimiter(second, { now, sleep }),
    ]);

    expect(starts).toHaveLength(2 * CALLS_PER_CLIENT);
    expect(Math.min(...gaps(starts))).toBeGreaterThanOrEqual(INTERVAL);
    // Which means no minute holds more than the rate: 16 calls span 15 intervals.
    expect(starts.at(-1)! - starts[0]).toBe(15 * INTERVAL);
  });

  it("GIVEN one in-memory limiter per client (no sharing) WHEN the same calls start THEN they collide: the reason the app uses the database one", async () => {
    const starts = await startsOf((sleep, now) => [
      createTokenBucketLimiter({ now, sleep }),
      createTokenBucketLimiter({ now, sleep }),
    ]);

    expect(Math.min(...gaps(starts))).toBe(0);
  });

  it("GIVEN a 429 seen by one client WHEN the other acquires THEN it waits for the platform's retry time", async () => {
    const t = 7_000_000;
    let waitedUntil = t;
    const a = createDbRateLimiter(db.prisma, { now: () => t, sleep: async () => {} });
    const b = createDbRateLimiter(second, { now: () => t, sleep: async (ms) => void (waitedUntil = t + ms) });
    await a.acquire(KEY, RATE);

    await a.penalize(KEY, t + 30_000);
    await b.acquire(KEY, RATE);

    expect(waitedUntil).toBe(t + 30_000);
  });

  it("GIVEN one client shared the key's limit WHEN the other asks THEN it reads it, read time included, and slot reservations still hold", async () => {
    const t = 9_000_000;
    const a = createDbRateLimiter(db.prisma, { now: () => t, sleep: async () => {} });
    const b = createDbRateLimiter(second, { now: () => t, sleep: async () => {} });
    expect(await b.sharedRate!(KEY)).toBeUndefined();

    await a.acquire(KEY, RATE);
    const reserved = await db.prisma.rateLimitSlot.findUniqueOrThrow({ where: { key: KEY } });
    await a.shareRate!(KEY, 90, t - 5_000);
    expect(await b.sharedRate!(KEY)).toEqual({ perMinute: 90, readAt: t - 5_000 });
    // Sharing the limit neither moves the next free slot nor invalidates a reservation in flight.
    const after = await db.prisma.rateLimitSlot.findUniqueOrThrow({ where: { key: KEY } });
    expect(after.nextAt).toEqual(reserved.nextAt);
    expect(after.version).toBe(reserved.version);

    // A newer read replaces it; a key never seen before gets its row from the read alone.
    await b.shareRate!(KEY, 120, t);
    expect(await a.sharedRate!(KEY)).toEqual({ perMinute: 120, readAt: t });
    const other = keyFingerprint("sk_test_read_before_any_call");
    await a.shareRate!(other, 30, t);
    expect(await b.sharedRate!(other)).toEqual({ perMinute: 30, readAt: t });
  });

  it("GIVEN a stale shared read WHEN two processes claim its refresh THEN one wins, and the others then see the last value as fresh", async () => {
    const t = 12_000_000;
    const a = createDbRateLimiter(db.prisma, { now: () => t, sleep: async () => {} });
    const b = createDbRateLimiter(second, { now: () => t, sleep: async () => {} });
    await a.shareRate!(KEY, 90, t - 600_000);
    const [wonA, wonB] = await Promise.all([
      a.claimRateRead!(KEY, t - 600_000, t),
      b.claimRateRead!(KEY, t - 600_000, t + 1),
    ]);
    expect([wonA, wonB].filter(Boolean)).toHaveLength(1);
    expect((await b.sharedRate!(KEY))?.perMinute).toBe(90);
    expect([t, t + 1]).toContain((await b.sharedRate!(KEY))?.readAt);
    // A read already refreshed cannot be claimed again with the old time.
    expect(await a.claimRateRead!(KEY, t - 600_000, t + 2)).toBe(false);
  });
});
