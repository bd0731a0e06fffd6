/**
 * Batch handlers: a shop's due jobs of one kind run together (one claim, one
 * commit), and each job still ends as it would alone: done, postponed, retried,
 * dead, or run again when re-enqueued meanwhile.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { PermanentJobError, RetryLaterError } from "../../app/queue/errors";
import { enqueueJob } from "../../app/queue/jobs.server";
import type { BatchJobHandler, ClaimedJob } from "../../app/queue/types";
import { createWorker } from "../../app/queue/worker.server";
import { sqlDatabaseOf } from "../../app/db/sql";
import { createTestDatabase, type TestDatabase } from "../helpers/db";
import { captureLogger, deferred, fakeClock } from "./helpers";

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

/** A batch handler that records its batches and answers each job as `answer` says (undefined: done, in one commit). */
function batchHandler(size: number, answer: (job: ClaimedJob) => unknown = () => undefined) {
  const batches: string[][] = [];
  const handler: BatchJobHandler = {
    size,
    async run(jobs, ctx) {
      batches.push(jobs.map((j) => j.key));
      const failures = new Map<string, unknown>();
      for (const job of jobs) {
        const error = answer(job);
        if (error !== undefined) failures.set(job.id, error);
      }
      const done = jobs.filter((j) => !failures.has(j.id));
      await sqlDatabaseOf(t.prisma).transaction((tx) => ctx.completeIn(tx, done));
      return failures;
    },
  };
  return { handler, batches };
}

function setup(handlers: Record<string, BatchJobHandler>) {
  const clock = fakeClock();
  const logger = captureLogger();
  const worker = createWorker({ db: t.prisma, handlers, owner: "w1", now: clock.now, logger, pollIntervalMs: 10 });
  return { clock, logger, worker };
}

describe("batch handlers", () => {
  it("GIVEN due jobs of two shops WHEN one is claimed THEN its shop's due jobs of that kind run with it, oldest first, up to the size", async () => {
    const { handler, batches } = batchHandler(3);
    const { worker, clock, logger } = setup({ "write-back": handler });
    const base = clock.now().getTime() - 10_000;
    for (let i = 0; i < 5; i++)
      await enqueueJob(t.prisma, { kind: "write-back", key: `wb:a:${i}`, shop: "a", runAt: new Date(base + i) });
    await enqueueJob(t.prisma, { kind: "write-back", key: "wb:b:0", shop: "b", runAt: new Date(base + 2) });
    await enqueueJob(t.prisma, {
      kind: "write-back",
      key: "wb:a:later",
      shop: "a",
      runAt: new Date(clock.now().getTime() + 60_000),
    });
    await enqueueJob(t.prisma, { kind: "other", key: "other:a", shop: "a", runAt: new Date(base) });

    while (await worker.runOnce()) {
      // until nothing is due
    }

    const ofA = batches.filter((b) => b[0].startsWith("wb:a"));
    expect(ofA).toEqual([
      ["wb:a:0", "wb:a:1", "wb:a:2"],
      ["wb:a:3", "wb:a:4"],
    ]);
    expect(batches).toContainEqual(["wb:b:0"]);
    for (const key of ["wb:a:0", "wb:a:4", "wb:b:0"])
      expect(await row(key)).toMatchObject({ state: "done", leaseOwner: null, attempts: 1 });
    expect(await row("wb:a:later")).toMatchObject({ state: "pending", attempts: 0 });
    // A kind without a handler is not swept into a batch: it goes dead on its own.
    expect(await row("other:a")).toMatchObject({ state: "dead" });
    // One line a batch for the jobs it completed.
    const lines = logger.lines.filter((l) => l.startsWith("info "));
    expect(lines).toHaveLength(3);
    for (const line of lines) expect(line).toMatch(/^info batch of [123] write-back job\(s\) completed after \d+ ms$/);
    expect(lines.map((l) => /batch of (\d)/.exec(l)?.[1]).sort()).toEqual(["1", "2", "3"]);
  });

  it("GIVEN one job postponed, one refused and one failing in a batch THEN each ends as it would alone and the others are done", async () => {
    const { clock } = setup({});
    const later = new Date(clock.now().getTime() + 30_000);
    const { handler } = batchHandler(10, (job) => {
      if (job.key.endsWith(":wait"))
        return new RetryLaterError(later, { countAttempt: false, reason: "Shopify API points" });
      if (job.key.endsWith(":refused")) return new PermanentJobError("order not found");
      if (job.key.endsWith(":flaky")) return new Error("Shopify answered 502");
      return undefined;
    });
    const worker = createWorker({
      db: t.prisma,
      handlers: { "write-back": handler },
      owner: "w1",
      now: clock.now,
      logger: captureLogger(),
      backoff: { baseMs: 1000, random: () => 0.5 },
    });
    for (const name of ["ok", "wait", "refused", "flaky"])
      await enqueueJob(t.prisma, { kind: "write-back", key: `wb:a:${name}`, shop: "a" });

    expect(await worker.runOnce()).toBe(true);

    expect(await row("wb:a:ok")).toMatchObject({ state: "done", attempts: 1 });
    expect(await row("wb:a:wait")).toMatchObject({ state: "pending", attempts: 0, runAt: later });
    expect(await row("wb:a:refused")).toMatchObject({ state: "dead", lastError: "order not found" });
    expect(await row("wb:a:flaky")).toMatchObject({ state: "failed", attempts: 1, lastError: "Shopify answered 502" });
  });

  it("GIVEN the batch handler throws THEN every job of the batch is retried", async () => {
    const handler: BatchJobHandler = {
      size: 10,
      run: async () => {
        throw new Error("database is locked");
      },
    };
    const { worker } = setup({ "write-back": handler });
    for (let i = 0; i < 3; i++) await enqueueJob(t.prisma, { kind: "write-back", key: `wb:a:${i}`, shop: "a" });

    await worker.runOnce();

    for (let i = 0; i < 3; i++)
      expect(await row(`wb:a:${i}`)).toMatchObject({ state: "failed", attempts: 1, lastError: "database is locked" });
  });

  it("GIVEN a job of the batch is re-enqueued while it runs THEN it is not completed and runs again with the new payload", async () => {
    const release = deferred();
    const payloads: unknown[] = [];
    const handler: BatchJobHandler = {
      size: 10,
      async run(jobs, ctx) {
        for (const job of jobs) payloads.push(job.payload);
        await release.promise;
        const done = await sqlDatabaseOf(t.prisma).transaction((tx) => ctx.completeIn(tx, jobs));
        expect(done.size).toBe(1);
        return new Map();
      },
    };
    const { worker } = setup({ "write-back": handler });
    await enqueueJob(t.prisma, { kind: "write-back", key: "wb:a:0", shop: "a", payload: { v: 1 } });
    await enqueueJob(t.prisma, { kind: "write-back", key: "wb:a:1", shop: "a", payload: { v: 1 } });

    const first = worker.runOnce();
    await expect.poll(() => payloads.length).toBe(2);
    await enqueueJob(t.prisma, { kind: "write-back", key: "wb:a:1", shop: "a", payload: { v: 2 } });
    release.resolve();
    await first;

    expect(await row("wb:a:0")).toMatchObject({ state: "done" });
    expect(await row("wb:a:1")).toMatchObject({ state: "pending", attempts: 0 });
    await worker.runOnce();
    expect(payloads.at(-1)).toEqual({ v: 2 });
    expect(await row("wb:a:1")).toMatchObject({ state: "done" });
  });
});
