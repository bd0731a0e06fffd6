/**
 * Chaos across processes, as the app runs at scale: two app servers (the
 * production build, `server.ts`) and two workers (`worker.ts`) on one
 * database. 300 orders, each webhook delivered one to three times, spread
 * round-robin over the servers with several requests in flight; the platform
 * fails 10% of calls and answers a 429 storm; three worker SIGKILLs and one
 * app-server SIGKILL mid-traffic. A delivery that fails (the killed server's
 * connections) is redelivered to the other server, as Shopify retries. In the
 * end: exactly one lead per order on the platform, every link settled.
 */
import type { ChildProcess } from "node:child_process";
import { afterAll, beforeAll, expect, it } from "vitest";
import { startSandbox, sandboxControl } from "../../sandbox/index";
import { signedWebhookHeaders } from "../../scripts/dev/lib/webhook-signing";
import {
  ensurePreviewBuild,
  removePreviewBuild,
  startPreviewServer,
  type PreviewServer,
} from "../../scripts/dev/lib/preview-server";
import { createTestDatabase, type TestDatabase } from "../helpers/db";
import { webhookOrder } from "../helpers/orders";
import { connectTestShop, SHOP } from "../helpers/pipeline";
import {
  expectExactlyOneLeadPerOrder,
  seededRandom,
  spawnChaosWorker,
  stormWhileLeadsFlow,
  waitUntilSettled,
} from "./chaos-steps";

const ORDERS = 300;
const IN_FLIGHT = 6;
let db: TestDatabase;
let buildDir: string;
let sandbox: Awaited<ReturnType<typeof startSandbox>>;
let control: ReturnType<typeof sandboxControl>;
const servers: (PreviewServer | undefined)[] = [];
const workers: (ChildProcess | undefined)[] = [];
let log = "";

const random = seededRandom(20261125);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function startWorker(slot: number) {
  // A small pool each: two servers and two workers share the test's PostgreSQL.
  workers[slot] = spawnChaosWorker(buildDir, db.url, (text) => (log += `[worker ${slot}] ${text}`), {
    DATABASE_POOL_SIZE: "4",
  });
}

function startServer(slot: number) {
  return startPreviewServer({
    buildDir,
    sellerApiBaseUrl: sandbox.url,
    shops: [SHOP],
    databaseUrl: db.url,
    // The workers and this test seal and open the key with the same key.
    env: { ENCRYPTION_KEY: process.env.ENCRYPTION_KEY!, DATABASE_POOL_SIZE: "4" },
  }).then((server) => (servers[slot] = server));
}

beforeAll(async () => {
  buildDir = await ensurePreviewBuild();
  db = await createTestDatabase();
  sandbox = await startSandbox({ port: 0, quiet: true, rateLimitPerMinute: 1200 });
  control = sandboxControl(sandbox.url);
  const key = sandbox.keys.find((k) => k.account === "ACC-1001")!;
  await connectTestShop(db.prisma, {
    apiKey: key.key,
    baseUrl: sandbox.url,
    settings: {
      writeBack: { tags: false, fulfillment: false, markPaid: false, cancel: false },
      flowTriggers: { leadCreated: false, leadStatusChanged: false, orderNeedsAttention: false },
    },
  });
  await startServer(0);
  await startServer(1);
}, 300_000);

afterAll(async () => {
  for (const w of workers) w?.kill("SIGKILL");
  await Promise.all(servers.map((s) => s?.close()));
  await sandbox?.close();
  await db?.cleanup();
  if (buildDir) removePreviewBuild(buildDir);
});

it("ends with exactly one lead per order across two servers and two workers through faults, a 429 storm and four SIGKILLs", async () => {
  const secret = servers[0]!.apiSecret;
  let turn = 0;
  let redelivered = 0;
  /** Round-robin over the live servers; a failed delivery goes to the next one, as Shopify retries. */
  const deliver = async (body: Record<string, unknown>) => {
    const raw = JSON.stringify(body);
    for (let attempt = 0; attempt < 20; attempt++) {
      const live = servers.filter((s): s is PreviewServer => s !== undefined);
      const server = live[turn++ % live.length];
      const headers = signedWebhookHeaders(
        { topic: "orders/create", shop: SHOP, secret, webhookId: `wh-${body.id}` },
        raw,
      );
      const status = await fetch(`${server.url}/webhooks/orders/create`, { method: "POST", headers, body: raw }).then(
        async (r) => (await r.arrayBuffer(), r.status),
        () => 0,
      );
      if (status === 200) return;
      redelivered++;
      await sleep(50);
    }
    throw new Error(`order ${body.id} was never accepted`);
  };

  const orders = Array.from({ length: ORDERS }, (_, i) =>
    webhookOrder({ id: 5_590_000_000_000 + i, phone: `07${String(30000000 + i).padStart(8, "0")}` }),
  );
  const deliveries = orders.flatMap((body) => Array.from({ length: 1 + Math.floor(random() * 3) }, () => body));
  deliveries.sort(() => random() - 0.5);

  await control.config({ fault: { error_rate: 0.1, latency_ms: 30, hang_rate: 0.01 } });
  startWorker(0);
  startWorker(1);

  const started = Date.now();
  const workerKills: string[] = [];
  let serverKill: string | undefined;
  const killWorker = (slot: number) => {
    workers[slot]!.kill("SIGKILL");
    workerKills.push(`worker ${slot} at ${Date.now() - started} ms`);
    startWorker(slot);
  };
  let next = 0;
  let replacement: Promise<unknown> = Promise.resolve();
  const sender = async () => {
    while (next < deliveries.length) {
      const i = next++;
      await deliver(deliveries[i]);
      if (i > 0 && i % 150 === 0 && workerKills.length < 3) killWorker(i % 300 === 0 ? 0 : 1);
      // Halfway, one app server dies with requests in flight; a replacement comes up later, as after a host crash.
      if (serverKill === undefined && i >= deliveries.length / 2) {
        serverKill = `server 1 at ${Date.now() - started} ms`;
        const victim = servers[1]!;
        servers[1] = undefined;
        await victim.kill();
        replacement = startServer(1);
      }
    }
  };
  await Promise.all(Array.from({ length: IN_FLIGHT }, sender));
  await replacement;
  while (workerKills.length < 3) {
    await sleep(1500);
    killWorker(workerKills.length % 2);
  }
  const kills = [...workerKills, serverKill];

  const storm = await stormWhileLeadsFlow(db.prisma, control, { orders: ORDERS, started, restoreTo: 1200 });
  const unsettled = await waitUntilSettled(db.prisma, ORDERS);

  expect(serverKill).toBeDefined();
  expect(workerKills).toHaveLength(3);
  const { calls, states } = await expectExactlyOneLeadPerOrder(db.prisma, control, {
    orders: ORDERS,
    unsettled,
    diagnostics: { kills, storm, redelivered, log: log.slice(-6000) },
  });
  // Each order's webhook was stored once, whichever server took it and however often it came.
  expect(await db.prisma.webhookDelivery.count({ where: { shop: SHOP } })).toBe(ORDERS);
  console.info(
    `chaos across processes: ${ORDERS} orders, ${deliveries.length} deliveries (${redelivered} redelivered after a failure), ` +
      `kills ${kills.join(", ")}, API calls by status ${JSON.stringify(calls)}, settled in ${Date.now() - started} ms, states ${JSON.stringify(states)}`,
  );
}, 900_000);
