/**
 * Scheduled work (status sync, retention, backfill) has one job per shop and
 * kind (its key), so it has one holder at a time: however many workers claim
 * and however often the schedule enqueues it again while it runs, a shop's
 * sync never runs twice at once, and a request made during a run is not lost
 * (it runs again right after).
 */
import type { PrismaClient } from "@prisma/client";
import { createPrismaClient } from "../../app/db/client";
import { afterAll, beforeAll, expect, it } from "vitest";
import { enqueueJob } from "../../app/queue/jobs.server";
import type { QueueDb } from "../../app/queue/types";
import { createWorker } from "../../app/queue/worker.server";
import { createTestDatabase, type TestDatabase } from "../helpers/db";
import { captureLogger, sleep } from "./helpers";
import { retentionJobFor, RETENTION_JOB, SYNC_STATUSES_JOB, syncJobFor } from "../../app/models/job-kinds";

let t: TestDatabase;
let other: PrismaClient;
beforeAll(async () => {
  t = await createTestDatabase();
  other = createPrismaClient(t.url);
});
afterAll(async () => {
  await other.$disconnect();
  await t.cleanup();
});

const SHOPS = ["a.myshopify.com", "b.myshopify.com"];

it("GIVEN two workers on two clients and a schedule that re-enqueues every 20 ms WHEN they run 1.5 s and until every shop's sync and retention has run three times THEN none ever ran twice at once, and each ran again after a request made during a run", async () => {
  const holders = new Map<string, number>();
  let overlaps = 0;
  const runs = new Map<string, number>();
  const handler = async (job: { kind: string; shop: string | null }) => {
    const slot = `${job.kind}:${job.shop}`;
    const now = (holders.get(slot) ?? 0) + 1;
    holders.set(slot, now);
    if (now > 1) overlaps++;
    runs.set(slot, (runs.get(slot) ?? 0) + 1);
    await sleep(30);
    holders.set(slot, holders.get(slot)! - 1);
  };
  const handlers = { [SYNC_STATUSES_JOB]: handler, [RETENTION_JOB]: handler };
  const workers = [t.prisma, other].map((db, i) =>
    createWorker({
      db: db as unknown as QueueDb,
      handlers,
      owner: `w${i}`,
      concurrency: 3,
      pollIntervalMs: 5,
      logger: captureLogger(),
    }),
  );
  workers.forEach((w) => w.start());

  // At least 1.5 s of contention, and on until each has run three times: a busy machine makes that
  // take longer, not fewer runs. The deadline only ends a broken queue's test.
  const ranEnough = () =>
    SHOPS.every((shop) => [SYNC_STATUSES_JOB, RETENTION_JOB].every((kind) => (runs.get(`${kind}:${shop}`) ?? 0) >= 3));
  const contended = Date.now() + 1500;
  const deadline = Date.now() + 90_000;
  while ((Date.now() < contended || !ranEnough()) && Date.now() < deadline) {
    for (const shop of SHOPS) {
      await enqueueJob(t.prisma, syncJobFor(shop, new Date()));
      await enqueueJob(t.prisma, retentionJobFor(shop, new Date()));
    }
    await sleep(20);
  }
  await Promise.all(workers.map((w) => w.stop()));

  expect(overlaps).toBe(0);
  // Each shop and kind ran many times (the schedule was never dropped)...
  for (const shop of SHOPS) {
    expect(runs.get(`${SYNC_STATUSES_JOB}:${shop}`)).toBeGreaterThanOrEqual(3);
    expect(runs.get(`${RETENTION_JOB}:${shop}`)).toBeGreaterThanOrEqual(3);
  }
  // ...through one job row each.
  expect(await t.prisma.job.count()).toBe(2 * SHOPS.length);
}, 120_000);
