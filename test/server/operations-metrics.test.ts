/**
 * What an operator sees, end to end: the production server (build/server.js on the
 * build) and a worker process (build/worker.js), each with METRICS_PORT, on one
 * database, with the Seller Order API sandbox and the Shopify Admin stand-in on
 * loopback. Orders flow (redeliveries, a forged signature), the status sync
 * runs and writes back to Shopify, the queue falls behind while the worker is
 * stopped, the platform answers a 429 storm and one shop's key is revoked; each
 * step's families are scraped from both processes and must have moved as the
 * runbook (docs/operations.md) says. Readiness and the token-guarded /metrics
 * on the app's own port too.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startSandbox, sandboxControl } from "../../sandbox/index";
import { shopifyAdminControl, startShopifyAdmin, type RunningShopifyAdmin } from "../../shopify-admin/index";
import { appWorkerArgs } from "../../scripts/dev/lib/app-build";
import { signedWebhookHeaders } from "../../scripts/dev/lib/webhook-signing";
import { scrape, type Scrape } from "../../scripts/dev/bench/lib/process-metrics";
import { createTestDatabase, type TestDatabase } from "../helpers/db";
import { enqueueJob } from "../../app/queue/jobs.server";
import { syncJobFor } from "../../app/models/job-kinds";
import { webhookOrder } from "../helpers/orders";
import { connectTestShop, SHOP } from "../helpers/pipeline";
import {
  DEFAULT_SCOPES,
  PREVIEW_API_KEY,
  PREVIEW_API_SECRET,
  ensurePreviewBuild,
  freePort,
  removePreviewBuild,
  startPreviewServer,
  type PreviewServer,
} from "../helpers/preview-server";

const PAUSED_SHOP = "rif-market.myshopify.com";
const METRICS_TOKEN = "ops-test-metrics-token-0123456789";
const ORDERS = 12;
let db: TestDatabase;
let buildDir: string;
let sandbox: Awaited<ReturnType<typeof startSandbox>>;
let control: ReturnType<typeof sandboxControl>;
let admin: RunningShopifyAdmin;
let server: PreviewServer;
let serverMetrics: string;
let worker: { child: ChildProcess; metrics: string; exited: Promise<unknown> } | undefined;
/** Everything the workers printed (one is stopped and another started midway). */
let workerOutput = "";
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function startWorker() {
  const port = await freePort();
  const child = spawn(process.execPath, appWorkerArgs(buildDir), {
    cwd: buildDir,
    env: {
      ...process.env,
      NODE_ENV: "production",
      DATABASE_URL: db.url,
      DATABASE_POOL_SIZE: "4",
      SELLER_API_ALLOW_PRIVATE_HOSTS: "true",
      SELLER_API_TIMEOUT_MS: "3000",
      SELLER_API_RATE_REFRESH_MS: "2000",
      WORKER_LEASE_MS: "5000",
      SHOPIFY_API_KEY: PREVIEW_API_KEY,
      SHOPIFY_API_SECRET: PREVIEW_API_SECRET,
      SHOPIFY_APP_URL: server.url,
      SHOPIFY_ADMIN_STAND_IN_URL: admin.url,
      METRICS_PORT: String(port),
      LOG_LEVEL: "info",
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  child.stdout!.on("data", (d) => (workerOutput += d));
  child.stderr!.on("data", (d) => (workerOutput += d));
  const exited = new Promise((resolve) => child.once("exit", resolve));
  const metrics = `http://127.0.0.1:${port}/metrics`;
  // Until its listener answers (a bound of 3 minutes for a worker that never starts).
  const deadline = Date.now() + 180_000;
  while (Date.now() < deadline) {
    if (
      await fetch(metrics).then(
        (r) => r.ok,
        () => false,
      )
    )
      break;
    if (child.exitCode !== null) throw new Error(`the worker exited:\n${workerOutput}`);
    await sleep(100);
  }
  worker = { child, metrics, exited };
  return worker;
}

async function stopWorker() {
  if (!worker) return;
  worker.child.kill("SIGTERM");
  await worker.exited;
  worker = undefined;
}

/** The server's listener wants the token (METRICS_TOKEN is set there); the worker's has none. */
const scrapeWeb = () => scrape(serverMetrics, { token: METRICS_TOKEN });
const scrapeWorker = () => scrape(worker!.metrics);

/** Scrapes until `ready` holds (up to 60 s); answers the last scrape. */
async function scrapeUntil(read: () => Promise<Scrape>, ready: (s: Scrape) => boolean, what: string): Promise<Scrape> {
  const deadline = Date.now() + 60_000;
  let last = await read();
  while (!ready(last)) {
    if (Date.now() > deadline)
      throw new Error(
        `${what}: not seen in 60 s\n--- worker ---\n${workerOutput.slice(-4000)}\n--- server ---\n${server.output().slice(-3000)}`,
      );
    await sleep(250);
    last = await read();
  }
  return last;
}

let nextOrder = 6_300_000_000_000;
async function deliver(
  shop: string,
  order: Record<string, unknown>,
  options: { webhookId?: string; signWith?: string } = {},
) {
  const body = JSON.stringify(order);
  const headers = signedWebhookHeaders(
    { topic: "orders/create", shop, secret: options.signWith ?? server.apiSecret, webhookId: options.webhookId },
    body,
  );
  const response = await fetch(`${server.url}/webhooks/orders/create`, { method: "POST", headers, body });
  await response.arrayBuffer();
  return response.status;
}

/** An order that exists in the Shopify stand-in too (write-back needs it). */
async function newOrder(shop = SHOP) {
  const id = ++nextOrder;
  if (shop === SHOP)
    await shopifyAdminControl(admin.url).addOrder(SHOP, {
      id,
      name: `#${id % 10000}`,
      lines: [{ sku: "ARG-OIL-100", quantity: 1 }],
    });
  return webhookOrder({ id, name: `#${id % 10000}`, phone: `06${String(id).slice(-8)}` });
}

beforeAll(async () => {
  buildDir = await ensurePreviewBuild();
  db = await createTestDatabase();
  sandbox = await startSandbox({ port: 0, quiet: true, rateLimitPerMinute: 600 });
  control = sandboxControl(sandbox.url);
  admin = await startShopifyAdmin({
    quiet: true,
    app: { apiKey: PREVIEW_API_KEY, apiSecret: PREVIEW_API_SECRET, scopes: DEFAULT_SCOPES.split(",") },
  });
  await shopifyAdminControl(admin.url).install(SHOP, { accessToken: "shpat_e2e_atlas-beauty" });
  const keys = Object.fromEntries(sandbox.keys.map((k) => [k.account, k]));
  const flowOff = { leadCreated: false, leadStatusChanged: false, orderNeedsAttention: false };
  await connectTestShop(db.prisma, {
    apiKey: keys["ACC-1001"].key,
    baseUrl: sandbox.url,
    settings: { writeBack: { tags: true, fulfillment: false, markPaid: false, cancel: false }, flowTriggers: flowOff },
  });
  await connectTestShop(db.prisma, {
    shop: PAUSED_SHOP,
    apiKey: keys["ACC-1002"].key,
    baseUrl: sandbox.url,
    settings: { writeBack: { tags: false, fulfillment: false, markPaid: false, cancel: false }, flowTriggers: flowOff },
  });
  const metricsPort = await freePort();
  serverMetrics = `http://127.0.0.1:${metricsPort}/metrics`;
  server = await startPreviewServer({
    buildDir,
    sellerApiBaseUrl: sandbox.url,
    shops: [SHOP, PAUSED_SHOP],
    databaseUrl: db.url,
    env: {
      ENCRYPTION_KEY: process.env.ENCRYPTION_KEY!,
      DATABASE_POOL_SIZE: "4",
      SHOPIFY_ADMIN_STAND_IN_URL: admin.url,
      METRICS_PORT: String(metricsPort),
      METRICS_TOKEN,
      LOG_LEVEL: "info",
    },
  });
  await startWorker();
}, 300_000);

afterAll(async () => {
  worker?.child.kill("SIGKILL");
  await server?.close();
  await admin?.close();
  await sandbox?.close();
  await db?.cleanup();
  if (buildDir) removePreviewBuild(buildDir);
});

describe("metrics of a production server and a worker", () => {
  it("move as orders flow, the status sync writes back, the queue falls behind, a 429 storm hits and a shop's key is revoked", async () => {
    // ---- orders flow: every order once, a third of them redelivered, one forged ----
    const orders = await Promise.all(Array.from({ length: ORDERS }, () => newOrder()));
    for (const [i, order] of orders.entries()) {
      expect(await deliver(SHOP, order, { webhookId: `wh-${order.id}` })).toBe(200);
      if (i % 3 === 0) expect(await deliver(SHOP, order, { webhookId: `wh-${order.id}` })).toBe(200);
    }
    expect(await deliver(SHOP, await newOrder(), { signWith: "not-the-secret" })).toBe(401);
    const redelivered = Math.ceil(ORDERS / 3);

    const web = await scrapeWeb();
    expect(web.value("cod_process_info", { role: "web" })).toBe(1);
    expect(web.value("cod_webhook_ack_seconds_count", { topic: "orders/create" })).toBe(ORDERS + redelivered + 1);
    expect(web.value("cod_webhook_requests_total", { topic: "orders/create", outcome: "accepted" })).toBe(
      ORDERS + redelivered,
    );
    expect(web.value("cod_webhook_requests_total", { topic: "orders/create", outcome: "bad_signature" })).toBe(1);
    expect(web.value("cod_intake_orders_total", { outcome: "new" })).toBe(ORDERS);
    expect(web.value("cod_intake_orders_total", { outcome: "redelivered" })).toBe(redelivered);
    expect(web.value("process_resident_memory_bytes")).toBeGreaterThan(20e6);
    expect(web.value("nodejs_heap_size_used_bytes")).toBeGreaterThan(5e6);
    expect(web.value("cod_event_loop_delay_seconds", { quantile: "1" })).toBeGreaterThanOrEqual(0);
    expect(web.value("cod_db_pool_connections", { state: "max" })).toBe(4);

    let w = await scrapeUntil(
      scrapeWorker,
      // A post-lead is counted done after its handler returns, a moment after the lead it recorded: wait for
      // both, not only the lead, or a busy machine scrapes between them.
      (s) =>
        s.count("cod_order_to_lead_seconds_count") >= ORDERS &&
        s.count("cod_jobs_total", { kind: "post-lead", outcome: "done" }) >= ORDERS &&
        s.count("cod_jobs_total", { kind: "write-back", outcome: "done" }) >= ORDERS,
      "every order posted and tagged",
    );
    expect(w.value("cod_process_info", { role: "worker" })).toBe(1);
    expect(w.count("cod_jobs_total", { kind: "post-lead", outcome: "done" })).toBe(ORDERS);
    expect(w.count("cod_job_seconds_count", { kind: "post-lead" })).toBe(ORDERS);
    expect(w.count("cod_seller_api_calls_total", { endpoint: "POST /v1/leads", status: "2xx" })).toBe(ORDERS);
    expect(
      w.count("cod_seller_api_calls_total", { endpoint: "GET /v1/products", status: "2xx" }),
    ).toBeGreaterThanOrEqual(1);
    // 600 calls a minute: calls are spaced 100 ms apart, so posts wait for their slot.
    expect(w.count("cod_rate_limit_waits_total", { reason: "spacing" })).toBeGreaterThan(0);
    expect(w.count("cod_rate_limit_wait_seconds_total", { reason: "spacing" })).toBeGreaterThan(0);
    // The lead-created tag written to Shopify, counted from the post.
    expect(w.count("cod_status_to_shopify_seconds_count")).toBeGreaterThanOrEqual(ORDERS);
    expect(w.value("cod_worker_last_poll_timestamp_seconds")).toBeGreaterThan(Date.now() / 1000 - 60);
    expect(w.value("process_resident_memory_bytes")).toBeGreaterThan(20e6);
    // Every order arrived seconds ago: none took a minute.
    expect(w.count("cod_order_to_lead_seconds_bucket", { le: "60" })).toBe(ORDERS);

    // ---- the status sync: the platform moves leads, one cycle reads and writes them back ----
    const leads = await control.leads("ACC-1001");
    for (const lead of leads.slice(0, 4)) await control.advance(lead.ref, { confirmation_status: "confirmed" });
    const writtenBefore = w.count("cod_status_to_shopify_seconds_count");
    // Asked as the app asks: a cycle already running is marked to run again after, a waiting one starts now
    // (moving runAt alone is lost when a running cycle settles and reschedules itself).
    await enqueueJob(db.prisma, syncJobFor(SHOP, new Date()));
    w = await scrapeUntil(
      scrapeWorker,
      (s) =>
        s.count("cod_status_sync_cycle_seconds_count") >= 1 &&
        s.count("cod_status_to_shopify_seconds_count") >= writtenBefore + 4,
      "a status-sync cycle and its write-backs",
    );
    expect(w.count("cod_status_sync_leads_tracked_sum")).toBeGreaterThanOrEqual(ORDERS);
    expect(w.count("cod_status_sync_calls_total", { kind: "list" })).toBeGreaterThanOrEqual(1);
    expect(w.count("cod_status_sync_leads_changed_total")).toBeGreaterThanOrEqual(4);
    expect(w.count("cod_jobs_total", { kind: "sync-statuses", outcome: "done" })).toBeGreaterThanOrEqual(1);

    // ---- the queue falls behind: no worker, orders keep coming ----
    await stopWorker();
    const waiting = 3;
    for (let i = 0; i < waiting; i++) expect(await deliver(SHOP, await newOrder())).toBe(200);
    await sleep(1500);
    // The database's gauges are cached 5 s: wait for a fresh read.
    const behind = await scrapeUntil(
      scrapeWeb,
      (s) => s.count("cod_queue_jobs", { kind: "post-lead", state: "due" }) === waiting,
      "the backlog in the queue gauges",
    );
    expect(behind.value("cod_queue_oldest_due_seconds", { kind: "post-lead" })).toBeGreaterThanOrEqual(1);
    expect(behind.value("cod_database_up")).toBe(1);
    expect(behind.value("cod_shops_installed")).toBe(2);

    // ---- a 429 storm: the platform's limit drops to 1 a minute while orders flow ----
    await control.config({ rate_limit_per_minute: 1 });
    await startWorker();
    for (let i = 0; i < 3; i++) expect(await deliver(SHOP, await newOrder())).toBe(200);
    w = await scrapeUntil(
      scrapeWorker,
      (s) =>
        s.count("cod_seller_api_calls_total", { status: "429" }) >= 1 &&
        s.count("cod_jobs_total", { kind: "post-lead", outcome: "postponed" }) >= 1,
      "429 answers and postponed posts",
    );
    expect(w.count("cod_rate_limit_waits_total", { reason: "platform_429" })).toBe(
      w.count("cod_seller_api_calls_total", { status: "429" }),
    );
    // The postponed posts wait for a later time (the stated Retry-After), not lost.
    await scrapeUntil(
      scrapeWeb,
      (s) => s.count("cod_queue_jobs", { kind: "post-lead", state: "scheduled" }) >= 1,
      "posts waiting out the storm",
    );
    await control.config({ rate_limit_per_minute: 600 });

    // ---- a revoked key: the shop is paused, by reason ----
    const revoked = sandbox.keys.find((k) => k.account === "ACC-1002")!;
    await control.revoke(revoked.id);
    expect(await deliver(PAUSED_SHOP, await newOrder(PAUSED_SHOP))).toBe(200);
    w = await scrapeUntil(
      scrapeWorker,
      (s) => s.count("cod_shop_pauses_total", { reason: "key_rejected" }) === 1,
      "the pause",
    );
    expect(w.count("cod_seller_api_calls_total", { status: "401" })).toBeGreaterThanOrEqual(1);
    await scrapeUntil(
      scrapeWorker,
      (s) => s.value("cod_shops_paused", { reason: "key_rejected" }) === 1,
      "the paused shop in the worker's gauges",
    );
    await scrapeUntil(
      scrapeWeb,
      (s) => s.value("cod_shops_paused", { reason: "key_rejected" }) === 1,
      "the paused shop in the server's gauges",
    );

    // No series names a shop: the label sets stay fixed whatever the number of shops.
    for (const s of [...(await scrapeWeb()).samples, ...(await scrapeWorker()).samples]) {
      expect(Object.keys(s.labels)).not.toContain("shop");
      expect(Object.values(s.labels).join(" ")).not.toMatch(/myshopify/);
    }
    // Two process restarts, dozens of orders and several scrapes awaited one after another: minutes on a loaded machine.
  }, 300_000);

  it("logs one JSON line per request and per job, with no key, token or phone", async () => {
    const lines = (text: string) =>
      text
        .split("\n")
        .filter((l) => l.startsWith("{"))
        .map((l) => JSON.parse(l) as Record<string, unknown>);
    const webLines = lines(server.output());
    const webhook = webLines.find((l) => l.msg === "request" && l.topic === "orders/create" && l.status === 200);
    expect(webhook).toMatchObject({
      level: "info",
      role: "web",
      requestId: expect.any(String),
      shop: SHOP,
      durationMs: expect.any(Number),
      outcome: "ok",
    });
    const workerLines = lines(workerOutput);
    const job = workerLines.find((l) => l.kind === "post-lead" && l.outcome === "done");
    expect(job).toMatchObject({
      role: "worker",
      job: expect.stringContaining("post-lead:"),
      jobId: expect.any(String),
      shop: expect.any(String),
      durationMs: expect.any(Number),
      attempt: 1,
    });
    const everything = server.output() + workerOutput;
    for (const key of sandbox.keys) expect(everything).not.toContain(key.key);
    expect(everything).not.toContain("shpat_e2e");
    // A phone on its own, not ten digits inside a random hexadecimal request id.
    expect(everything).not.toMatch(/(?<![0-9a-fA-F])06\d{8}(?![0-9a-fA-F])/);
  });

  it("answers readiness on both processes, and /metrics on the app's port only with the token", async () => {
    // The public answer says ready or not; the report is on the metrics listener.
    const ready = await fetch(`${server.url}/readyz`);
    expect(ready.status).toBe(200);
    expect(await ready.json()).toEqual({ ready: true });
    const report = await fetch(serverMetrics.replace("/metrics", "/readyz"));
    expect(report.status).toBe(200);
    expect(await report.json()).toMatchObject({
      ready: true,
      database: { ok: true, kind: "postgres" },
      schema: { ok: true },
    });
    const workerReady = await fetch(worker!.metrics.replace("/metrics", "/readyz"));
    expect(workerReady.status).toBe(200);
    expect(await workerReady.json()).toMatchObject({ ready: true, worker: { ok: true, stopping: false } });

    expect((await fetch(`${server.url}/metrics`)).status).toBe(401);
    expect(
      (await fetch(`${server.url}/metrics`, { headers: { Authorization: "Bearer wrong-token-of-some-length" } }))
        .status,
    ).toBe(401);
    const guarded = await scrape(`${server.url}/metrics`, { token: METRICS_TOKEN });
    expect(guarded.value("cod_process_info", { role: "web" })).toBe(1);
    // The listener asks for the token too once one is set.
    expect((await fetch(serverMetrics)).status).toBe(401);
  });
});
