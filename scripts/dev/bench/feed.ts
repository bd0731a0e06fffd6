/**
 * `npm run bench -- feed [--orders 300] [--workers 1] [--shopify on|off] [--plan standard|advanced|plus]`
 *
 * The conversion feed's cost and speed, side by side with the same run
 * without it. Each round, on a fresh embedded PostgreSQL: N orders queued
 * and posted by W worker processes (the count-statements preload counts
 * their SQL and CPU), write-back and Flow on as a real shop has them (the
 * Shopify Admin stand-in beside; `--shopify off` leaves both off), then every
 * lead confirmed, shipped and delivered on the sandbox at once, read by one
 * status sync, its write-back and Flow firings done and, with the feed on,
 * its outcome told to Meta and TikTok (the stand-ins, in this process; every
 * order sent from customer data, half with click ids).
 *
 * Reports, per lead and for both rounds: the workers' CPU and SQL statements
 * for its whole life (posted, delivered, written back, and its outcome told),
 * against the budget (5 ms, 12 statements), and for the delivery phase alone;
 * and for the feed: events accepted, events a second per worker over the
 * burst, CPU and statements per event (the delivery phases' difference), and
 * the time from the status change the sync saw to the event accepted (p50,
 * p95, max).
 */
import { randomBytes } from "node:crypto";
import { spawn, type ChildProcess } from "node:child_process";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { pathToFileURL } from "node:url";
import { startSandbox, sandboxControl } from "../../../sandbox/index";
import { adStandInControl, startMetaStandIn, startTikTokStandIn } from "../../../ads-stand-in/index";
import { connectShop, SHOP } from "../lib/connected-shop";
import { webhookOrder } from "../lib/order-payloads";
import { createPrismaClient } from "../../../app/db/client";
import { createPipelineDeps } from "../../../app/sync/pipeline-deps.server";
import { ensureReferenceData } from "../../../app/sync/reference-data.server";
import { intakeOrderCreated } from "../../../app/sync/order-intake.server";
import { enqueueJob } from "../../../app/queue/jobs.server";
import { syncJobFor } from "../../../app/models/job-kinds";
import { secretBoxFromEnv } from "../../../app/env.server";
import { shopifyAdminControl, PLAN_LIMITS, type ShopifyPlan } from "../../../shopify-admin/index";
import { openBenchDatabase } from "./lib/bench-database";
import { countStatementsImport, minusStats, statsReader, sumStats, type ProcessStats } from "./lib/worker-stats";
import { APP_ENV, benchShopSettings, shopifyBeside } from "./lib/shopify-beside";

const { values } = parseArgs({
  options: {
    orders: { type: "string", default: "300" },
    workers: { type: "string", default: "1" },
    shopify: { type: "string", default: "on" },
    plan: { type: "string", default: "plus" },
  },
});
const N = Number(values.orders);
const W = Number(values.workers);
const SHOPIFY = values.shopify === "on";
const PLAN = values.plan as ShopifyPlan;
if (!(PLAN in PLAN_LIMITS)) throw new Error(`--plan: one of ${Object.keys(PLAN_LIMITS).join(", ")}`);
const root = join(import.meta.dirname, "..", "..", "..");
process.env.ENCRYPTION_KEY ||= randomBytes(32).toString("base64");
const DATASET = "1234567890123";
// Loopback stand-in only: plainly not a Meta token.
const META_TOKEN = "bench-meta-token-not-a-secret";
const PIXEL = "CBENCH00000000000001";
const TIKTOK_TOKEN = "bench-tiktok-token-not-a-secret";
const FOLLOW_UP_KINDS = ["write-back", "flow-trigger", "ad-feed"];

