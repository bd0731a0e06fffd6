/**
 * `npm run bench -- drain [--orders 100] [--rate 200] [--workers 2]
 *                         [--shopify on|off] [--plan standard|advanced|plus] [--way-back on|off]
 *                         [--cpu-prof DIR] [--compare DIR]
 *                         [--engine ours|graphile[:QUEUES] | --engines ours,graphile,...]`
 *
 * N orders queued, the sandbox's limit at R calls a minute, and W worker
 * processes (`worker.ts`) sharing the key through the database's rate
 * limiter. Reports the drain time over N/R (target at most 1.05), the
 * number of 429 answers (target 0), and what each posted lead cost the
 * workers: CPU time and SQL statements (counted at the driver by a preload,
 * scripts/dev/bench/lib/count-statements.ts; BEGIN/COMMIT apart), from each
 * worker's first statement to the end (start-up left out), and in steady
 * state: from the moment a tenth of the orders are posted (the process warm,
 * its code compiled) to the end, per lead posted in between. The catalogue and
 * cities are cached before the clock starts, as they are in steady state.
 * Where the statements come from: BENCH_STATEMENT_TEXTS=1 prints each worker's
 * count per statement text, BENCH_STATEMENT_SOURCES=1 per sender (the app's
 * functions on the stack) and statement head, both on the workers' stderr.
 *
 * By default the shop runs as a real one is set up: write-back and every Flow
 * trigger on (Flow's lifecycle callback said a workflow uses each), the orders
 * in the Shopify Admin stand-in (in this process; the workers reach it through
 * its preload) on the shop's plan (`--plan`, default standard) and an offline
 * session stored; the counts then also hold each lead's write-back and "Lead
 * created" firing, up to the last of them. `--shopify off`: no Shopify beside
 * it, write-back and Flow off (posting alone).
 *
 * With Shopify, then the way back: the platform confirms each lead, one every
 * EVENT_EVERY_MS (under the key's pace, so no GET waits for its slot), and says
 * so by an event (a refresh-lead job, as its route queues one); reported: from
 * the event to the Shopify order written, and from the status recorded to it
 * (the written_back row's lag), p50 / p95 / max. `--way-back off` leaves it out
 * (it takes N x EVENT_EVERY_MS).
 *
 * `--compare DIR` first runs the same drain with the worker of another
 * checkout (e.g. `git archive main | tar -x -C DIR` with this checkout's
 * node_modules linked in), on a fresh database of this checkout's schema,
 * and prints both side by side.
 *
 * `--engine graphile` runs the workers as the graphile-worker candidate
 * (graphile claims, our worker runs and settles: lib/queue-engines.ts);
 * `--engines ours,graphile` runs both in turn, each on a fresh database, and
 * prints them side by side.
 */
import { randomBytes } from "node:crypto";
import { spawn } from "node:child_process";
import { join, resolve } from "node:path";
import { parseArgs } from "node:util";
import { connectShop, SHOP } from "../lib/connected-shop";
import { webhookOrder } from "../lib/order-payloads";
import { createPipelineDeps } from "../../../app/sync/pipeline-deps.server";
import { ensureReferenceData } from "../../../app/sync/reference-data.server";
import { intakeOrderCreated } from "../../../app/sync/order-intake.server";
import {
  PLAN_LIMITS,
  shopifyAdminControl,
  type RunningShopifyAdmin,
  type ShopifyPlan,
} from "../../../shopify-admin/index";
import { pathToFileURL } from "node:url";
import { openEngineRun, type EngineRun } from "./lib/engine-run";
import { ENGINE_OPTIONS, engineLabel, enginesOf, workerEntry, type QueueEngine } from "./lib/queue-engines";
import { countStatementsImport, minusStats, statsReader, sumStats, type ProcessStats } from "./lib/worker-stats";
import { APP_ENV, benchShopSettings, shopifyBeside } from "./lib/shopify-beside";
import { enqueueJob } from "../../../app/queue/jobs.server";
import { refreshLeadJobFor } from "../../../app/models/job-kinds";
import type { PrismaClient } from "@prisma/client";

