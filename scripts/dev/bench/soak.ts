/**
 * `npm run bench -- soak [--rate 20] [--minutes 10] [--mode embedded|separate]
 *                        [--after 1] [--drain-limit 10] [--database-url URL]
 *                        [--shopify on|off] [--plan standard|advanced|plus] [--flow-workflows on|off] [--keep]
 *                        [--engine ours|graphile[:QUEUES]]`
 *
 * A busy shop's mixed load with the app's defaults: signed orders/create
 * webhooks at --rate a second for --minutes (10 % redelivered a few seconds
 * later with the same webhook id, 5 % that the shop's rules must hold) against
 * the production build on loopback, every order created in the Shopify Admin
 * stand-in first, while the worker posts leads to the sandbox (autopilot moving
 * them, rate limit raised out of the way), the status sync polls, write-back
 * writes each move to the stand-in and Flow triggers go to it (the shop has
 * workflows on them, said through Flow's lifecycle callback; --flow-workflows
 * off: none). The shop's plan sets its Admin API points a second (default
 * plus: a shop taking 20 orders a second, 72,000 an hour, is a Plus shop; a
 * Standard plan's 100 points a second carry about 4 orders a second's tags and
 * triggers). --shopify off: no stand-in, write-back and Flow off (the earlier
 * soak). A /healthz probe every second. After sending: waits for the backlog to
 * drain, then until nothing is left to do (lead events told, write-backs and
 * triggers sent), watches --after more minutes, then checks exactly-once.
 * Reports the CPU each process used per lead and the job attempts per lead by kind.
 *
 * The database: a fresh embedded PostgreSQL started here (fsync on), or --database-url.
 * Mode embedded (`npm start` on a single machine): one process, the worker inside it.
 * Mode separate (the demo, and at scale): `npm start` with WORKER_IN_PROCESS=false plus `npm run worker`.
 * `--engine graphile` (mode separate): the worker process is the graphile-worker
 * candidate (lib/queue-engines.ts), run from source.
 *
 * Prints one row a minute and a JSON summary at the end.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { randomUUID } from "node:crypto";
import { parseArgs } from "node:util";
import { signedWebhookHeaders } from "../lib/webhook-signing";
import { DEMO_ACCOUNT } from "../demo/demo-shop";
import { checkExactlyOnce, type SentOrder } from "./lib/soak-check";
import {
  backlog,
  maxOf,
  NO_SYNC,
  percentile,
  postgresBytes,
  probeHealth,
  rssMb,
  slope,
  syncBetween,
  syncTotals,
  type Probe,
} from "./lib/soak-measures";
import { createOrderFactory, isHeldOrder } from "./lib/soak-orders";
import { cpuOf, cpuPerLead, jobsPerLead, nothingLeft, workLeft, type WorkLeft } from "./lib/soak-cost";
import { PLAN_LIMITS, type ShopifyPlan } from "../../../shopify-admin/index";
import { startSoakWorld, type WorkerMode } from "./lib/soak-world";
import { openBenchDatabase } from "./lib/bench-database";
import { engineLabel, enginesOf } from "./lib/queue-engines";

const { values } = parseArgs({
  options: {
    rate: { type: "string", default: "20" },
    minutes: { type: "string", default: "10" },
    mode: { type: "string", default: "embedded" },
    after: { type: "string", default: "1" },
    "drain-limit": { type: "string", default: "10" },
    "database-url": { type: "string" },
    "rate-limit": { type: "string", default: "60000" },
    keep: { type: "boolean", default: false },
    shopify: { type: "string", default: "on" },
    plan: { type: "string", default: "plus" },
    "flow-workflows": { type: "string", default: "on" },
    engine: { type: "string", default: "ours" },
  },
});
const rate = Number(values.rate);
const sendMs = Number(values.minutes) * 60_000;
const afterMs = Number(values.after) * 60_000;
const drainLimitMs = Number(values["drain-limit"]) * 60_000;
const mode = values.mode as WorkerMode;
const withShopify = values.shopify !== "off";
const plan = values.plan as ShopifyPlan;
if (!(rate > 0) || !(sendMs > 0) || (mode !== "embedded" && mode !== "separate") || !(plan in PLAN_LIMITS)) {
  console.error(
    "usage: npm run bench -- soak [--rate 20] [--minutes 10] [--mode embedded|separate] [--after 1] [--drain-limit 10] [--database-url URL]",
  );
  process.exit(2);
}
const REDELIVER_EVERY = 10; // 10 %
const HOLD_EVERY = 20; // 5 %
const REDELIVERY_DELAY_MS = 3000;
const runTag = Math.floor(Date.now() / 1000) % 1000;
const total = Math.round((sendMs / 1000) * rate);

const log = (line: string) => console.error(line);
const dataDir = mkdtempSync(join(tmpdir(), "cod-soak-"));
// Without --database-url: an embedded PostgreSQL started here.
const postgres = values["database-url"] ? null : await openBenchDatabase();
const [engine] = enginesOf({ engine: values.engine });
log(`queue engine: ${engineLabel(engine)}`);
const world = await startSoakWorld({
  dataDir,
  mode,
  engine,
  rateLimitPerMinute: Number(values["rate-limit"]),
  databaseUrl: values["database-url"] ?? postgres!.url,
  shopify: withShopify && {
    runTag,
    orders: total,
    holdEvery: HOLD_EVERY,
    flowWorkflows: values["flow-workflows"] !== "off",
    plan,
  },
  log,
});
const { db, shop } = world;
// Interrupted (Ctrl-C, a timeout's SIGTERM): the world's processes are stopped too, not left running.
for (const signal of ["SIGINT", "SIGTERM"] as const) {
  process.once(signal, () => {
    log(`${signal}: stopping the soak's processes`);
    void Promise.all([world.close(), postgres?.close()]).finally(() => {
      if (!values.keep) rmSync(dataDir, { recursive: true, force: true });
      process.exit(130);
    });
  });
}

// ---- measurements ----
interface Delivery {
  at: number;
  latencyMs: number;
  status: number | null;
}
const deliveries: Delivery[] = [];
const probes: Probe[] = [];
const sent = new Map<string, SentOrder>();
let connectionErrors = 0;
let non2xx = 0;
let redeliveries = 0;

async function deliver(orderId: string, body: string, webhookId: string): Promise<void> {
  const headers = signedWebhookHeaders({ topic: "orders/create", shop, secret: world.apiSecret, webhookId }, body);
  const at = Date.now();
  const t0 = performance.now();
  let status: number | null = null;
  try {
    const response = await fetch(`${world.appUrl}/webhooks/orders/create`, {
      method: "POST",
      headers,
      body,
      signal: AbortSignal.timeout(60_000),
    });
    await response.arrayBuffer();
    status = response.status;
  } catch {
    connectionErrors++;
  }
  deliveries.push({ at, latencyMs: performance.now() - t0, status });
  if (status !== null && status >= 200 && status < 300) sent.get(orderId)!.accepted = true;
  else if (status !== null) non2xx++;
}

interface MinuteRow {
  minute: number;
  phase: "send" | "drain" | "after";
  orders: number;
  p50: number;
  p99: number;
  max: number;
  loopP99: number;
  loopMax: number;
  probeMax: number;
  connErrors: number;
  backlog: number;
  syncCycles: number;
  /** The longest of the minute's cycles, as the bound of its duration bucket. */
  syncMaxMs: number;
  rss: Record<string, number>;
  /** The app's V8 heap in use (its metrics): growth RSS shows but the heap does not is native. */
  appHeapMb: number;
}
const rows: MinuteRow[] = [];
let phase: MinuteRow["phase"] = "send";
let lastRowAt = Date.now();
let lastConnErrors = 0;
let lastSync = NO_SYNC;
const started = Date.now();

