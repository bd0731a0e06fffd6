/**
 * The graphile-worker candidate (scripts/dev/queue-candidates/graphile-worker):
 * graphile claims through the Job table's trigger, our worker leases the row by
 * id, runs the handler and settles it as our own worker does.
 */
import { afterAll, beforeAll, beforeEach, expect, it } from "vitest";
import { PermanentJobError, RetryLaterError } from "../../app/queue/errors";
import { enqueueJob } from "../../app/queue/jobs.server";
import type { ClaimedJob, JobHandlers } from "../../app/queue/types";
import { installGraphileCandidate } from "../../scripts/dev/queue-candidates/graphile-worker/install";
import { startGraphileRunner, type GraphileRunner } from "../../scripts/dev/queue-candidates/graphile-worker/runner";
import { createTestDatabase, type TestDatabase } from "../helpers/db";
import { captureLogger, deferred, sleep } from "./helpers";

let t: TestDatabase;
let runner: GraphileRunner | undefined;
/** Each attempt a handler started: the job's key and its attempt number. */
const runs: { key: string; attempt: number }[] = [];

beforeAll(async () => {
  t = await createTestDatabase();
  await installGraphileCandidate(t.url, "shop-kind-2");
});
afterAll(async () => {
  await runner?.stop();
  await t.cleanup();
});
beforeEach(() => {
  runs.length = 0;
});

const record = (job: ClaimedJob) => void runs.push({ key: job.key, attempt: job.attempts });
const row = (key: string) => t.prisma.job.findUniqueOrThrow({ where: { key } });
const runsOf = (key: string) => runs.filter((r) => r.key === key);

async function start(handlers: JobHandlers): Promise<GraphileRunner> {
  runner = await startGraphileRunner({
    connectionString: t.url,
    concurrency: 2,
    // The postponed job's run_at comes within a poll.
    pollIntervalMs: 100,
    db: t.prisma,
    handlers,
    logger: captureLogger(),
  });
  return runner;
}

async function until(check: () => Promise<boolean>, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error("condition not met in time");
    await sleep(25);
  }
}

/** graphile's jobs still waiting or running. */
const graphileJobs = async () =>
  Number(
    (await t.prisma.$queryRawUnsafe<{ n: bigint }[]>(`SELECT COUNT(*) AS n FROM graphile_worker._private_jobs`))[0].n,
  );

it("GIVEN the candidate runner WHEN jobs are enqueued THEN each runs once, a RetryLaterError waits without spending an attempt and a PermanentJobError buries its job", async () => {
  let postponed = false;
  await start({
    once: async (job) => record(job),
    later: async (job) => {
      record(job);
      if (!postponed) {
        postponed = true;
        throw new RetryLaterError(300, { countAttempt: false, reason: "the key's next slot" });
      }
    },
    doomed: async (job) => {
      record(job);
      throw new PermanentJobError("refused for good");
    },
  });
  await enqueueJob(t.prisma, { kind: "once", key: "once:1", shop: "a.myshopify.com" });
  await enqueueJob(t.prisma, { kind: "later", key: "later:1", shop: "a.myshopify.com" });
  await enqueueJob(t.prisma, { kind: "doomed", key: "doomed:1", shop: "b.myshopify.com" });

  await until(async () => (await row("later:1")).state === "done" && (await row("doomed:1")).state === "dead");
  await until(async () => (await row("once:1")).state === "done");
  await until(async () => (await graphileJobs()) === 0);
  await sleep(300); // a second run would have started by now
  expect(runsOf("once:1")).toEqual([{ key: "once:1", attempt: 1 }]);
  // Postponed, then run again as the same attempt: the wait was not counted.
  expect(runsOf("later:1")).toEqual([
    { key: "later:1", attempt: 1 },
    { key: "later:1", attempt: 1 },
  ]);
  expect((await row("later:1")).attempts).toBe(1);
  expect(runsOf("doomed:1")).toHaveLength(1);
  expect(await row("doomed:1")).toMatchObject({ state: "dead", lastError: "refused for good", attempts: 1 });
  await runner!.stop();
  runner = undefined;
});

it("GIVEN jobs running and waiting WHEN the candidate stops gracefully and a new one starts THEN every job runs exactly once", async () => {
  const held = deferred();
  const started = deferred();
  const handlers: JobHandlers = {
    slow: async (job) => {
      record(job);
      started.resolve();
      await held.promise;
    },
    quick: async (job) => record(job),
  };
  const first = await start(handlers);
  await enqueueJob(t.prisma, { kind: "slow", key: "slow:1", shop: "c.myshopify.com" });
  await started.promise;
  for (let i = 0; i < 6; i++) await enqueueJob(t.prisma, { kind: "quick", key: `quick:${i}`, shop: "d.myshopify.com" });
  // Stopping waits for the running job; let it finish meanwhile.
  const stopping = first.stop();
  held.resolve();
  await stopping;
  await start(handlers);
  const keys = ["slow:1", ...Array.from({ length: 6 }, (_, i) => `quick:${i}`)];
  await until(async () => (await t.prisma.job.count({ where: { key: { in: keys }, state: "done" } })) === keys.length);
  await until(async () => (await graphileJobs()) === 0);
  await sleep(300);
  for (const key of keys) expect(runsOf(key), key).toHaveLength(1);
});