const { values } = parseArgs({
  options: {
    orders: { type: "string", default: "100" },
    rate: { type: "string", default: "200" },
    workers: { type: "string", default: "2" },
    // Each worker writes a V8 CPU profile there when it exits (open in Chrome DevTools).
    "cpu-prof": { type: "string" },
    compare: { type: "string" },
    shopify: { type: "string", default: "on" },
    // The shop's Shopify plan: its GraphQL points a second bound the write-back and the triggers.
    plan: { type: "string", default: "standard" },
    // The way back after the drain (with Shopify): off to measure the drain alone (it takes N x 400 ms).
    "way-back": { type: "string", default: "on" },
    ...ENGINE_OPTIONS,
  },
});
const N = Number(values.orders);
const R = Number(values.rate);
const W = Number(values.workers);
const root = join(import.meta.dirname, "..", "..", "..");
process.env.ENCRYPTION_KEY ||= randomBytes(32).toString("base64");
if (values.shopify !== "on" && values.shopify !== "off") throw new Error("--shopify: on or off");
const SHOPIFY = values.shopify === "on";
const PLAN = values.plan as ShopifyPlan;
if (!(PLAN in PLAN_LIMITS)) throw new Error(`--plan: one of ${Object.keys(PLAN_LIMITS).join(", ")}`);
/** Jobs that follow a posted lead when write-back and Flow are on. */
const FOLLOW_UP_KINDS = ["write-back", "flow-trigger"];

interface DrainResult {
  label: string;
  settled: number;
  rejected: number;
  ratio: number;
  leadsPerSecond: number;
  wallSeconds: number;
  stats: ProcessStats;
  /** From the warm-up's end to the end, and the leads posted in between. */
  steady: { stats: ProcessStats; leads: number };
  /** The way back (with Shopify): seconds from the platform's event, and from the status recorded, to Shopify. */
  back?: { fromEvent: Quantiles; fromStatus: Quantiles; written: number };
}

interface Quantiles {
  p50: number;
  p95: number;
  max: number;
}