async function minuteRow(): Promise<MinuteRow> {
  const now = Date.now();
  const inMinute = deliveries.filter((d) => d.at >= lastRowAt && d.at < now).map((d) => d.latencyMs);
  const probesIn = probes.filter((p) => p.at >= lastRowAt && p.at < now);
  // The processes' metrics read once a minute: the sync cycles, RSS and the app's heap.
  const scrapes = await world.scrapeAll();
  const figures = await world.readFigures();
  const sync = syncTotals([...scrapes.values()]);
  const minuteSync = syncBetween(lastSync, sync);
  lastSync = sync;
  const row: MinuteRow = {
    minute: Number(((now - started) / 60_000).toFixed(1)),
    phase,
    orders: sent.size,
    p50: percentile(inMinute, 50),
    p99: percentile(inMinute, 99),
    max: maxOf(inMinute),
    loopP99: maxOf(probesIn.map((p) => p.loopP99Ms)),
    loopMax: maxOf(probesIn.map((p) => p.loopMaxMs)),
    probeMax: maxOf(probesIn.map((p) => p.latencyMs)),
    connErrors: connectionErrors - lastConnErrors,
    backlog: (await backlog(db, shop)).links,
    syncCycles: minuteSync.cycles,
    syncMaxMs: minuteSync.maxUnderMs,
    rss: Object.fromEntries(world.processes.map((p) => [p.name, figures.get(p.name)?.rssMb ?? rssMb(p.pid)])),
    appHeapMb: figures.get("app")?.heapUsedMb ?? NaN,
  };
  lastRowAt = now;
  lastConnErrors = connectionErrors;
  rows.push(row);
  printRow(row);
  return row;
}

