import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { PermanentJobError, RetryLaterError } from "../../app/queue/errors";
import { claimNextJob, enqueueJob } from "../../app/queue/jobs.server";
import type { ClaimedJob, JobHandlers } from "../../app/queue/types";
import { createWorker, type WorkerOptions } from "../../app/queue/worker.server";
import { createTestDatabase, type TestDatabase } from "../helpers/db";
import { captureLogger, deferred, fakeClock, sleep } from "./helpers";

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

const row = (key: string) => t.prisma.job.findUniqueOrThrow({ where: { key } });

function setup(handlers: JobHandlers, options: Partial<WorkerOptions> = {}) {
  const clock = fakeClock();
  const logger = captureLogger();
  const worker = createWorker({
    db: t.prisma,
    handlers,
    owner: "w1",
    now: clock.now,
    logger,
    pollIntervalMs: 10,
    ...options,
  });
  return { clock, logger, worker };
}

async function waitFor(condition: () => Promise<boolean>, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error("condition not met in time");
    await sleep(10);
  }
}

describe("running a job", () => {
  it("GIVEN a due job WHEN runOnce THEN its handler gets the payload and the job is done", async () => {
    const seen: ClaimedJob[] = [];
    const { worker, logger } = setup({ "post-lead": async (job) => void seen.push(job) });
    await enqueueJob(t.prisma, { kind: "post-lead", key: "post-lead:shop:123", payload: { orderId: "123" } });

    expect(await worker.runOnce()).toBe(true);
    expect(await worker.runOnce()).toBe(false);

    expect(seen).toHaveLength(1);
    expect(seen[0]).toMatchObject({ key: "post-lead:shop:123", payload: { orderId: "123" }, attempts: 1 });
    expect(await row("post-lead:shop:123")).toMatchObject({ state: "done", leaseOwner: null, lastError: null });
    expect(logger.lines).toEqual([
      expect.stringMatching(/^info job post-lead:shop:123 attempt 1 of 10 completed after \d+ ms$/),
    ]);
  });

  it("GIVEN a handler that keeps failing THEN it is retried with backoff until maxAttempts, then dead", async () => {
    let calls = 0;
    const { worker, logger, clock } = setup(
      { "post-lead": async () => Promise.reject(new Error(`platform answered 503 (call ${++calls})`)) },
      { backoff: { baseMs: 1000, random: () => 0.5 } },
    );
    await enqueueJob(t.prisma, { kind: "post-lead", key: "post-lead:shop:123", maxAttempts: 3 });

    await worker.runOnce();
    expect(await row("post-lead:shop:123")).toMatchObject({ state: "failed", attempts: 1 });
    expect(await worker.runOnce()).toBe(false); // backoff not elapsed
    clock.advance(500);
    await worker.runOnce();
    clock.advance(1000);
    await worker.runOnce();

    expect(calls).toBe(3);
    expect(await row("post-lead:shop:123")).toMatchObject({
      state: "dead",
      attempts: 3,
      lastError: "platform answered 503 (call 3)",
    });
    expect(logger.lines[0]).toBe(
      `warn job post-lead:shop:123 attempt 1 of 3 failed: platform answered 503 (call 1); retry at ${new Date(clock.now().getTime() - 1500 + 500).toISOString()}`,
    );
    expect(logger.lines[2]).toBe(
      "error job post-lead:shop:123 attempt 3 of 3 failed: platform answered 503 (call 3); dead, no attempt left",
    );
  });

  it("GIVEN RetryLaterError without counting THEN the job waits until the given time and keeps its attempts", async () => {
    let calls = 0;
    const { worker, clock, logger } = setup({
      "post-lead": async () => {
        if (++calls <= 3) throw new RetryLaterError(30_000, { countAttempt: false, reason: "rate limited (429)" });
      },
    });
    await enqueueJob(t.prisma, { kind: "post-lead", key: "k", maxAttempts: 2 });

    for (let i = 0; i < 3; i++) {
      expect(await worker.runOnce()).toBe(true);
      expect(await worker.runOnce()).toBe(false);
      clock.advance(30_000);
    }
    await worker.runOnce();

    expect(calls).toBe(4);
    expect(await row("k")).toMatchObject({ state: "done", attempts: 1 });
    expect(logger.lines[0]).toMatch(
      /^info job k attempt 1 of 2 postponed: rate limited \(429\) \(attempt not counted\); runs again at /,
    );
  });

  it("GIVEN PermanentJobError THEN the job is dead after one attempt", async () => {
    let calls = 0;
    const { worker } = setup({
      "post-lead": async () => {
        calls++;
        throw new PermanentJobError("city is not delivered");
      },
    });
    await enqueueJob(t.prisma, { kind: "post-lead", key: "k" });

    await worker.drain({ timeoutMs: 60_000 });

    expect(calls).toBe(1);
    expect(await row("k")).toMatchObject({ state: "dead", attempts: 1, lastError: "city is not delivered" });
  });

  it("GIVEN a kind without handler THEN the job is dead with a clear error", async () => {
    const { worker, logger } = setup({});
    await enqueueJob(t.prisma, { kind: "mystery", key: "mystery:1" });

    await worker.runOnce();

    expect(await row("mystery:1")).toMatchObject({
      state: "dead",
      lastError: 'no handler registered for job kind "mystery"',
    });
    expect(logger.lines).toEqual([
      'error job mystery:1 attempt 1 of 10 failed: no handler registered for job kind "mystery"; dead, no attempt left',
    ]);
  });

  it("GIVEN a re-enqueue while the handler runs THEN the handler runs again with the new payload", async () => {
    const payloads: unknown[] = [];
    const gate = deferred();
    const { worker } = setup({
      k: async (job) => {
        payloads.push(job.payload);
        if (payloads.length === 1) await gate.promise;
      },
    });
    await enqueueJob(t.prisma, { kind: "k", key: "k:1", payload: { v: 1 } });

    const first = worker.runOnce();
    await waitFor(async () => payloads.length === 1);
    expect((await enqueueJob(t.prisma, { kind: "k", key: "k:1", payload: { v: 2 } })).outcome).toBe("rerun");
    gate.resolve();
    await first;
    await worker.drain({ timeoutMs: 60_000 });

    expect(payloads).toEqual([{ v: 1 }, { v: 2 }]);
    expect(await row("k:1")).toMatchObject({ state: "done", rerun: false });
  });

  it("GIVEN a worker that crashed holding a job WHEN the lease expires THEN another worker runs it", async () => {
    let calls = 0;
    const { worker, clock } = setup({ k: async () => void calls++ }, { leaseMs: 5000 });
    await enqueueJob(t.prisma, { kind: "k", key: "k:1" });
    await claimNextJob(t.prisma, { owner: "crashed-process", leaseMs: 5000, now: clock.now() });

    expect(await worker.runOnce()).toBe(false);
    clock.advance(5001);
    expect(await worker.runOnce()).toBe(true);

    expect(calls).toBe(1);
    expect(await row("k:1")).toMatchObject({ state: "done", attempts: 2 });
  });
});

