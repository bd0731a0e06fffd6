/**
 * `npm run bench -- reconcile [--orders 1000,20000] [--lost 0.01] [--idle-passes 30] [--shops 10000]
 *   [--interval 300]`: what one reconciliation pass costs.
 *
 * For each size N: a shop whose N orders were all updated in Shopify (the stand-in, a
 * process of its own on loopback, with Shopify's cost model and a standard plan's bucket:
 * 2,000 points, 100 a second) since the last pass, the app holding all of them but a `--lost` share (their
 * webhooks lost: the pass reads those whole and takes them in). One pass runs through the
 * worker as in production (the bucket is waited for, never overdrawn); reported: its wall
 * time, Admin API calls, requested and actual points, the waits for the bucket, and what
 * it found. Then `--idle-passes` passes of a shop where nothing changed (the steady state:
 * one call each), and what the reconciliation adds for `--shops` shops at `--interval`
 * seconds: Admin API calls and worker time per hour.
 */
import { randomBytes } from "node:crypto";
import { spawn } from "node:child_process";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { performance } from "node:perf_hooks";
import type { PrismaClient } from "@prisma/client";
import { openBenchDatabase } from "./lib/bench-database";
import { webhookOrder } from "../lib/order-payloads";
import { freePort } from "../../lib/ports";
import { tsxArgs } from "../lib/app-build";
import { shopifyAdminControl } from "../../../shopify-admin/control-client";
import { installFetchRewrite } from "../../../shopify-admin/fetch-rewrite";
import { insertLinksAsTheyStand } from "../../../app/models/link-moves.server";

const { values } = parseArgs({
  options: {
    orders: { type: "string", default: "1000,20000" },
    lost: { type: "string", default: "0.01" },
    "idle-passes": { type: "string", default: "30" },
    shops: { type: "string", default: "10000" },
    interval: { type: "string", default: "300" },
  },
});
const SIZES = values.orders.split(",").map(Number);
const LOST = Number(values.lost);
const IDLE_PASSES = Number(values["idle-passes"]);
const FLEET = Number(values.shops);
const INTERVAL_S = Number(values.interval);
const SHOP = "atlas-beauty.myshopify.com";
const HOUR = 3600_000;

process.env.SHOPIFY_API_KEY ??= "bench-key";
process.env.SHOPIFY_API_SECRET ??= "bench-secret";
process.env.SHOPIFY_APP_URL ??= "https://cod-lead-sync.bench";
process.env.ENCRYPTION_KEY ??= randomBytes(32).toString("base64");
process.env.NODE_ENV ??= "production";

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const round = (n: number, digits = 1) => Math.round(n * 10 ** digits) / 10 ** digits;

interface PassResult {
  wallMs: number;
  cpuMs: number;
  calls: number;
  requested: number;
  actual: number;
  throttledAnswers: number;
  waits: number;
  found: Record<string, number>;
}

/** The stand-in in a process of its own: the CPU measured here is the app's alone. */
async function startStandIn(): Promise<{ url: string; stop(): Promise<void> }> {
  const port = await freePort();
  const root = join(import.meta.dirname, "..", "..", "..");
  const child = spawn(
    process.execPath,
    [...tsxArgs(root), join(root, "shopify-admin", "cli.ts"), "--port", String(port)],
    {
      env: { PATH: process.env.PATH ?? "", HOME: process.env.HOME ?? "", NODE_ENV: "production" },
      stdio: ["ignore", "pipe", "inherit"],
    },
  );
  await new Promise<void>((resolve, reject) => {
    child.stdout!.on("data", (d) => String(d).includes("listening on") && resolve());
    child.once("exit", (code) => reject(new Error(`the stand-in exited (${code})`)));
  });
  return {
    url: `http://127.0.0.1:${port}`,
    stop: async () => void (child.kill("SIGTERM"), await new Promise((r) => child.once("exit", r))),
  };
}