const f0 = (v: number) => (Number.isFinite(v) ? v.toFixed(0) : "-");
const names = world.processes.map((p) => p.name);
function printHeader() {
  console.log(
    [
      "min",
      "phase",
      "orders",
      "wh p50",
      "wh p99",
      "wh max",
      "loop p99",
      "loop max",
      "probe max",
      "conn err",
      "backlog",
      "syncs",
      "sync ≤ ms",
      ...names.map((n) => `${n} MB`),
      "app heap",
    ]
      .map((h) => h.padStart(9))
      .join(" "),
  );
}
function printRow(r: MinuteRow) {
  console.log(
    [
      r.minute,
      r.phase,
      r.orders,
      f0(r.p50),
      f0(r.p99),
      f0(r.max),
      f0(r.loopP99),
      f0(r.loopMax),
      f0(r.probeMax),
      r.connErrors,
      r.backlog,
      r.syncCycles,
      f0(r.syncMaxMs),
      ...names.map((n) => f0(r.rss[n])),
      f0(r.appHeapMb),
    ]
      .map((v) => String(v).padStart(9))
      .join(" "),
  );
}

// ---- the run ----
let probing = true;
const prober = (async () => {
  while (probing) {
    const next = Date.now() + 1000;
    probes.push(await probeHealth(world.appUrl, world.processes.find((p) => p.name === "app")?.metricsUrl));
    await new Promise((r) => setTimeout(r, Math.max(0, next - Date.now())));
  }
})();
let ticking = true;
void (async () => {
  while (ticking) {
    await new Promise((r) => setTimeout(r, Math.max(0, lastRowAt + 60_000 - Date.now())));
    if (ticking) await minuteRow().catch((e) => log(`minute row failed: ${e}`));
  }
})();