describe("leases while a handler runs (real time)", () => {
  it("renews the lease every half lease, so a long handler is not taken by another worker", async () => {
    // A lease long enough that a busy machine's late statement does not miss a renewal; the handler
    // outlives two and a half of them and five tries by the other worker, however slow each try.
    const LEASE_MS = 4_000;
    let calls = 0;
    const stolen: boolean[] = [];
    const handlers: JobHandlers = {
      slow: async () => {
        calls++;
        const started = Date.now();
        while (Date.now() - started < 2.5 * LEASE_MS || stolen.length < 5) await sleep(50);
      },
    };
    const a = createWorker({ db: t.prisma, handlers, owner: "a", leaseMs: LEASE_MS, logger: captureLogger() });
    const b = createWorker({ db: t.prisma, handlers, owner: "b", leaseMs: LEASE_MS, logger: captureLogger() });
    await enqueueJob(t.prisma, { kind: "slow", key: "slow:1" });

    const running = a.runOnce();
    await waitFor(async () => calls === 1);
    while (calls === 1 && (await row("slow:1")).state === "running") {
      stolen.push(await b.runOnce());
      await sleep(50);
    }
    await running;

    expect(stolen.length).toBeGreaterThanOrEqual(5);
    expect(stolen.every((s) => s === false)).toBe(true);
    expect(calls).toBe(1);
    expect(await row("slow:1")).toMatchObject({ state: "done", attempts: 1 });
  }, 120_000);

  it("GIVEN the lease was taken over WHEN the heartbeat notices THEN the handler is aborted and its outcome discarded", async () => {
    const logger = captureLogger();
    let abortReason: unknown;
    const worker = createWorker({
      db: t.prisma,
      owner: "a",
      leaseMs: 200,
      logger,
      handlers: {
        k: (_job, { signal }) =>
          new Promise<void>((_resolve, reject) =>
            signal.addEventListener("abort", () => {
              abortReason = signal.reason;
              reject(new Error("aborted"));
            }),
          ),
      },
    });
    await enqueueJob(t.prisma, { kind: "k", key: "k:1" });

    const running = worker.runOnce();
    await waitFor(async () => (await row("k:1")).state === "running");
    await t.prisma.job.update({ where: { key: "k:1" }, data: { leaseOwner: "thief" } });
    await running;

    expect(abortReason).toMatchObject({ name: "LeaseLostError" });
    expect(await row("k:1")).toMatchObject({ state: "running", leaseOwner: "thief", lastError: null });
    expect(logger.lines.some((l) => /^warn job k:1 attempt 1 of 10: lease lost after \d+ ms/.test(l))).toBe(true);
  });
});

