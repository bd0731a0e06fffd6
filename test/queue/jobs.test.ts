import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import {
  claimNextJob,
  completeJob,
  countJobsByState,
  enqueueJob,
  enqueueJobs,
  extendLease,
  failJob,
  listJobs,
  rescheduleJob,
  retryDeadJob,
  retryJobs,
} from "../../app/queue/jobs.server";
import { PermanentJobError } from "../../app/queue/errors";
import { createTestDatabase, type TestDatabase } from "../helpers/db";
import { fakeClock } from "./helpers";

let t: TestDatabase;
beforeAll(async () => {
  t = await createTestDatabase();
});
afterAll(async () => {
  await t.cleanup();
});
beforeEach(async () => {
  await t.prisma.job.deleteMany();
});

const LEASE_MS = 60_000;
const row = (key: string) => t.prisma.job.findUniqueOrThrow({ where: { key } });

describe("enqueueJob", () => {
  it("GIVEN the same key twice WHEN enqueued THEN one job holds the latest payload", async () => {
    const first = await enqueueJob(t.prisma, {
      kind: "post-lead",
      key: "post-lead:shop:1",
      shop: "a.myshopify.com",
      payload: { v: 1 },
    });
    const second = await enqueueJob(t.prisma, {
      kind: "post-lead",
      key: "post-lead:shop:1",
      shop: "a.myshopify.com",
      payload: { v: 2 },
    });

    expect(first.outcome).toBe("created");
    expect(second).toEqual({ id: first.id, outcome: "reset" });
    expect(await t.prisma.job.count()).toBe(1);
    expect(JSON.parse((await row("post-lead:shop:1")).payload)).toEqual({ v: 2 });
  });

  it("GIVEN a done job WHEN re-enqueued THEN it is pending again with a fresh attempt budget", async () => {
    const clock = fakeClock();
    await enqueueJob(t.prisma, { kind: "k", key: "k:1", payload: {} });
    const job = await claimNextJob(t.prisma, { owner: "w1", leaseMs: LEASE_MS, now: clock.now() });
    expect(await completeJob(t.prisma, job!, "w1")).toBe(true);
    expect((await row("k:1")).state).toBe("done");

    const again = await enqueueJob(t.prisma, { kind: "k", key: "k:1", payload: { again: true } });

    expect(again.outcome).toBe("reset");
    expect(await row("k:1")).toMatchObject({ state: "pending", attempts: 0, lastError: null, leaseOwner: null });
  });

  it("GIVEN a running job WHEN re-enqueued THEN it finishes its attempt, then runs again with the new payload", async () => {
    const clock = fakeClock();
    await enqueueJob(t.prisma, { kind: "k", key: "k:1", payload: { v: 1 }, runAt: clock.now() });
    const first = await claimNextJob(t.prisma, { owner: "w1", leaseMs: LEASE_MS, now: clock.now() });
    expect(first!.payload).toEqual({ v: 1 });

    const during = await enqueueJob(t.prisma, { kind: "k", key: "k:1", payload: { v: 2 }, runAt: clock.now() });
    expect(during.outcome).toBe("rerun");
    expect(await row("k:1")).toMatchObject({ state: "running", rerun: true, leaseOwner: "w1" });

    expect(await completeJob(t.prisma, first!, "w1")).toBe(true);
    expect(await row("k:1")).toMatchObject({ state: "pending", rerun: false, attempts: 0, leaseOwner: null });

    const second = await claimNextJob(t.prisma, { owner: "w1", leaseMs: LEASE_MS, now: clock.now() });
    expect(second).toMatchObject({ key: "k:1", payload: { v: 2 }, attempts: 1 });
    expect(await completeJob(t.prisma, second!, "w1")).toBe(true);
    expect((await row("k:1")).state).toBe("done");
  });

  it("GIVEN a rerun request WHEN the running attempt fails THEN the job still runs again, not after a backoff", async () => {
    const clock = fakeClock();
    await enqueueJob(t.prisma, { kind: "k", key: "k:1", runAt: clock.now() });
    const job = await claimNextJob(t.prisma, { owner: "w1", leaseMs: LEASE_MS, now: clock.now() });
    await enqueueJob(t.prisma, { kind: "k", key: "k:1", payload: { v: 2 }, runAt: clock.now() });

    const settled = await failJob(t.prisma, job!, "w1", new Error("boom"), { now: clock.now() });

    expect(settled).toMatchObject({ state: "pending" });
    expect(await row("k:1")).toMatchObject({ state: "pending", attempts: 0, lastError: "boom", rerun: false });
  });

  it("enqueues inside an interactive transaction, and rolls back with it", async () => {
    await t.prisma.$transaction(async (tx) => {
      await enqueueJob(tx, { kind: "k", key: "k:tx", payload: { order: 1 } });
    });
    expect(await t.prisma.job.count({ where: { key: "k:tx" } })).toBe(1);

    await expect(
      t.prisma.$transaction(async (tx) => {
        await enqueueJob(tx, { kind: "k", key: "k:rolled-back" });
        throw new Error("order insert failed");
      }),
    ).rejects.toThrow("order insert failed");
    expect(await t.prisma.job.count({ where: { key: "k:rolled-back" } })).toBe(0);
  });
});