let summary: Record<string, unknown> = {};
try {
  log(
    `soak: ${rate} orders/s for ${sendMs / 60_000} min (${100 / REDELIVER_EVERY} % redelivered, ${100 / HOLD_EVERY} % to hold), mode ${mode}, ` +
      `${withShopify ? `Shopify stand-in (${plan} plan) with every order, write-back and Flow on` : "no Shopify, write-back and Flow off"}, data ${dataDir}`,
  );
  printHeader();
  const makeOrder = createOrderFactory(runTag);
  const cpuAtStart = cpuOf(world.processes);
  const inflight = new Set<Promise<void>>();
  const track = (p: Promise<void>) => {
    inflight.add(p);
    void p.finally(() => inflight.delete(p));
  };
  const sendStarted = performance.now();
  for (let i = 0; i < total; i++) {
    const wait = sendStarted + (i * 1000) / rate - performance.now();
    if (wait > 1) await new Promise((r) => setTimeout(r, wait));
    const order = makeOrder(i, isHeldOrder(i, HOLD_EVERY));
    sent.set(order.id, { held: order.held, accepted: false });
    const webhookId = randomUUID();
    track(deliver(order.id, order.body, webhookId));
    if (i % REDELIVER_EVERY === 3) {
      redeliveries++;
      track(
        new Promise<void>((r) => setTimeout(r, REDELIVERY_DELAY_MS)).then(() =>
          deliver(order.id, order.body, webhookId),
        ),
      );
    }
  }
  await Promise.all(inflight);
  const sendEnded = Date.now();
  const atEnd = await backlog(db, shop);
  log(
    `sending done: ${sent.size} orders, ${redeliveries} redeliveries; backlog ${atEnd.links} orders (${(atEnd.links / rate).toFixed(1)} s of orders)`,
  );
  const workAtEnd = await workLeft(db, shop);
  log(`work left when sending stopped: ${JSON.stringify(workAtEnd)}`);

  phase = "drain";
  // The backlog: orders not yet posted (or refused). Then what was queued for Shopify before
  // sending stopped (lead events to tell, write-backs and Flow triggers), which Shopify's points pace.
  let drainMs: number | null = null;
  let allWorkMs: number | null = null;
  let left: WorkLeft = workAtEnd;
  for (;;) {
    left = await workLeft(db, shop, new Date(sendEnded));
    if (drainMs === null && left.links === 0) drainMs = Date.now() - sendEnded;
    if (nothingLeft(left)) {
      allWorkMs = Date.now() - sendEnded;
      break;
    }
    if (Date.now() - sendEnded > drainLimitMs) break;
    await new Promise((r) => setTimeout(r, 1000));
  }
  log(
    drainMs === null
      ? `backlog not drained after ${drainLimitMs / 60_000} min`
      : `drained ${(drainMs / 1000).toFixed(1)} s after sending stopped`,
  );
  log(
    allWorkMs === null
      ? `work left after ${drainLimitMs / 60_000} min: ${JSON.stringify(left)}`
      : `all work done ${(allWorkMs / 1000).toFixed(1)} s after sending stopped`,
  );
  const drainedAt = Date.now();
  const cpuAtDrain = cpuOf(world.processes);
  const leadsAtDrain = await db.orderLink.count({ where: { shop, state: { in: ["created", "damaged"] } } });
  const jobsAtDrain = jobsPerLead((await world.scrapeAll()).values(), leadsAtDrain);
  const figuresAtDrain = await world.readFigures();
  const rssAtDrain = Object.fromEntries(
    world.processes.map((p) => [p.name, figuresAtDrain.get(p.name)?.rssMb ?? rssMb(p.pid)]),
  );

  phase = "after";
  await new Promise((r) => setTimeout(r, afterMs));
  ticking = false;
  if (Date.now() - lastRowAt > 10_000) await minuteRow();
  probing = false;
  await prober;

  // ---- summary ----
  const latencies = deliveries.map((d) => d.latencyMs);
  const duringSend = probes.filter((p) => p.at <= sendEnded);
  const sync = syncTotals([...(await world.scrapeAll()).values()]);
  const check = await checkExactlyOnce(db, shop, world.sandboxUrl, DEMO_ACCOUNT, sent);
  const bytes = await postgresBytes(db);
  const firstMinute = rows[0]?.rss ?? {};
  const lastRow = rows[rows.length - 1]?.rss ?? {};
  const rss = Object.fromEntries(
    names.map((n) => {
      const points = rows.filter((r) => r.phase === "send").map((r) => ({ x: r.orders, y: r.rss[n] }));
      return [
        n,
        {
          perMinuteMb: rows.map((r) => Math.round(r.rss[n])),
          ...(n === "app" ? { heapUsedPerMinuteMb: rows.map((r) => Math.round(r.appHeapMb)) } : {}),
          minute1Mb: Math.round(firstMinute[n]),
          atDrainMb: Math.round(rssAtDrain[n]),
          endMb: Math.round(lastRow[n]),
          endOverMinute1: Number((lastRow[n] / firstMinute[n]).toFixed(2)),
          slopeMbPer10kOrders: Number((slope(points) * 10_000).toFixed(1)),
        },
      ];
    }),
  );
  summary = {
    rate,
    minutes: sendMs / 60_000,
    mode,
    engine: engineLabel(engine),
    shopify: withShopify ? { plan, flowWorkflows: values["flow-workflows"] !== "off" } : false,
    orders: sent.size,
    redeliveries,
    webhook: {
      deliveries: deliveries.length,
      p50Ms: Math.round(percentile(latencies, 50)),
      p99Ms: Math.round(percentile(latencies, 99)),
      maxMs: Math.round(maxOf(latencies)),
      connectionErrors,
      non2xx,
    },
    eventLoop: {
      p99Ms: Math.round(maxOf(probes.map((p) => p.loopP99Ms))),
      maxMs: Math.round(maxOf(probes.map((p) => p.loopMaxMs))),
      maxWhileSendingMs: Math.round(maxOf(duringSend.map((p) => p.loopMaxMs))),
    },
    healthz: {
      probes: probes.length,
      failed: probes.filter((p) => !p.ok).length,
      p99Ms: Math.round(
        percentile(
          probes.map((p) => p.latencyMs),
          99,
        ),
      ),
      maxMs: Math.round(maxOf(probes.map((p) => p.latencyMs))),
      over1s: probes.filter((p) => p.latencyMs > 1000).length,
    },
    backlog: {
      atEndOfSending: atEnd.links,
      secondsOfOrders: Number((atEnd.links / rate).toFixed(1)),
      drainSeconds: drainMs === null ? null : Number((drainMs / 1000).toFixed(1)),
      drainedWithinLimit: drainMs !== null,
      workAtEndOfSending: workAtEnd,
      allWorkDoneSeconds: allWorkMs === null ? null : Number((allWorkMs / 1000).toFixed(1)),
      workLeftAtLimit: allWorkMs === null ? left : null,
    },
    perLead: {
      leads: leadsAtDrain,
      cpuMsByProcess: cpuPerLead(cpuAtStart, cpuAtDrain, leadsAtDrain),
      jobsByKindAndOutcome: jobsAtDrain,
    },
    rss,
    databaseBytesPerOrder: Math.round(bytes / Math.max(1, sent.size)),
    statusSync: {
      cycles: sync.cycles,
      meanTracked: sync.cycles ? Math.round(sync.leadsTracked / sync.cycles) : null,
      meanWallMs: sync.cycles ? Math.round((sync.wallSeconds / sync.cycles) * 1000) : null,
      maxWallUnderMs: syncBetween(NO_SYNC, sync).maxUnderMs,
      listCalls: sync.listCalls,
      detailCalls: sync.detailCalls,
      leadsChanged: sync.leadsChanged,
    },
    exactlyOnce: check,
    drainedAt: new Date(drainedAt).toISOString(),
  };
  console.log(JSON.stringify(summary, null, 2));
} finally {
  ticking = false;
  probing = false;
  await world.close();
  await postgres?.close();
  if (!values.keep) rmSync(dataDir, { recursive: true, force: true });
  else log(`kept ${dataDir}`);
}
process.exit(0);