async function drain(
  label: string,
  workerRoot: string,
  profileDir: string | undefined,
  engine: QueueEngine,
): Promise<DrainResult> {
  const run = await openEngineRun(engine, R);
  const { db, sandbox, control, workers } = run;
  const key = sandbox.keys.find((k) => k.account === "ACC-1001")!;
  const profile = profileDir ? ["--cpu-prof", `--cpu-prof-dir=${profileDir}`] : [];
  let shopify: RunningShopifyAdmin | undefined;
  try {
    const shop = await connectShop(db, {
      apiKey: key.key,
      baseUrl: sandbox.url,
      settings: benchShopSettings(SHOPIFY),
    });
    if (SHOPIFY) shopify = await shopifyBeside(db, root, PLAN);
    // Steady state: reference lists cached (through the shared limiter, so the pace holds).
    const deps = createPipelineDeps(db);
    await ensureReferenceData(db, shop, deps.connect(shop).client, { now: new Date() });
    for (let i = 0; i < N; i++) {
      const body = webhookOrder({ id: 5_580_000_000_000 + i, phone: `06${String(30000000 + i).padStart(8, "0")}` });
      if (shopify) await shopifyAdminControl(shopify.url).placeOrder(SHOP, body, { deliver: false });
      await db.$transaction((tx) => intakeOrderCreated(tx, SHOP, body));
    }

    console.log(
      `drain benchmark (${label}): ${N} queued orders, limit ${R}/min, ${W} worker processes${SHOPIFY ? `, write-back and Flow on (Shopify ${PLAN} plan)` : ""}`,
    );
    const started = Date.now();
    // The stand-in's preload (this checkout's) sends the workers' Admin API calls to it.
    const standInPreload = shopify ? ["--import", pathToFileURL(join(root, "shopify-admin", "register.ts")).href] : [];
    for (let w = 0; w < W; w++) {
      workers.push(
        spawn(
          process.execPath,
          [
            ...profile,
            "--import",
            "tsx",
            ...countStatementsImport,
            ...standInPreload,
            workerEntry(engine, workerRoot, root),
          ],
          {
            cwd: workerRoot,
            env: run.workerEnv(shopify ? { ...APP_ENV, SHOPIFY_ADMIN_STAND_IN_URL: shopify.url } : {}),
            stdio: ["ignore", "ignore", "pipe"],
          },
        ),
      );
    }
    const readers = workers.map((w, i) => statsReader(w, `worker ${i + 1}`));
    // Three times the ideal, and at least 10 leads a second when the key's limit is out of the way.
    const deadline = started + Math.max((N / R) * 60_000 * 3, N * 100) + 30_000;
    const warmUp = Math.max(1, Math.floor(N / 10));
    let atWarm: { stats: ProcessStats; settled: number } | undefined;
    while (Date.now() < deadline) {
      const settled = await db.orderLink.count({ where: { state: { in: ["created", "damaged"] } } });
      if (!atWarm && settled >= warmUp)
        atWarm = { stats: sumStats(await Promise.all(readers.map((r) => r.read()))), settled };
      if (settled === N) break;
      await new Promise((r) => setTimeout(r, 50));
    }
    // With Shopify: up to the last write-back and Flow firing of those leads (their events told first).
    while (SHOPIFY && Date.now() < deadline) {
      const waiting = await db.job.count({
        where: { kind: { in: FOLLOW_UP_KINDS }, state: { in: ["pending", "running", "failed"] } },
      });
      if (waiting === 0 && (await db.pendingLeadEvent.count()) === 0) break;
      await new Promise((r) => setTimeout(r, 200));
    }
    const stats = sumStats(await Promise.all(readers.map((r) => r.read())));
    const wallSeconds = (Date.now() - started) / 1000;
    const calls = (await control.getKey(key.id)).calls;
    const posts = calls.filter((c) => c.method === "POST" && c.path.startsWith("/v1/leads") && c.status < 300);
    const first = Date.parse(calls.find((c) => Date.parse(c.at) >= started)?.at ?? new Date(started).toISOString());
    const last = Math.max(...posts.map((c) => Date.parse(c.at)));
    const ideal = (N / R) * 60_000;
    const span = last - first + 60_000 / R; // the last call's own slot counts
    const settled = await db.orderLink.count({ where: { state: { in: ["created", "damaged"] } } });
    const rejected = calls.filter((c) => c.status === 429).length;
    const leadsPerSecond = posts.length / ((last - first) / 1000);
    console.log(
      `settled ${settled}/${N}; ${calls.filter((c) => Date.parse(c.at) >= started).length} calls after start, ${rejected} answered 429`,
    );
    console.log(
      `drain span ${(span / 1000).toFixed(1)} s for an ideal N/R of ${(ideal / 1000).toFixed(1)} s: ratio ${(span / ideal).toFixed(3)} (target <= 1.05)`,
    );
    console.log(
      `throughput ${leadsPerSecond.toFixed(1)} leads/s over the span (the workers' own speed when the limit is higher)`,
    );
    console.log(`wall time including worker start-up: ${wallSeconds.toFixed(1)} s`);
    if (shopify) {
      const done = await db.job.groupBy({
        by: ["kind", "state"],
        where: { kind: { in: FOLLOW_UP_KINDS } },
        _count: true,
      });
      const flowReceived = (await shopifyAdminControl(shopify.url).flow(SHOP)).received.length;
      console.log(
        `follow-ups: ${done.map((d) => `${d.kind} ${d.state} ${d._count}`).join(", ") || "none"}; Flow received ${flowReceived} trigger(s)`,
      );
    }
    printPerLead("per posted lead (all workers, from the first statement)", stats, settled);
    const steady = { stats: minusStats(stats, atWarm?.stats), leads: settled - (atWarm?.settled ?? 0) };
    printPerLead(
      `per posted lead in steady state (the last ${steady.leads}, after ${atWarm?.settled ?? 0} to warm up)`,
      steady.stats,
      steady.leads,
    );
    const back = shopify && values["way-back"] !== "off" ? await wayBack(db, control) : undefined;
    return { label, settled, rejected, ratio: span / ideal, leadsPerSecond, wallSeconds, stats, steady, back };
  } finally {
    await run.close(async () => shopify?.close());
  }
}

/** One platform event every so often: 2.5 a second, under the key's 200 calls a minute. */
const EVENT_EVERY_MS = 400;