describe("enqueueJobs", () => {
  it("takes over many keys in one go as enqueueJob does each: new, waiting, done (fresh budget) and running (rerun after), the last of a key twice", async () => {
    const clock = fakeClock();
    await enqueueJob(t.prisma, { kind: "k", key: "k:waiting", payload: { v: 1 }, runAt: clock.now() });
    await enqueueJob(t.prisma, { kind: "k", key: "k:done", payload: { v: 1 }, runAt: clock.now(), maxAttempts: 3 });
    await enqueueJob(t.prisma, { kind: "k", key: "k:running", payload: { v: 1 }, runAt: clock.now() });
    const done = await claimNextJob(t.prisma, { owner: "w1", leaseMs: LEASE_MS, now: clock.now(), kinds: ["k"] });
    await completeJob(t.prisma, done!, "w1");
    const running = await claimNextJob(t.prisma, { owner: "w1", leaseMs: LEASE_MS, now: clock.now(), kinds: ["k"] });
    expect([done!.key, running!.key].sort()).toEqual(["k:done", "k:waiting"]);
    // The one left pending is k:running: claim it too so the three states are there.
    const third = await claimNextJob(t.prisma, { owner: "w2", leaseMs: LEASE_MS, now: clock.now(), kinds: ["k"] });
    await completeJob(t.prisma, running!, "w1");
    expect(third!.key).toBe("k:running");

    const later = new Date(clock.now().getTime() + 5_000);
    await enqueueJobs(t.prisma, [
      { kind: "k", key: "k:new", shop: "a.myshopify.com", payload: { v: 2 }, runAt: later },
      { kind: "k", key: "k:waiting", payload: { v: 2 }, runAt: later },
      { kind: "k", key: "k:done", payload: { v: 2 }, runAt: later },
      { kind: "k", key: "k:running", payload: { v: 2 }, runAt: later },
      { kind: "k", key: "k:new", shop: "a.myshopify.com", payload: { v: 3 }, runAt: later },
    ]);

    const byKey = new Map((await t.prisma.job.findMany()).map((j) => [j.key, j]));
    expect(byKey.size).toBe(4);
    expect(byKey.get("k:new")).toMatchObject({
      state: "pending",
      payload: JSON.stringify({ v: 3 }),
      runAt: later,
      maxAttempts: 10,
    });
    expect(byKey.get("k:waiting")).toMatchObject({
      state: "pending",
      payload: JSON.stringify({ v: 2 }),
      runAt: later,
      attempts: 0,
    });
    expect(byKey.get("k:done")).toMatchObject({
      state: "pending",
      payload: JSON.stringify({ v: 2 }),
      attempts: 0,
      maxAttempts: 3,
      lastError: null,
    });
    expect(byKey.get("k:running")).toMatchObject({
      state: "running",
      rerun: true,
      leaseOwner: "w2",
      payload: JSON.stringify({ v: 2 }),
    });
    // The shop's turn exists: its jobs can be claimed.
    expect(await t.prisma.queueTurn.count({ where: { shop: "a.myshopify.com" } })).toBe(1);
  });
});