async function run(size: number) {
  const database = await openBenchDatabase();
  process.env.DATABASE_URL = database.url;
  const standIn = await startStandIn();
  const control = shopifyAdminControl(standIn.url);
  const rewrite = await installFetchRewrite(standIn.url);
  const { createPrismaClient } = await import("../../../app/db/client");
  const db: PrismaClient = createPrismaClient(database.url);
  try {
    const now = Date.now();
    await control.loadShop(SHOP);
    await db.shop.create({
      data: {
        domain: SHOP,
        installedAt: new Date(now - 3 * HOUR),
        settings: JSON.stringify({ writeBack: { tags: false, fulfillment: false, markPaid: false, cancel: false } }),
      },
    });
    await db.session.create({
      data: {
        id: `offline_${SHOP}`,
        shop: SHOP,
        state: "",
        isOnline: false,
        scope: "read_orders,write_orders",
        accessToken: "shpat_bench",
      },
    });
    // N orders placed and updated between an hour and ten minutes ago; the app holds them all but the lost ones.
    const lost = Math.round(size * LOST);
    const lostEvery = lost > 0 ? Math.floor(size / lost) : 0;
    const isLost = (i: number) => lostEvery > 0 && (i + 1) % lostEvery === 0 && (i + 1) / lostEvery <= lost;
    const links = [];
    const payloads = [];
    for (let i = 0; i < size; i++) {
      const at = new Date(now - HOUR + Math.floor((i / size) * 50 * 60_000)).toISOString();
      const payload = webhookOrder({
        id: 8_000_000_000_000 + i,
        phone: `07${String(10_000_000 + i).padStart(8, "0")}`,
        createdAt: at,
      });
      payloads.push(payload);
      if (isLost(i)) continue;
      links.push({
        shop: SHOP,
        orderId: String(payload.id),
        orderName: String(payload.name),
        payload: "{}",
        payloadAt: new Date(at),
        orderCreatedAt: new Date(at),
        externalRef: `shopify:${payload.id}`,
        state: "created",
        leadRef: `ATB-${i}`,
      });
    }
    for (let i = 0; i < payloads.length; i += 20)
      await Promise.all(payloads.slice(i, i + 20).map((p) => control.placeOrder(SHOP, p, { deliver: false })));
    for (let i = 0; i < links.length; i += 1000) await insertLinksAsTheyStand(db, links.slice(i, i + 1000));
    await db.syncLedger.create({
      data: {
        shop: SHOP,
        coverageFrom: new Date(now - 2 * HOUR),
        watermark: new Date(now - HOUR - 60_000),
        lastPassAt: new Date(now - HOUR),
        measuredUntil: new Date(now - HOUR),
      },
    });

    const { createWorker } = await import("../../../app/queue/worker.server");
    const { createJobHandlers } = await import("../../../app/sync/job-handlers.server");
    const { createPipelineDeps } = await import("../../../app/sync/pipeline-deps.server");
    const { reconcileNow } = await import("../../../app/sync/reconcile/pass.server");
    const { RECONCILE_JOB, reconcileJobKey } = await import("../../../app/models/job-kinds");
    const app = await import("../../../app/shopify.server");
    const adminFor = async (shop: string) => (await app.unauthenticated.admin(shop)).admin;
    const handlers = createJobHandlers({
      ...createPipelineDeps(db),
      adminFor,
      reconcile: { intervalMs: INTERVAL_S * 1000, maxGapMs: 7 * 24 * HOUR, stuckMs: 30 * 60_000, pagesPerAttempt: 20 },
    });
    const worker = createWorker({
      db,
      handlers,
      kinds: [RECONCILE_JOB],
      logger: { info: () => {}, warn: (m) => console.error(m), error: (m) => console.error(m) },
    });

    /** One whole pass, waiting out the bucket as the queue would. */
    const pass = async (): Promise<PassResult> => {
      await control.clearCalls();
      await reconcileNow(db, SHOP, new Date());
      let cpuMicros = 0;
      const started = performance.now();
      let waits = 0;
      const log = console.info;
      let found: Record<string, number> = {};
      console.info = (line: unknown, ...rest: unknown[]) => {
        if (typeof line === "string" && line.startsWith("[reconcile] "))
          found = JSON.parse(line.slice(12)) as Record<string, number>;
        else log(line, ...rest);
      };
      try {
        for (;;) {
          // The worker's CPU only (not this loop's reads, nor the stand-in's: another process).
          const cpu = process.cpuUsage();
          await worker.drain({ timeoutMs: 600_000 });
          const used = process.cpuUsage(cpu);
          cpuMicros += used.user + used.system;
          const job = await db.job.findUniqueOrThrow({ where: { key: reconcileJobKey(SHOP) } });
          if (job.payload === "{}") break;
          waits++;
          if (process.env.BENCH_DEBUG)
            console.error(job.state, job.lastError, job.runAt.toISOString(), job.payload.slice(0, 200));
          await sleep(Math.max(0, job.runAt.getTime() - Date.now()) + 5);
        }
      } finally {
        console.info = log;
      }
      const wallMs = performance.now() - started;
      const calls = await control.calls({ shop: SHOP });
      return {
        wallMs,
        cpuMs: cpuMicros / 1000,
        calls: calls.filter((c) => !c.throttled).length,
        requested: calls.filter((c) => !c.throttled).reduce((n, c) => n + (c.requestedQueryCost ?? 0), 0),
        actual: calls.reduce((n, c) => n + (c.actualQueryCost ?? 0), 0),
        throttledAnswers: calls.filter((c) => c.throttled).length,
        waits,
        found,
      };
    };

    const full = await pass();
    console.log(
      `${size} orders in the window (${lost} lost): one pass ${round(full.wallMs / 1000)} s wall (app CPU ${round(full.cpuMs / 1000)} s), ` +
        `${full.calls} Admin calls, ${full.requested} points requested, ${round(full.actual, 0)} spent, ${full.throttledAnswers} THROTTLED answers, ${full.waits} waits for the bucket; ` +
        `found ${JSON.stringify({ scanned: full.found.scanned, recovered: full.found.recovered, pages: full.found.pages })}; ` +
        `bucket-bound floor ${round(Math.max(0, full.actual - 2000) / 100)} s at 100 points/s`,
    );

    // The steady state: nothing changed since the last pass (the orders are older than its overlap).
    const idle: PassResult[] = [];
    for (let i = 0; i < IDLE_PASSES; i++) idle.push(await pass());
    const sorted = idle.map((p) => p.wallMs).sort((a, b) => a - b);
    const meanWall = sorted.reduce((a, b) => a + b, 0) / sorted.length;
    const meanCpu = idle.reduce((n, p) => n + p.cpuMs, 0) / idle.length;
    const callsPerIdle = idle.reduce((n, p) => n + p.calls, 0) / idle.length;
    const pointsPerIdle = idle.reduce((n, p) => n + p.actual, 0) / idle.length;
    console.log(
      `  idle pass (shop with ${size} orders, nothing changed): ${round(callsPerIdle)} Admin call(s), ${round(pointsPerIdle)} points, ` +
        `wall p50 ${round(sorted[Math.floor(sorted.length / 2)])} ms, p95 ${round(sorted[Math.floor(sorted.length * 0.95)])} ms, app CPU mean ${round(meanCpu)} ms`,
    );
    return { size, full, callsPerIdle, pointsPerIdle, meanWall, meanCpu };
  } finally {
    await db.$disconnect();
    rewrite.uninstall();
    await standIn.stop();
    await database.close();
  }
}

console.log(`reconcile benchmark: passes at ${INTERVAL_S} s, ${LOST * 100} % of webhooks lost\n`);
const results = [];
for (const size of SIZES) results.push(await run(size));
const idle = results[0];
const passesPerHour = 3600 / INTERVAL_S;
const callsPerHour = FLEET * passesPerHour * idle.callsPerIdle;
console.log(
  `\n${FLEET} shops at one pass every ${INTERVAL_S} s: ${Math.round(callsPerHour).toLocaleString("en")} Admin API calls an hour ` +
    `(${round(callsPerHour / 3600)} a second across all shops; ${round(passesPerHour * idle.callsPerIdle)} an hour per shop, ${round(passesPerHour * idle.pointsPerIdle)} points of its 360,000), ` +
    `plus one call per 250 orders written back or changed since the last pass; worker time about ${round((FLEET * passesPerHour * idle.meanWall) / 1000 / 3600, 2)} s per second of wall (${round((FLEET * passesPerHour * idle.meanCpu) / 1000 / 3600, 2)} CPU-seconds per second)`,
);
