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

it("GIVEN two workers on two clients and a schedule that re-enqueues every 20 ms WHEN they run for 1.5 s THEN no shop's sync or retention ever runs twice at once, and each runs again after a request made during a run", async () => {
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

  const until = Date.now() + 1500;
  while (Date.now() < until) {
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
    expect(runs.get(`${SYNC_STATUSES_JOB}:${shop}`)).toBeGreaterThanOrEqual(2);
    expect(runs.get(`${RETENTION_JOB}:${shop}`)).toBeGreaterThanOrEqual(2);
  }
  // ...through one job row each.
  expect(await t.prisma.job.count()).toBe(2 * SHOPS.length);
}, 30_000);