interface Round {
  feed: boolean;
  stats: ProcessStats;
  /** The delivery phase alone: the sync, its write-back and Flow firings and, with the feed, the events told. */
  delivery: ProcessStats;
  events: number;
  latenciesMs: number[];
  burstSeconds: number;
  wallSeconds: number;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function round(feed: boolean): Promise<Round> {
  const database = await openBenchDatabase();
  const db = createPrismaClient(database.url);
  const sandbox = await startSandbox({ port: 0, quiet: true, rateLimitPerMinute: 60_000 });
  const platform = sandboxControl(sandbox.url);
  const meta = await startMetaStandIn();
  const tiktok = await startTikTokStandIn();
  await adStandInControl(meta.url).credentials({ id: DATASET, token: META_TOKEN });
  await adStandInControl(tiktok.url).credentials({ id: PIXEL, token: TIKTOK_TOKEN });
  const key = sandbox.keys.find((k) => k.account === "ACC-1001")!;
  const workers: ChildProcess[] = [];
  const shopify = SHOPIFY ? await shopifyBeside(db, root, PLAN) : undefined;
  try {
    const shop = await connectShop(db, {
      apiKey: key.key,
      baseUrl: sandbox.url,
      settings: benchShopSettings(SHOPIFY),
    });
    const deps = createPipelineDeps(db);
    await ensureReferenceData(db, shop, deps.connect(shop).client, { now: new Date() });
    if (feed) {
      const box = secretBoxFromEnv();
      await db.adFeed.create({
        data: {
          shop: SHOP,
          enabled: true,
          enabledAt: new Date(),
          withoutConsentSignal: true,
          metaDatasetId: DATASET,
          metaTokenCipher: box.seal(META_TOKEN, { shop: SHOP, purpose: "meta-access-token" }),
          tiktokPixelCode: PIXEL,
          tiktokTokenCipher: box.seal(TIKTOK_TOKEN, { shop: SHOP, purpose: "tiktok-access-token" }),
        },
      });
    }
    for (let i = 0; i < N; i++) {
      const id = 5_600_000_000_000 + i;
      const body = {
        ...webhookOrder({ id, phone: `06${String(40000000 + i).padStart(8, "0")}` }),
        checkout_token: `chk-${id}`,
        client_details: { browser_ip: "105.66.12.34", user_agent: "Mozilla/5.0 (Linux; Android 14)" },
      };
      if (shopify) await shopifyAdminControl(shopify.url).placeOrder(SHOP, body, { deliver: false });
      await db.$transaction((tx) => intakeOrderCreated(tx, SHOP, body));
      // Half the buyers allowed marketing at checkout: their click ids travel too.
      if (feed && i % 2 === 0)
        await db.adClick.create({
          data: {
            shop: SHOP,
            orderId: String(id),
            checkoutToken: `chk-${id}`,
            marketing: true,
            fbp: "fb.1.1700000000000.9",
            ttclid: "E.C.P.bench",
          },
        });
    }
    const started = Date.now();
    const preload = shopify ? ["--import", pathToFileURL(join(root, "shopify-admin", "register.ts")).href] : [];
    for (let w = 0; w < W; w++)
      workers.push(
        spawn(process.execPath, ["--import", "tsx", ...countStatementsImport, ...preload, join(root, "worker.ts")], {
          cwd: root,
          env: {
            ...process.env,
            NODE_ENV: "production",
            SELLER_API_ALLOW_PRIVATE_HOSTS: "true",
            AD_API_ALLOW_PRIVATE_HOSTS: "true",
            META_API_BASE_URL: meta.url,
            TIKTOK_API_BASE_URL: tiktok.url,
            DATABASE_URL: database.url,
            LOG_LEVEL: "warn",
            ...(shopify ? { ...APP_ENV, SHOPIFY_ADMIN_STAND_IN_URL: shopify.url } : {}),
          },
          stdio: ["ignore", "ignore", "pipe"],
        }),
      );
    const readers = workers.map((w, i) => statsReader(w, `worker ${i + 1}`));
    const settle = async (what: string, done: () => Promise<boolean>) => {
      const deadline = Date.now() + Math.max(120_000, N * 400);
      while (!(await done())) {
        if (Date.now() > deadline) throw new Error(`${what}: not settled in time`);
        await sleep(200);
      }
    };
    const followUpsDone = async () =>
      (await db.job.count({
        where: { kind: { in: FOLLOW_UP_KINDS }, state: { in: ["pending", "running", "failed"] } },
      })) === 0 && (await db.pendingLeadEvent.count()) === 0;
    await settle(
      "posting",
      async () => (await db.orderLink.count({ where: { state: "created" } })) === N && followUpsDone(),
    );

    const posted = sumStats(await Promise.all(readers.map((r) => r.read())));
    // Every parcel delivered at once, read by one sync.
    const links = await db.orderLink.findMany({ where: { shop: SHOP }, select: { leadRef: true } });
    for (const link of links) {
      await platform.advance(link.leadRef!, { confirmation_status: "confirmed" });
      for (const shipping of ["picked_up", "shipped", "delivered"] as const)
        await platform.advance(link.leadRef!, { shipping_status: shipping });
    }
    await enqueueJob(db, syncJobFor(SHOP, new Date()));
    await settle(
      "delivery",
      async () =>
        (await db.orderLink.count({ where: { shippingStatus: "delivered" } })) === N &&
        (await followUpsDone()) &&
        (!feed || (await db.adEvent.count({ where: { state: "sent" } })) === 2 * N),
    );
    const stats = sumStats(await Promise.all(readers.map((r) => r.read())));
    const sent = feed
      ? await db.adEvent.findMany({ where: { state: "sent" }, select: { occurredAt: true, sentAt: true } })
      : [];
    const latenciesMs = sent.map((e) => e.sentAt!.getTime() - e.occurredAt.getTime()).sort((a, b) => a - b);
    const first = Math.min(...sent.map((e) => e.occurredAt.getTime()));
    const last = Math.max(...sent.map((e) => e.sentAt!.getTime()));
    return {
      feed,
      stats,
      delivery: minusStats(stats, posted),
      events: sent.length,
      latenciesMs,
      burstSeconds: sent.length ? (last - first) / 1000 : 0,
      wallSeconds: (Date.now() - started) / 1000,
    };
  } finally {
    for (const w of workers) w.kill("SIGTERM");
    await Promise.all(workers.map((w) => new Promise((r) => (w.exitCode !== null ? r(null) : w.on("exit", r)))));
    await Promise.all([sandbox.close(), meta.close(), tiktok.close(), shopify?.close()]);
    await db.$disconnect();
    await database.close();
  }
}

const quantile = (sorted: number[], q: number) =>
  sorted.length ? sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] : NaN;
