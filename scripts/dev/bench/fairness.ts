/**
 * `npm run bench -- fairness [--shops 50] [--per-minute 60] [--flash 3000]
 *   [--rate 120] [--minutes 3] [--workers 2]
 *   [--engine ours|graphile[:QUEUES] | --engines ours,graphile,...]`
 *
 * Every shop receives --per-minute orders a minute; after a 20 s warm-up one
 * shop also receives --flash orders at once (a flash sale). Each shop has its
 * own key, limited by the sandbox to --rate calls a minute, and W worker
 * processes (`worker.ts`) post the leads. Reports, for orders received
 * from the flash sale on: the other shops' p50/p95/max from webhook (intake
 * commit, OrderLink.createdAt) to lead created (postedAt); the flash-sale shop's
 * posting rate against its key's rate (the claim order's FIFO baseline is
 * `npm run bench -- claim`). Orders are taken in by calling the webhook's
 * intake directly (the route's work without HTTP/HMAC).
 *
 * `--engine graphile` runs the workers as the graphile-worker candidate
 * (lib/queue-engines.ts); `--engines ours,graphile` runs each in turn, each on a
 * fresh database and sandbox, and prints them side by side.
 */
import { randomBytes } from "node:crypto";
import { spawn } from "node:child_process";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { connectShop } from "../lib/connected-shop";
import { webhookOrder } from "../lib/order-payloads";
import { createPipelineDeps } from "../../../app/sync/pipeline-deps.server";
import { DEFAULT_SPACING_MARGIN } from "../../../app/sync/db-rate-limiter.server";
import { ensureReferenceData } from "../../../app/sync/reference-data.server";
import { intakeOrderCreated } from "../../../app/sync/order-intake.server";
import { openEngineRun } from "./lib/engine-run";
import { freePort } from "../../lib/ports";
import { describeFigures, figuresOf, scrape } from "./lib/process-metrics";
import { ENGINE_OPTIONS, engineLabel, enginesOf, workerEntry, type QueueEngine } from "./lib/queue-engines";

const { values } = parseArgs({
  options: {
    shops: { type: "string", default: "50" },
    "per-minute": { type: "string", default: "60" },
    flash: { type: "string", default: "3000" },
    rate: { type: "string", default: "120" },
    minutes: { type: "string", default: "3" },
    workers: { type: "string", default: "2" },
    ...ENGINE_OPTIONS,
  },
});
const SHOPS = Number(values.shops);
const PER_MINUTE = Number(values["per-minute"]);
const FLASH = Number(values.flash);
const R = Number(values.rate);
const MINUTES = Number(values.minutes);
const W = Number(values.workers);
const WARM_UP_MS = 20_000;
const root = join(import.meta.dirname, "..", "..", "..");
process.env.ENCRYPTION_KEY ||= randomBytes(32).toString("base64");

const countBy = (xs: string[]) => xs.reduce((m, x) => m.set(x, (m.get(x) ?? 0) + 1), new Map<string, number>());
const quantile = (sorted: number[], q: number) =>
  sorted.length ? sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] : NaN;
const s = (ms: number) => `${(ms / 1000).toFixed(2)} s`;

interface FairnessResult {
  label: string;
  /** The other shops' webhook → lead, ms. */
  p50: number;
  p95: number;
  max: number;
  unposted: number;
  /** The flash-sale shop's posting rate over its key's. */
  flashShare: number;
  rejected: number;
  lagged: number;
  flashTakenMs: number;
}

