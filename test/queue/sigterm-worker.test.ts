/**
 * SIGTERM drains a real `npm run worker` process (build/worker.js) mid-job:
 * it stops claiming, lets the running post finish and exits 0; past its stop
 * timeout it gives the job back (pending, attempt not counted) instead of
 * leaving it leased until the lease expires.
 */
import { spawn } from "node:child_process";
import { afterAll, beforeAll, beforeEach, expect, it } from "vitest";
import { startSandbox, sandboxControl, type RunningSandbox } from "../../sandbox/index";
import { connectShop, SHOP } from "../../scripts/dev/lib/connected-shop";
import { webhookOrder } from "../../scripts/dev/lib/order-payloads";
import { createPipelineDeps } from "../../app/sync/pipeline-deps.server";
import { ensureReferenceData } from "../../app/sync/reference-data.server";
import { intakeOrderCreated } from "../../app/sync/order-intake.server";
import { createTestDatabase, type TestDatabase } from "../helpers/db";
import { useBuiltApp } from "../helpers/built-app";
import { appWorkerArgs } from "../../scripts/dev/lib/app-build";
import { sleep } from "./helpers";

const built = useBuiltApp();
let t: TestDatabase;
let sandbox: RunningSandbox;
beforeAll(async () => {
  t = await createTestDatabase();
  sandbox = await startSandbox({ port: 0, quiet: true, rateLimitPerMinute: 600 });
  const key = sandbox.keys.find((k) => k.account === "ACC-1001")!;
  const shop = await connectShop(t.prisma, {
    apiKey: key.key,
    baseUrl: sandbox.url,
    settings: { writeBack: { tags: false, fulfillment: false, markPaid: false, cancel: false } },
  });
  await ensureReferenceData(t.prisma, shop, createPipelineDeps(t.prisma).connect(shop).client, { now: new Date() });
});
afterAll(async () => {
  await sandbox.close();
  await t.cleanup();
});
beforeEach(async () => {
  await t.prisma.job.deleteMany();
});

let orderId = 5_590_000_000_000;

async function queueOrder() {
  const id = ++orderId;
  await t.prisma.$transaction((tx) =>
    intakeOrderCreated(tx, SHOP, webhookOrder({ id, phone: `06${String(id).slice(-8)}` })),
  );
  return t.prisma.job.findFirstOrThrow({
    where: { kind: "post-lead", state: "pending" },
    orderBy: { createdAt: "desc" },
  });
}

function startWorker(env: Record<string, string>) {
  const child = spawn(process.execPath, appWorkerArgs(built()), {
    cwd: built(),
    env: {
      ...process.env,
      NODE_ENV: "production",
      SELLER_API_ALLOW_PRIVATE_HOSTS: "true",
      DATABASE_URL: t.url,
      ...env,
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  child.stdout!.on("data", (d) => (output += d));
  child.stderr!.on("data", (d) => (output += d));
  const exited = new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)));
  return { child, exited, output: () => output };
}

async function untilRunning(jobId: string) {
  const deadline = Date.now() + 30_000;
  while (Date.now() < deadline) {
    const job = await t.prisma.job.findUniqueOrThrow({ where: { id: jobId } });
    if (job.state === "running") return job;
    await sleep(50);
  }
  throw new Error("the worker never claimed the job");
}

it("GIVEN a worker posting a lead (slow platform) WHEN it gets SIGTERM THEN the post finishes, nothing new is claimed, and it exits 0", async () => {
  await sandboxControl(sandbox.url).config({ fault: { latency_ms: 1500 } });
  const job = await queueOrder();
  const worker = startWorker({ WORKER_CONCURRENCY: "1" });
  await untilRunning(job.id);
  // Queued after the claim: a draining worker must leave it for another one.
  const later = await queueOrder();

  worker.child.kill("SIGTERM");
  const code = await worker.exited;

  expect(code, worker.output()).toBe(0);
  expect(await t.prisma.job.findUniqueOrThrow({ where: { id: job.id } })).toMatchObject({
    state: "done",
    attempts: 1,
    leaseOwner: null,
  });
  expect(await t.prisma.job.findUniqueOrThrow({ where: { id: later.id } })).toMatchObject({
    state: "pending",
    attempts: 0,
  });
  expect(await t.prisma.orderLink.count({ where: { state: "created" } })).toBe(1);
});

it("GIVEN a post longer than the worker's stop timeout WHEN it gets SIGTERM THEN the job is released (pending, attempt given back, no lease) and it exits 0", async () => {
  await sandboxControl(sandbox.url).config({ fault: { latency_ms: 20_000 } });
  const job = await queueOrder();
  const worker = startWorker({ WORKER_CONCURRENCY: "1", WORKER_STOP_TIMEOUT_MS: "300" });
  const running = await untilRunning(job.id);
  expect(running.attempts).toBe(1);

  worker.child.kill("SIGTERM");
  const code = await worker.exited;

  // It did not wait for the post's 20 s: the job is released, not done.
  expect(code, worker.output()).toBe(0);
  expect(await t.prisma.job.findUniqueOrThrow({ where: { id: job.id } })).toMatchObject({
    state: "pending",
    attempts: 0,
    leaseOwner: null,
    leaseExpiresAt: null,
  });
  expect(worker.output()).toContain("released: worker stopped");
});
