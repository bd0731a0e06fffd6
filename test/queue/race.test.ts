/**
 * Two workers, each on its own Prisma client (own connections, as two
 * processes would have), race over one database.
 */
import type { PrismaClient } from "@prisma/client";
import { afterAll, beforeAll, expect, it } from "vitest";
import { enqueueJob } from "../../app/queue/jobs.server";
import type { JobHandlers } from "../../app/queue/types";
import { createWorker } from "../../app/queue/worker.server";
import { createPrismaClient } from "../../app/db/client";
import { createTestDatabase, type TestDatabase } from "../helpers/db";
import { captureLogger, sleep } from "./helpers";

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

const JOBS = 200;

it("GIVEN 200 jobs and two workers on two clients WHEN both run THEN every job runs exactly once, never twice at the same time", async () => {
  for (let i = 0; i < JOBS; i++) await enqueueJob(t.prisma, { kind: "k", key: `k:${i}`, payload: { i } });

  const invocations = new Map<string, number>();
  const running = new Set<string>();
  const overlaps: string[] = [];
  const ranBy = { a: 0, b: 0 };
  const handlersFor = (name: "a" | "b"): JobHandlers => ({
    k: async (job) => {
      if (running.has(job.key)) overlaps.push(job.key);
      running.add(job.key);
      invocations.set(job.key, (invocations.get(job.key) ?? 0) + 1);
      ranBy[name]++;
      await sleep(Math.random() * 3);
      running.delete(job.key);
    },
  });
  const logA = captureLogger();
  const logB = captureLogger();
  const a = createWorker({
    db: t.prisma,
    handlers: handlersFor("a"),
    owner: "a",
    concurrency: 2,
    pollIntervalMs: 5,
    logger: logA,
  });
  const b = createWorker({
    db: other,
    handlers: handlersFor("b"),
    owner: "b",
    concurrency: 2,
    pollIntervalMs: 5,
    logger: logB,
  });

  a.start();
  b.start();
  const deadline = Date.now() + 30_000;
  while ((await t.prisma.job.count({ where: { state: "done" } })) < JOBS && Date.now() < deadline) await sleep(50);
  await Promise.all([a.stop(), b.stop()]);

  expect(overlaps).toEqual([]);
  expect(invocations.size).toBe(JOBS);
  expect([...invocations.values()].every((n) => n === 1)).toBe(true);
  expect(await t.prisma.job.count({ where: { state: "done", attempts: 1 } })).toBe(JOBS);
  // Both took part, and no outcome was lost to a busy database.
  expect(ranBy.a).toBeGreaterThan(0);
  expect(ranBy.b).toBeGreaterThan(0);
  const problems = [...logA.lines, ...logB.lines].filter((l) => !l.startsWith("info "));
  expect(problems).toEqual([]);
});

it("GIVEN two clients enqueueing the same new keys at once THEN each key ends as one job, without errors", async () => {
  await t.prisma.job.deleteMany();
  const keys = Array.from({ length: 30 }, (_, i) => `dup:${i}`);

  const outcomes = await Promise.all(
    keys.flatMap((key) => [
      enqueueJob(t.prisma, { kind: "k", key, payload: { from: "a" } }),
      enqueueJob(other, { kind: "k", key, payload: { from: "b" } }),
    ]),
  );

  expect(await t.prisma.job.count()).toBe(keys.length);
  expect(outcomes.filter((o) => o.outcome === "created")).toHaveLength(keys.length);
});