async function fairness(engine: QueueEngine): Promise<FairnessResult> {
  let result: FairnessResult | undefined;
  const run = await openEngineRun(engine, R);
  const { db, sandbox, control, workers } = run;
  /** Each worker's /metrics: its figures are read there at the end. */
  const workerMetrics: string[] = [];
  const keyIds: string[] = [];
  let flashKeyId = "";
  const shopName = (i: number) => `fair-${String(i).padStart(2, "0")}.myshopify.com`;
  const FLASH_SHOP = shopName(0);
  const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

  let nextOrder = 5_600_000_000_000;
  async function receive(shop: string): Promise<void> {
    const id = ++nextOrder;
    const body = webhookOrder({ id, phone: `06${String(id).slice(-8)}` });
    await db.$transaction((tx) => intakeOrderCreated(tx, shop, body));
  }

  try {
    const deps = createPipelineDeps(db);
    await Promise.all(
      Array.from({ length: SHOPS }, async (_, i) => {
        const key = await control.createKey({ account: "ACC-1001", name: `bench ${i}` });
        keyIds.push(key.id);
        if (i === 0) flashKeyId = key.id;
        const shop = await connectShop(db, {
          shop: shopName(i),
          apiKey: key.key,
          baseUrl: sandbox.url,
          // No Shopify runs beside the bench: write-back and Flow triggers (Admin API calls) are off.
          settings: {
            writeBack: { tags: false, fulfillment: false, markPaid: false, cancel: false },
            flowTriggers: { leadCreated: false, leadStatusChanged: false, orderNeedsAttention: false },
          },
        });
        // Steady state: reference lists cached (through the shared limiter, so the pace holds).
        await ensureReferenceData(db, shop, deps.connect(shop).client, { now: new Date() });
      }),
    );
    console.log(
      `fairness benchmark (${engineLabel(engine)}): ${SHOPS} shops at ${PER_MINUTE} orders/min, ${FLASH} at once to one shop after ${WARM_UP_MS / 1000} s, ` +
        `key limit ${R}/min, ${W} worker processes, ${MINUTES} min`,
    );
    for (let w = 0; w < W; w++) {
      const metricsPort = await freePort();
      workerMetrics.push(`http://127.0.0.1:${metricsPort}/metrics`);
      workers.push(
        spawn(process.execPath, ["--import", "tsx", workerEntry(engine, root, root)], {
          cwd: root,
          env: run.workerEnv({ METRICS_PORT: String(metricsPort) }),
          stdio: ["ignore", "ignore", "inherit"],
        }),
      );
    }

    const started = Date.now();
    const endAt = started + MINUTES * 60_000;
    let flashAt = 0;
    let lagged = 0;
    // Steady load: every shop gets PER_MINUTE orders a minute, spread over each second.
    const steady = (async () => {
      const perTickMs = 60_000 / PER_MINUTE;
      for (let tick = 0; Date.now() < endAt; tick++) {
        const due = started + tick * perTickMs;
        if (Date.now() < due) await sleep(due - Date.now());
        else if (Date.now() - due > perTickMs) lagged++;
        for (let i = 0; i < SHOPS; i++) await receive(shopName(i));
      }
    })();
    await sleep(WARM_UP_MS);
    flashAt = Date.now();
    for (let i = 0; i < FLASH; i++) await receive(FLASH_SHOP);
    const flashTakenMs = Date.now() - flashAt;
    await steady;
    // Let the last steady orders post (the flash sale's backlog is not waited for).
    const settleUntil = Date.now() + 30_000;
    while (Date.now() < settleUntil) {
      const waiting = await db.orderLink.count({
        where: { shop: { not: FLASH_SHOP }, state: { notIn: ["created", "damaged"] } },
      });
      if (waiting === 0) break;
      await sleep(500);
    }
    const stoppedAt = Date.now();

    const links = await db.orderLink.findMany({
      where: { createdAt: { gte: new Date(flashAt) } },
      select: { shop: true, state: true, createdAt: true, postedAt: true },
    });
    const others = links.filter((l) => l.shop !== FLASH_SHOP);
    const latencies = others
      .map((l) => (l.postedAt ? l.postedAt.getTime() : stoppedAt) - l.createdAt.getTime())
      .sort((a, b) => a - b);
    const unposted = others.filter((l) => !l.postedAt).length;
    const flashPosts = await db.orderLink.findMany({
      where: { shop: FLASH_SHOP, postedAt: { gte: new Date(flashAt), lte: new Date(endAt) } },
      select: { postedAt: true },
    });
    const flashRate = flashPosts.length / ((endAt - flashAt) / 60_000);
    const calls = (await Promise.all(keyIds.map((id) => control.getKey(id)))).flatMap((k) => k.calls);
    const rejected = calls.filter((c) => c.status === 429).length;

    console.log(
      `flash sale taken in ${s(flashTakenMs)}; steady-load ticks behind schedule: ${lagged}; ${calls.length} platform calls, ${rejected} answered 429`,
    );
    console.log(
      `other shops (${others.length} orders from the flash sale on): webhook to lead p50 ${s(quantile(latencies, 0.5))}, ` +
        `p95 ${s(quantile(latencies, 0.95))}, max ${s(latencies.at(-1) ?? NaN)}; ${unposted} not posted by the end (counted at the end time); target p95 < 5 s`,
    );
    console.log(
      `flash-sale shop: ${flashPosts.length} leads in ${s(endAt - flashAt)}: ${flashRate.toFixed(1)}/min for a key limit of ${R}/min ` +
        `(ratio ${(flashRate / R).toFixed(3)}, target >= 0.95)`,
    );
    // Where the flash-sale key's budget went: its calls in the window by kind, and
    // the time it stood idle (each gap between calls beyond the limiter's spacing).
    const flashCalls = (await control.getKey(flashKeyId)).calls
      .map((c) => ({
        kind: `${c.method} ${c.path.replace(/\/[0-9A-Z-]{4,}.*$/, "/:id").replace(/\?.*$/, "")} ${c.status}`,
        at: Date.parse(c.at),
      }))
      .filter((c) => c.at >= flashAt && c.at <= endAt);
    const spacingMs = (60_000 / R) * (1 + DEFAULT_SPACING_MARGIN);
    let idleMs = 0;
    for (let i = 1; i < flashCalls.length; i++)
      idleMs += Math.max(0, flashCalls[i].at - flashCalls[i - 1].at - spacingMs);
    const byKind = [...countBy(flashCalls.map((c) => c.kind))].map(([k, n]) => `${k}: ${n}`).join(", ");
    console.log(
      `flash-sale key: ${flashCalls.length} calls in the window (${byKind}); idle beyond the spacing ${s(idleMs)}`,
    );
    result = {
      label: engineLabel(engine),
      p50: quantile(latencies, 0.5),
      p95: quantile(latencies, 0.95),
      max: latencies.at(-1) ?? NaN,
      unposted,
      flashShare: flashRate / R,
      rejected,
      lagged,
      flashTakenMs,
    };
    // The workers' own figures, from their metrics.
    for (const [i, url] of workerMetrics.entries()) {
      const scraped = await scrape(url).catch(() => undefined);
      console.log(
        scraped
          ? describeFigures(`worker ${i + 1}`, figuresOf(scraped), scraped)
          : `worker ${i + 1}: no metrics at ${url}`,
      );
    }
  } finally {
    await run.close();
  }
  return result!;
}

const engines = enginesOf(values);
const results: FairnessResult[] = [];
for (const engine of engines) results.push(await fairness(engine));
if (results.length > 1) {
  console.log("\nside by side (from the flash sale on):");
  const row = (cells: (string | number)[]) => cells.map((c, i) => String(c).padStart(i === 0 ? 20 : 14)).join(" ");
  console.log(
    row(["run", "others p50 s", "others p95 s", "others max s", "not posted", "flash share", "429s", "ticks late"]),
  );
  for (const r of results)
    console.log(
      row([
        r.label,
        (r.p50 / 1000).toFixed(2),
        (r.p95 / 1000).toFixed(2),
        (r.max / 1000).toFixed(2),
        r.unposted,
        r.flashShare.toFixed(3),
        r.rejected,
        r.lagged,
      ]),
    );
}
