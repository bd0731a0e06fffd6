/**
 * Wake-ups: an idle worker whose poll is an hour away still runs new work as
 * soon as it is committed (PostgreSQL's notification), later work at its runAt
 * (a timer), and nothing that was rolled back.
 */
import { afterAll, beforeAll, beforeEach, expect, it, vi } from "vitest";
import { enqueueJob } from "../../app/queue/jobs.server";
import type { ClaimedJob } from "../../app/queue/types";
import { createWorker, type Worker } from "../../app/queue/worker.server";
import { sqlOf, type Sql, type SqlStatement } from "../../app/db/sql";
import { createTestDatabase, type TestDatabase } from "../helpers/db";
import { captureLogger, sleep } from "./helpers";

let t: TestDatabase;
let worker: Worker | undefined;
const ran: { key: string; atMs: number }[] = [];
/** The worker's looks for work: its first, then one when its wake-up connection is listening. */
let looks = 0;
beforeAll(async () => {
  t = await createTestDatabase();
});
afterAll(async () => {
  await worker?.stop();
  await t.cleanup();
});
beforeEach(async () => {
  await worker?.stop();
  ran.length = 0;
  looks = 0;
  await t.prisma.job.deleteMany();
  await t.prisma.queueTurn.deleteMany();
});

const HOUR_MS = 3_600_000;

/** An idle worker that would not look for work on its own for an hour. */
async function idleWorker(): Promise<Worker> {
  worker = createWorker({
    db: t.prisma,
    pollIntervalMs: HOUR_MS,
    logger: captureLogger(),
    handlers: { note: async (job: ClaimedJob) => void ran.push({ key: job.key, atMs: Date.now() }) },
    observer: { polled: () => void looks++ },
  });
  worker.start();
  // Its first look finds nothing; the second comes once it LISTENs (a reconnect wakes it, as anything may
  // have been missed). From then on only a notification (or the hour's poll) makes it look again, so
  // what runs next was woken by the notification, not found by a look already under way.
  await until(() => looks >= 2);
  return worker;
}

async function until(check: () => boolean, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error("timed out");
    await sleep(20);
  }
}

it("GIVEN an idle worker WHEN a job is enqueued in a committed transaction THEN it runs without waiting for a poll", async () => {
  await idleWorker();

  await t.prisma.$transaction((tx) => enqueueJob(tx, { kind: "note", key: "now", shop: "a.myshopify.com" }));

  await until(() => ran.length === 1);
  expect(ran.map((r) => r.key)).toEqual(["now"]);
});

it("GIVEN an idle worker WHEN the enqueueing transaction rolls back THEN nothing runs, and the next committed job does", async () => {
  await idleWorker();

  await expect(
    t.prisma.$transaction(async (tx) => {
      await enqueueJob(tx, { kind: "note", key: "rolled-back", shop: "a.myshopify.com" });
      throw new Error("the order was not stored");
    }),
  ).rejects.toThrow("the order was not stored");
  const looksBefore = looks;
  await sleep(500);
  // A notification is sent on commit only: the rolled-back job woke no one.
  expect(looks).toBe(looksBefore);
  await enqueueJob(t.prisma, { kind: "note", key: "committed", shop: "a.myshopify.com" });

  await until(() => ran.length === 1);
  await sleep(300);
  expect(ran.map((r) => r.key)).toEqual(["committed"]);
});

it("GIVEN an idle worker WHEN a job is enqueued to run 1.5 s later THEN it runs at its runAt, not before", async () => {
  await idleWorker();
  const runAt = new Date(Date.now() + 1_500);

  await enqueueJob(t.prisma, { kind: "note", key: "later", shop: "a.myshopify.com", runAt });

  await until(() => ran.length === 1);
  expect(ran[0].atMs).toBeGreaterThanOrEqual(runAt.getTime());
});

it("GIVEN a job whose worker died holding its lease WHEN the lease expires THEN an idle worker on the default poll serves it, though no notification comes", async () => {
  worker = createWorker({
    db: t.prisma,
    logger: captureLogger(),
    handlers: { note: async (job: ClaimedJob) => void ran.push({ key: job.key, atMs: Date.now() }) },
    observer: { polled: () => void looks++ },
  });
  worker.start();
  await until(() => looks >= 2);
  // Leased by a worker that is gone: a running job sends no wake-up, and its lease ends a second from now.
  const expiresAt = new Date(Date.now() + 1_000);
  await t.prisma.$transaction(async (tx) => {
    await enqueueJob(tx, { kind: "note", key: "orphaned", shop: "a.myshopify.com" });
    await tx.job.updateMany({
      where: { key: "orphaned" },
      data: { state: "running", leaseOwner: "dead-worker", leaseExpiresAt: expiresAt, attempts: 1 },
    });
  });

  await until(() => ran.length === 1);
  expect(ran[0]).toMatchObject({ key: "orphaned" });
  expect(ran[0].atMs).toBeGreaterThanOrEqual(expiresAt.getTime());
});

/** Counts the claim's statements (the lease of a due job, found or not) on the test database's driver. */
function countClaims(): { count: () => number; restore: () => void } {
  let claims = 0;
  const driver = sqlOf(t.prisma);
  const all = driver.all.bind(driver);
  const spy = vi.spyOn(driver, "all").mockImplementation(((statement: SqlStatement, params?: readonly unknown[]) => {
    if (/SET "state" = 'running'/.test(statement.text)) claims++;
    return all(statement, params);
  }) as Sql["all"]);
  return { count: () => claims, restore: () => spy.mockRestore() };
}

it("GIVEN an idle worker WHEN jobs come one at a time THEN each is claimed once, with no second look for work once it ends (its claim saw nothing else)", async () => {
  await idleWorker();
  await enqueueJob(t.prisma, { kind: "note", key: "warm-up", shop: "a.myshopify.com" });
  await until(() => ran.length === 1);
  await sleep(200);
  const claims = countClaims();
  try {
    for (let i = 0; i < 5; i++) {
      await enqueueJob(t.prisma, { kind: "note", key: `one-at-a-time:${i}`, shop: "a.myshopify.com" });
      await until(() => ran.length === 2 + i);
      await sleep(200);
    }
    expect(claims.count()).toBe(5);
  } finally {
    claims.restore();
  }
});

it("GIVEN a kind capped at one running job and a poll an hour away WHEN three are enqueued together THEN each runs as the one before it ends, never two at once", async () => {
  let running = 0;
  let most = 0;
  worker = createWorker({
    db: t.prisma,
    pollIntervalMs: HOUR_MS,
    concurrency: 2,
    maxRunningPerShop: 1,
    logger: captureLogger(),
    handlers: {
      slow: async (job: ClaimedJob) => {
        most = Math.max(most, ++running);
        await sleep(150);
        running--;
        ran.push({ key: job.key, atMs: Date.now() });
      },
    },
    observer: { polled: () => void looks++ },
  });
  worker.start();
  await until(() => looks >= 3);

  await t.prisma.$transaction(async (tx) => {
    for (let i = 0; i < 3; i++) await enqueueJob(tx, { kind: "slow", key: `capped:${i}`, shop: "a.myshopify.com" });
  });

  await until(() => ran.length === 3);
  expect(ran.map((r) => r.key)).toEqual(["capped:0", "capped:1", "capped:2"]);
  expect(most).toBe(1);
});