/** The platform confirms each posted lead and says so by event; how long until each Shopify order shows it. */
async function wayBack(db: PrismaClient, control: EngineRun["control"]): Promise<NonNullable<DrainResult["back"]>> {
  const links = await db.orderLink.findMany({
    where: { state: { in: ["created", "damaged"] }, leadRef: { not: null } },
    select: { id: true, leadRef: true },
  });
  const since = new Date();
  const eventAt = new Map<string, number>();
  for (const link of links) {
    await control.advance(link.leadRef!, { confirmation_status: "confirmed" });
    await enqueueJob(db, refreshLeadJobFor(SHOP, link.leadRef!));
    eventAt.set(link.id, Date.now());
    await new Promise((r) => setTimeout(r, EVENT_EVERY_MS));
  }
  const writtenBack = () =>
    db.timelineEvent.findMany({
      where: { kind: "written_back", at: { gte: since }, linkId: { in: links.map((l) => l.id) } },
      select: { linkId: true, at: true, data: true },
      orderBy: { at: "asc" },
    });
  // A bound for a write-back that never comes, not a speed.
  const deadline = Date.now() + 120_000;
  let rows = await writtenBack();
  while (new Set(rows.map((r) => r.linkId)).size < links.length && Date.now() < deadline) {
    await new Promise((r) => setTimeout(r, 200));
    rows = await writtenBack();
  }
  const first = new Map<string, (typeof rows)[number]>();
  for (const row of rows) if (!first.has(row.linkId)) first.set(row.linkId, row);
  const fromEvent = [...first.values()].map((r) => (r.at.getTime() - eventAt.get(r.linkId)!) / 1000);
  const fromStatus = [...first.values()].map((r) => ((JSON.parse(r.data ?? "{}").lagMs as number) ?? NaN) / 1000);
  const back = { fromEvent: quantiles(fromEvent), fromStatus: quantiles(fromStatus), written: first.size };
  const show = (q: Quantiles) => `p50 ${q.p50.toFixed(2)} s, p95 ${q.p95.toFixed(2)} s, max ${q.max.toFixed(2)} s`;
  console.log(
    `the way back, ${back.written}/${links.length} confirmed leads written to Shopify: from the platform's event ${show(back.fromEvent)}; from the status recorded ${show(back.fromStatus)}`,
  );
  return back;
}

function quantiles(values: number[]): Quantiles {
  const sorted = [...values].sort((a, b) => a - b);
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? NaN;
  return { p50: at(0.5), p95: at(0.95), max: sorted[sorted.length - 1] ?? NaN };
}

const per = (n: number, leads: number) => (leads > 0 ? n / leads : NaN);

function printPerLead(what: string, stats: ProcessStats, leads: number): void {
  console.log(
    `${what}: CPU ${per(stats.cpuMs, leads).toFixed(2)} ms (target <= 5), ` +
      `${per(stats.statements, leads).toFixed(1)} SQL statements (target <= 12) + ${per(stats.begins, leads).toFixed(2)} BEGIN / ` +
      `${per(stats.commits, leads).toFixed(2)} COMMIT / ${per(stats.rollbacks, leads).toFixed(2)} ROLLBACK`,
  );
}

const engines = enginesOf(values);
const results: DrainResult[] = [];
if (values.compare)
  results.push(
    await drain(
      `baseline ${values.compare}`,
      resolve(values.compare),
      values["cpu-prof"] && join(values["cpu-prof"], "baseline"),
      { kind: "ours" },
    ),
  );
for (const engine of engines) {
  const label = engines.length === 1 && engine.kind === "ours" ? "this checkout" : engineLabel(engine);
  const profileDir = values["cpu-prof"] && (engines.length > 1 ? join(values["cpu-prof"], label) : values["cpu-prof"]);
  results.push(await drain(label, root, profileDir, engine));
}
if (results.length > 1) {
  console.log("\nside by side (per posted lead, all workers):");
  console.log(
    [
      "run",
      "settled",
      "leads/s",
      "ratio",
      "429s",
      "CPU ms",
      "statements",
      "commits",
      "steady CPU",
      "steady stmts",
      "back p50 s",
      "back p95 s",
      "status p95 s",
    ]
      .map((h, i) => h.padStart(i === 0 ? 20 : 12))
      .join(" "),
  );
  for (const r of results) {
    console.log(
      [
        r.label.slice(0, 20),
        r.settled,
        r.leadsPerSecond.toFixed(1),
        r.ratio.toFixed(3),
        r.rejected,
        per(r.stats.cpuMs, r.settled).toFixed(2),
        per(r.stats.statements, r.settled).toFixed(1),
        per(r.stats.commits, r.settled).toFixed(2),
        per(r.steady.stats.cpuMs, r.steady.leads).toFixed(2),
        per(r.steady.stats.statements, r.steady.leads).toFixed(1),
        r.back ? r.back.fromEvent.p50.toFixed(2) : "-",
        r.back ? r.back.fromEvent.p95.toFixed(2) : "-",
        r.back ? r.back.fromStatus.p95.toFixed(2) : "-",
      ]
        .map((v, i) => String(v).padStart(i === 0 ? 20 : 12))
        .join(" "),
    );
  }
}