describe("start and stop", () => {
  it("runs jobs in the background with the given concurrency", async () => {
    let inFlight = 0;
    let maxInFlight = 0;
    const { worker } = setup(
      {
        // Each job holds its slot until another runs beside it (or 10 s, if none ever does): the overlap is
        // awaited, not hoped for within a sleep.
        k: async () => {
          maxInFlight = Math.max(maxInFlight, ++inFlight);
          const until = Date.now() + 10_000;
          while (maxInFlight < 2 && Date.now() < until) await sleep(10);
          inFlight--;
        },
      },
      { concurrency: 3, now: () => new Date() },
    );
    for (let i = 0; i < 12; i++) await enqueueJob(t.prisma, { kind: "k", key: `k:${i}` });

    worker.start();
    worker.start(); // idempotent
    await waitFor(async () => (await t.prisma.job.count({ where: { state: "done" } })) === 12);
    await worker.stop();

    expect(maxInFlight).toBeGreaterThan(1);
    expect(maxInFlight).toBeLessThanOrEqual(3);
  });

  it("GIVEN a running handler WHEN stop() THEN it waits for the handler to finish and claims nothing more", async () => {
    const gate = deferred();
    let calls = 0;
    const { worker } = setup(
      {
        k: async () => {
          calls++;
          await gate.promise;
        },
      },
      { now: () => new Date() },
    );
    await enqueueJob(t.prisma, { kind: "k", key: "k:1" });
    await enqueueJob(t.prisma, { kind: "k", key: "k:2", runAt: new Date(Date.now() - 60_000) });

    worker.start();
    await waitFor(async () => calls === 1);
    let stopped = false;
    const stopping = worker.stop().then(() => (stopped = true));
    await sleep(100);
    expect(stopped).toBe(false);

    gate.resolve();
    await stopping;

    expect(calls).toBe(1);
    expect(await row("k:2")).toMatchObject({ state: "done" });
    expect(await row("k:1")).toMatchObject({ state: "pending" });
  });

  it("GIVEN a handler that outlives stopTimeoutMs THEN stop() aborts it and the job is put back without losing an attempt", async () => {
    const { worker, logger } = setup(
      {
        k: (_job, { signal }) =>
          new Promise<void>((_resolve, reject) => signal.addEventListener("abort", () => reject(new Error("aborted")))),
      },
      { now: () => new Date(), stopTimeoutMs: 100 },
    );
    await enqueueJob(t.prisma, { kind: "k", key: "k:1" });

    worker.start();
    await waitFor(async () => (await row("k:1")).state === "running");
    await worker.stop();

    expect(await row("k:1")).toMatchObject({
      state: "pending",
      attempts: 0,
      lastError: "interrupted: worker stopped",
      leaseOwner: null,
    });
    expect(logger.lines.some((l) => l.includes("still running after 100 ms; aborting"))).toBe(true);
  });

  it("drain() gives up with DrainTimeoutError when jobs keep coming", async () => {
    const { worker } = setup({
      k: async (job) => {
        await sleep(5);
        await enqueueJob(t.prisma, { kind: "k", key: `k:${Number(job.key.slice(2)) + 1}` });
      },
    });
    await enqueueJob(t.prisma, { kind: "k", key: "k:0" });

    await expect(worker.drain({ timeoutMs: 200 })).rejects.toMatchObject({ name: "DrainTimeoutError" });
  });
});
