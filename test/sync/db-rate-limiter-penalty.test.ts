/**
 * A 429 heard while a call waits for the slot it reserved: the call does not go
 * out into the penalty when its wait ends (the platform would refuse it too and
 * charge it to its next minute); its slot is planned again after the penalty,
 * or its job comes back then when that is further than the limiter waits in place.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createDbRateLimiter, withReservation } from "../../app/sync/db-rate-limiter.server";
import { RateLimitWaitError } from "../../app/seller-api/index";
import { sqlDatabaseOf } from "../../app/db/sql";
import { createTestDatabase, type TestDatabase } from "../helpers/db";

let db: TestDatabase;
let t = 0;
const KEY = "key-penalized";
const RATE = 60; // one call every 1020 ms with the 2 % margin
const PENALTY_MS = 30_000;

beforeAll(async () => {
  db = await createTestDatabase();
});
afterAll(() => db.cleanup());
beforeEach(async () => {
  t = 30_000_000;
  await db.prisma.rateLimitSlot.deleteMany();
});

describe("a 429 heard while a call waits for its slot", () => {
  it("GIVEN a call waiting for its reserved slot WHEN another call's 429 is heard meanwhile THEN it starts when the penalty ends, not at its slot", async () => {
    const t0 = t;
    let heard = false;
    const limiter = createDbRateLimiter(db.prisma, {
      now: () => t,
      sleep: async (ms) => {
        t += ms;
        // The 429 of a call that went out just before comes back while this one waits.
        if (!heard) {
          heard = true;
          await limiter.penalize(KEY, t + PENALTY_MS);
        }
      },
      maxWaitMs: 60_000,
    });
    await limiter.acquire(KEY, RATE);
    expect(t).toBe(t0);

    await limiter.acquire(KEY, RATE);

    expect(heard).toBe(true);
    expect(t).toBe(t0 + 1020 + PENALTY_MS);
    // The slot it gave up is not taken again: the next free instant is one interval after the penalty.
    expect((await db.prisma.rateLimitSlot.findUniqueOrThrow({ where: { key: KEY } })).nextAt.getTime()).toBe(
      t0 + 1020 + PENALTY_MS + 1020,
    );
  });

  it("GIVEN the same WHEN the penalty ends further than the limiter waits in place THEN the call's job comes back when it ends", async () => {
    const t0 = t;
    let heard = false;
    const limiter = createDbRateLimiter(db.prisma, {
      now: () => t,
      sleep: async (ms) => {
        t += ms;
        if (!heard) {
          heard = true;
          await limiter.penalize(KEY, t + PENALTY_MS);
        }
      },
      maxWaitMs: 10_000,
    });
    await limiter.acquire(KEY, RATE);

    const error = await limiter.acquire(KEY, RATE).catch((e: unknown) => e);

    expect(error).toBeInstanceOf(RateLimitWaitError);
    expect((error as RateLimitWaitError).untilMs).toBe(t0 + 1020 + PENALTY_MS);
  });

  it("GIVEN a slot reserved ahead in posting's batch WHEN a 429 is heard before the call THEN the call starts when the penalty ends", async () => {
    const t0 = t;
    const limiter = createDbRateLimiter(db.prisma, {
      now: () => t,
      sleep: async (ms) => void (t += ms),
      maxWaitMs: 60_000,
    });
    await limiter.acquire(KEY, RATE);
    const planned = limiter.reservationFor(KEY)!;
    expect(planned.reservation.startAt).toBe(t0 + 1020);
    const changed = await sqlDatabaseOf(db.prisma).run(planned.item.statement, planned.item.params);
    expect(planned.settle(changed)).toBe(true);

    await limiter.penalize(KEY, t0 + PENALTY_MS);
    await withReservation(planned.reservation, () => limiter.acquire(KEY, RATE));

    expect(t).toBe(t0 + PENALTY_MS);
  });

  it("GIVEN a 429 whose penalty is over when the call's slot comes THEN the call starts at its slot", async () => {
    const t0 = t;
    let heard = false;
    const limiter = createDbRateLimiter(db.prisma, {
      now: () => t,
      sleep: async (ms) => {
        // Heard at the start of the wait, over before it ends.
        if (!heard) {
          heard = true;
          await limiter.penalize(KEY, t + 500);
        }
        t += ms;
      },
      maxWaitMs: 60_000,
    });
    await limiter.acquire(KEY, RATE);

    await limiter.acquire(KEY, RATE);

    expect(heard).toBe(true);
    expect(t).toBe(t0 + 1020);
  });
});