const per = (n: number, d: number) => (d > 0 ? n / d : NaN);

console.log(
  `feed benchmark: ${N} orders, ${W} worker process(es), PostgreSQL (embedded)${SHOPIFY ? `, write-back and Flow on (Shopify ${PLAN} plan)` : ", no Shopify"}; each lead posted, then confirmed, shipped and delivered; both rounds in one run`,
);
const off = await round(false);
const on = await round(true);
for (const r of [off, on])
  console.log(
    `feed ${r.feed ? "on " : "off"}: per lead (whole life: posted, delivered, written back${r.feed ? ", told to Meta and TikTok" : ""}): CPU ${per(r.stats.cpuMs, N).toFixed(2)} ms (budget 5), ${per(r.stats.statements, N).toFixed(1)} statements (budget 12) + ${per(r.stats.begins, N).toFixed(2)} BEGIN / ${per(r.stats.commits, N).toFixed(2)} COMMIT; wall ${r.wallSeconds.toFixed(1)} s`,
  );
for (const r of [off, on])
  console.log(
    `feed ${r.feed ? "on " : "off"}: the delivery phase alone (one sync, write-back, Flow${r.feed ? ", the feed" : ""}): CPU ${per(r.delivery.cpuMs, N).toFixed(2)} ms and ${per(r.delivery.statements, N).toFixed(1)} statements per lead`,
  );
console.log(
  `feed: ${on.events} events accepted (Meta and TikTok) in a burst of ${on.burstSeconds.toFixed(1)} s: ${per(on.events, on.burstSeconds * W).toFixed(0)} events/s per worker; per event ${per(on.delivery.cpuMs - off.delivery.cpuMs, on.events).toFixed(3)} ms CPU and ${per(on.delivery.statements - off.delivery.statements, on.events).toFixed(2)} statements (the delivery phases' difference)`,
);
console.log(
  `status change seen -> event accepted: p50 ${(quantile(on.latenciesMs, 0.5) / 1000).toFixed(2)} s, p95 ${(quantile(on.latenciesMs, 0.95) / 1000).toFixed(2)} s, max ${(quantile(on.latenciesMs, 1) / 1000).toFixed(2)} s (the lead-events batch every 2 s, then the job)`,
);
