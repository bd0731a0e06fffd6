/**
 * Posting comes before polling in a key's rate budget: a status-sync call
 * (inside asPolling) never reserves a slot ahead, it takes one only when the
 * key is free now, so posts queued for the key go first.
 */
import { AsyncLocalStorage } from "node:async_hooks";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createTestDatabase, type TestDatabase } from "../helpers/db";
import { asPolling, createDbRateLimiter } from "../../app/sync/db-rate-limiter.server";
import { RateLimitWaitError } from "../../app/seller-api/index";

let db: TestDatabase;
let t = 0;
const clock = { now: () => t, sleep: async (ms: number) => void (t += ms) };
const KEY = "key-1";
const RATE = 60; // one call every 1020 ms with the 2 % margin

beforeAll(async () => {
  db = await createTestDatabase();
});
afterAll(() => db.cleanup());
beforeEach(async () => {
  t = 1_000_000;
  await db.prisma.rateLimitSlot.deleteMany();
});

const nextAt = async () => (await db.prisma.rateLimitSlot.findUniqueOrThrow({ where: { key: KEY } })).nextAt.getTime();

describe("polling behind posting", () => {
  it("takes a free slot at once, like a post", async () => {
    const limiter = createDbRateLimiter(db.prisma, { ...clock, maxWaitMs: 10_000 });
    await limiter.acquire(KEY, RATE);
    t += 5000;
    const before = t;
    await asPolling(() => limiter.acquire(KEY, RATE));
    expect(t).toBe(before);
    expect(await nextAt()).toBe(before + 1020);
  });

  it("does not reserve ahead of posts: it gives up instead while posts hold the key", async () => {
    const posting = createDbRateLimiter(db.prisma, { now: clock.now, sleep: async () => {}, maxWaitMs: 60_000 });
    // Five posts queued: the key's next free instant is five slots away.
    for (let i = 0; i < 5; i++) await posting.acquire(KEY, RATE);
    const reserved = await nextAt();
    expect(reserved).toBe(t + 5 * 1020);

    const polling = createDbRateLimiter(db.prisma, { ...clock, maxWaitMs: 2000 });
    await expect(asPolling(() => polling.acquire(KEY, RATE))).rejects.toBeInstanceOf(RateLimitWaitError);
    // Nothing reserved by the poll: the next post still gets the first free slot.
    expect(await nextAt()).toBe(reserved);
  });

  it("lets a post that arrives while the poll waits go first", async () => {
    const t0 = t;
    let postStart = NaN;
    const posting = createDbRateLimiter(db.prisma, {
      now: clock.now,
      sleep: async (ms) => void (postStart = t + ms),
      maxWaitMs: 60_000,
    });
    await posting.acquire(KEY, RATE); // the key is busy until t0 + 1020
    // The post runs in its own context (a request's), not inside the poll's.
    const postElsewhere = AsyncLocalStorage.bind(() => posting.acquire(KEY, RATE));
    let interleaved = false;
    const polling = createDbRateLimiter(db.prisma, {
      now: clock.now,
      sleep: async (ms) => {
        // While the poll waits, a post comes for the same key.
        if (!interleaved) {
          interleaved = true;
          await postElsewhere();
        }
        t += ms;
      },
      maxWaitMs: 60_000,
    });
    await asPolling(() => polling.acquire(KEY, RATE));
    expect(postStart).toBe(t0 + 1020);
    expect(t).toBeGreaterThanOrEqual(t0 + 2040);
  });
});