describe("claimNextJob", () => {
  it("claims due jobs oldest runAt first, and never a job whose runAt is in the future", async () => {
    const clock = fakeClock();
    const at = (s: number) => new Date(clock.now().getTime() + s * 1000);
    await enqueueJob(t.prisma, { kind: "k", key: "later", runAt: at(-10) });
    await enqueueJob(t.prisma, { kind: "k", key: "future", runAt: at(+60) });
    await enqueueJob(t.prisma, { kind: "k", key: "oldest", runAt: at(-30) });
    await enqueueJob(t.prisma, { kind: "k", key: "middle", runAt: at(-20) });

    const claimed: string[] = [];
    for (let job; (job = await claimNextJob(t.prisma, { owner: "w1", leaseMs: LEASE_MS, now: clock.now() }));) {
      claimed.push(job.key);
      await completeJob(t.prisma, job, "w1");
    }

    expect(claimed).toEqual(["oldest", "middle", "later"]);
    expect((await row("future")).state).toBe("pending");
    clock.advance(61_000);
    expect((await claimNextJob(t.prisma, { owner: "w1", leaseMs: LEASE_MS, now: clock.now() }))?.key).toBe("future");
  });

  it("takes a lease: owner, expiry, and the attempt counted", async () => {
    const clock = fakeClock();
    await enqueueJob(t.prisma, { kind: "k", key: "k:1", shop: "s", payload: { a: [1] }, maxAttempts: 3 });

    const job = await claimNextJob(t.prisma, { owner: "w1", leaseMs: LEASE_MS, now: clock.now() });

    expect(job).toMatchObject({
      kind: "k",
      key: "k:1",
      shop: "s",
      payload: { a: [1] },
      attempts: 1,
      maxAttempts: 3,
      leaseOwner: "w1",
    });
    expect(job!.leaseExpiresAt).toEqual(new Date(clock.now().getTime() + LEASE_MS));
    expect(await claimNextJob(t.prisma, { owner: "w2", leaseMs: LEASE_MS, now: clock.now() })).toBeNull();
  });

  it("only claims the kinds asked for", async () => {
    await enqueueJob(t.prisma, { kind: "a", key: "a:1" });
    await enqueueJob(t.prisma, { kind: "b", key: "b:1" });
    const job = await claimNextJob(t.prisma, { owner: "w", leaseMs: LEASE_MS, now: fakeClock().now(), kinds: ["b"] });
    expect(job?.key).toBe("b:1");
  });

  it("GIVEN a worker that crashed mid-job WHEN its lease expires THEN another worker reclaims the job, and the crashed one cannot settle it", async () => {
    const clock = fakeClock();
    await enqueueJob(t.prisma, { kind: "k", key: "k:1" });
    const crashed = await claimNextJob(t.prisma, { owner: "crashed", leaseMs: LEASE_MS, now: clock.now() });

    clock.advance(LEASE_MS - 1);
    expect(await claimNextJob(t.prisma, { owner: "w2", leaseMs: LEASE_MS, now: clock.now() })).toBeNull();

    clock.advance(2);
    const reclaimed = await claimNextJob(t.prisma, { owner: "w2", leaseMs: LEASE_MS, now: clock.now() });
    expect(reclaimed).toMatchObject({ key: "k:1", attempts: 2, leaseOwner: "w2" });

    expect(await completeJob(t.prisma, crashed!, "crashed")).toBe(false);
    expect(await failJob(t.prisma, crashed!, "crashed", new Error("late"), { now: clock.now() })).toBe(false);
    expect(await extendLease(t.prisma, crashed!, "crashed", { leaseMs: LEASE_MS, now: clock.now() })).toBe(false);
    expect(await row("k:1")).toMatchObject({ state: "running", leaseOwner: "w2" });

    expect(await completeJob(t.prisma, reclaimed!, "w2")).toBe(true);
    expect((await row("k:1")).state).toBe("done");
  });

  it("GIVEN the same owner reclaimed its own expired job THEN the older claim still cannot settle it", async () => {
    const clock = fakeClock();
    await enqueueJob(t.prisma, { kind: "k", key: "k:1" });
    const stale = await claimNextJob(t.prisma, { owner: "w1", leaseMs: 1000, now: clock.now() });
    clock.advance(1001);
    const fresh = await claimNextJob(t.prisma, { owner: "w1", leaseMs: 1000, now: clock.now() });

    expect(await completeJob(t.prisma, stale!, "w1")).toBe(false);
    expect(await completeJob(t.prisma, fresh!, "w1")).toBe(true);
  });

  it("GIVEN a worker died during the last attempt WHEN its lease expires THEN the job goes dead instead of running an extra attempt", async () => {
    const clock = fakeClock();
    await enqueueJob(t.prisma, { kind: "k", key: "k:1", maxAttempts: 1 });
    await claimNextJob(t.prisma, { owner: "crashed", leaseMs: 1000, now: clock.now() });
    clock.advance(1001);

    expect(await claimNextJob(t.prisma, { owner: "w2", leaseMs: 1000, now: clock.now() })).toBeNull();
    const dead = await row("k:1");
    expect(dead).toMatchObject({ state: "dead", leaseOwner: null });
    expect(dead.lastError).toMatch(/attempt 1 of 1 did not finish/);
  });

  it("sends a job whose payload is not JSON straight to dead and claims the next one", async () => {
    await t.prisma.job.create({ data: { kind: "k", key: "broken", payload: "{not json", runAt: new Date(0) } });
    await enqueueJob(t.prisma, { kind: "k", key: "fine" });

    const job = await claimNextJob(t.prisma, { owner: "w", leaseMs: LEASE_MS, now: fakeClock().now() });

    expect(job?.key).toBe("fine");
    expect(await row("broken")).toMatchObject({ state: "dead", lastError: "payload is not valid JSON" });
  });
});

describe("failing, retrying, rescheduling", () => {
  it("GIVEN failures WHEN attempts remain THEN failed with a backoff runAt; at maxAttempts THEN dead; retryDeadJob revives it", async () => {
    const clock = fakeClock();
    await enqueueJob(t.prisma, { kind: "k", key: "k:1", shop: "s", maxAttempts: 3 });
    const backoff = { baseMs: 1000, random: () => 0.5 };
    const expectedDelays = [500, 1000]; // random * base * 2^(attempt-1)

    for (const delayMs of expectedDelays) {
      const job = await claimNextJob(t.prisma, { owner: "w", leaseMs: LEASE_MS, now: clock.now() });
      const settled = await failJob(t.prisma, job!, "w", new Error(`boom ${job!.attempts}`), {
        now: clock.now(),
        backoff,
      });
      expect(settled).toEqual({ state: "failed", runAt: new Date(clock.now().getTime() + delayMs) });
      expect(await claimNextJob(t.prisma, { owner: "w", leaseMs: LEASE_MS, now: clock.now() })).toBeNull();
      clock.advance(delayMs);
    }
    const last = await claimNextJob(t.prisma, { owner: "w", leaseMs: LEASE_MS, now: clock.now() });
    expect(last!.attempts).toBe(3);
    expect(last!.lastError).toBe("boom 2");
    expect(await failJob(t.prisma, last!, "w", new Error("boom 3"), { now: clock.now(), backoff })).toMatchObject({
      state: "dead",
    });
    expect(await row("k:1")).toMatchObject({ state: "dead", attempts: 3, lastError: "boom 3", leaseOwner: null });

    clock.advance(3_600_000);
    expect(await claimNextJob(t.prisma, { owner: "w", leaseMs: LEASE_MS, now: clock.now() })).toBeNull();
    expect((await listJobs(t.prisma, { shop: "s", states: ["dead"], limit: 10 })).jobs.map((j) => j.key)).toEqual([
      "k:1",
    ]);

    expect(await retryDeadJob(t.prisma, (await row("k:1")).id, { shop: "other-shop" })).toBe(false);
    expect(await retryDeadJob(t.prisma, (await row("k:1")).id, { shop: "s", now: clock.now() })).toBe(true);
    expect(await row("k:1")).toMatchObject({ state: "pending", attempts: 0, lastError: null });
    expect((await claimNextJob(t.prisma, { owner: "w", leaseMs: LEASE_MS, now: clock.now() }))?.attempts).toBe(1);
  });

  it("a permanent error kills the job at once, whatever attempts remain", async () => {
    await enqueueJob(t.prisma, { kind: "k", key: "k:1" });
    const job = await claimNextJob(t.prisma, { owner: "w", leaseMs: LEASE_MS, now: fakeClock().now() });
    await failJob(t.prisma, job!, "w", new PermanentJobError("city not delivered"), {
      now: new Date(),
      permanent: true,
    });
    expect(await row("k:1")).toMatchObject({ state: "dead", attempts: 1, lastError: "city not delivered" });
  });

  it("rescheduling without counting gives the attempt back; counting on the last attempt is dead", async () => {
    const clock = fakeClock();
    await enqueueJob(t.prisma, { kind: "k", key: "k:1", maxAttempts: 2 });
    const runAt = new Date(clock.now().getTime() + 30_000);

    for (let i = 0; i < 5; i++) {
      const job = await claimNextJob(t.prisma, { owner: "w", leaseMs: LEASE_MS, now: clock.now() });
      expect(job!.attempts).toBe(1);
      expect(await rescheduleJob(t.prisma, job!, "w", { runAt, countAttempt: false, reason: "rate limited" })).toEqual({
        state: "pending",
        runAt,
      });
      expect(await claimNextJob(t.prisma, { owner: "w", leaseMs: LEASE_MS, now: clock.now() })).toBeNull();
      clock.advance(30_000);
      runAt.setTime(clock.now().getTime() + 30_000);
    }
    expect(await row("k:1")).toMatchObject({ state: "pending", attempts: 0, lastError: "rate limited" });

    const first = await claimNextJob(t.prisma, { owner: "w", leaseMs: LEASE_MS, now: clock.now() });
    await rescheduleJob(t.prisma, first!, "w", { runAt: clock.now(), countAttempt: true, reason: "shop paused" });
    const second = await claimNextJob(t.prisma, { owner: "w", leaseMs: LEASE_MS, now: clock.now() });
    expect(second!.attempts).toBe(2);
    expect(
      await rescheduleJob(t.prisma, second!, "w", { runAt: clock.now(), countAttempt: true, reason: "shop paused" }),
    ).toMatchObject({
      state: "dead",
    });
  });

  it("retryJobs revives every dead job of one shop only", async () => {
    const now = fakeClock().now();
    for (const [key, shop] of [
      ["a1", "a"],
      ["a2", "a"],
      ["b1", "b"],
    ] as const) {
      await enqueueJob(t.prisma, { kind: "k", key, shop, maxAttempts: 1 });
    }
    for (let job; (job = await claimNextJob(t.prisma, { owner: "w", leaseMs: LEASE_MS, now }));) {
      await failJob(t.prisma, job, "w", new Error("down"), { now });
    }
    expect(await countJobsByState(t.prisma, { shop: "a" })).toEqual({
      pending: 0,
      running: 0,
      done: 0,
      failed: 0,
      dead: 2,
    });

    expect(await retryJobs(t.prisma, { shop: "a", state: "dead", now })).toBe(2);

    expect(await countJobsByState(t.prisma, { shop: "a" })).toMatchObject({ pending: 2, dead: 0 });
    expect(await countJobsByState(t.prisma)).toMatchObject({ pending: 2, dead: 1 });
  });

  it("extends a held lease", async () => {
    const clock = fakeClock();
    await enqueueJob(t.prisma, { kind: "k", key: "k:1" });
    const job = await claimNextJob(t.prisma, { owner: "w", leaseMs: 1000, now: clock.now() });
    clock.advance(900);
    expect(await extendLease(t.prisma, job!, "w", { leaseMs: 1000, now: clock.now() })).toBe(true);
    clock.advance(900);
    expect(await claimNextJob(t.prisma, { owner: "w2", leaseMs: 1000, now: clock.now() })).toBeNull();
  });
});

describe("listJobs", () => {
  it("pages newest first with a cursor, filtered by shop and state", async () => {
    for (let i = 0; i < 5; i++) {
      await enqueueJob(t.prisma, { kind: "k", key: `k:${i}`, shop: "s" });
      await new Promise((r) => setTimeout(r, 2)); // distinct createdAt
    }
    await enqueueJob(t.prisma, { kind: "k", key: "other", shop: "other" });

    const page1 = await listJobs(t.prisma, { shop: "s", states: ["pending"], limit: 2 });
    const page2 = await listJobs(t.prisma, { shop: "s", states: ["pending"], limit: 2, cursor: page1.nextCursor! });
    const page3 = await listJobs(t.prisma, { shop: "s", states: ["pending"], limit: 2, cursor: page2.nextCursor! });

    expect([...page1.jobs, ...page2.jobs, ...page3.jobs].map((j) => j.key)).toEqual([
      "k:4",
      "k:3",
      "k:2",
      "k:1",
      "k:0",
    ]);
    expect(page3.nextCursor).toBeNull();
    expect((await listJobs(t.prisma, { shop: "s", states: ["dead"], limit: 10 })).jobs).toEqual([]);
  });
});
