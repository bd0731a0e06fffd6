/**
 * Chaos with the conversion feed on: 200 orders placed in the Shopify Admin
 * stand-in, one webhook in ten lost (the reconciliation brings those in), the
 * others delivered one to three times; a quarter of the buyers allowed
 * marketing at checkout, some refused it, the rest sent no signal (form-app
 * orders among them); the platform confirms, ships and delivers or takes back
 * the parcels while Meta's and TikTok's stand-ins answer 429 storms, 5xx, cut
 * connections and a request taken whose answer is lost, and the worker is
 * killed with SIGKILL three times while the feed sends. In the end, through
 * the stand-ins' control APIs: one event per order and stage at each platform
 * (what was sent again kept once), only for buyers who allowed marketing, none
 * older than 7 days when it arrived, and every outcome of the feed's rows
 * settled.
 */
import type { ChildProcess } from "node:child_process";
import { afterAll, beforeAll, expect, it } from "vitest";
import type { ActionFunctionArgs } from "@remix-run/node";
import { startSandbox, sandboxControl } from "../../sandbox/index";
import {
  orderFromWebhook,
  startShopifyAdmin,
  type RunningShopifyAdmin,
  type WebhookOrderPayload,
} from "../../shopify-admin/index";
import {
  adStandInControl,
  MAX_EVENT_AGE_S,
  startMetaStandIn,
  startTikTokStandIn,
  type RunningStandIn,
} from "../../ads-stand-in/index";
import { enqueueJob } from "../../app/queue/jobs.server";
import { reconcileJobFor, syncJobFor } from "../../app/models/job-kinds";
import { secretBoxFromEnv } from "../../app/env.server";
import { useTestDatabaseForApp } from "../helpers/app";
import type { TestDatabase } from "../helpers/db";
import { signedWebhookRequest } from "../helpers/webhooks";
import { SHOP } from "../helpers/pipeline";
import { feedOrder } from "../ad-feed/helpers";
import { ensurePreviewBuild, removePreviewBuild } from "../helpers/preview-server";
import { countBy, installChaosShop, seededRandom, spawnChaosWorker, waitUntilSettled } from "./chaos-steps";

const ORDERS = 200;
const DATASET = "1234567890123";
const META_TOKEN = "EAAGchaos0000000000000000000001";
const PIXEL = "CCHAOS00000000000001";
const TIKTOK_TOKEN = "tt-chaos-0000000000000000001";

let db: TestDatabase;
let sandbox: Awaited<ReturnType<typeof startSandbox>>;
let shopify: RunningShopifyAdmin;
let meta: RunningStandIn;
let tiktok: RunningStandIn;
let worker: ChildProcess | undefined;
let workerLog = "";
let buildDir: string;

const random = seededRandom(20261127);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function startWorker() {
  const child = spawnChaosWorker(buildDir, db.url, (text) => (workerLog += text), {
    SHOPIFY_ADMIN_STAND_IN_URL: shopify.url,
    RECONCILE_INTERVAL_SECONDS: "2",
    META_API_BASE_URL: meta.url,
    TIKTOK_API_BASE_URL: tiktok.url,
    // The stand-ins listen on loopback over http.
    AD_API_ALLOW_PRIVATE_HOSTS: "true",
    AD_API_TIMEOUT_MS: "8000",
  });
  if (process.env.CHAOS_LOG) child.stdout!.pipe(process.stderr);
  return child;
}

beforeAll(async () => {
  // The worker runs as production runs it: build/worker.js.
  buildDir = await ensurePreviewBuild();
  db = await useTestDatabaseForApp();
  sandbox = await startSandbox({ port: 0, quiet: true, rateLimitPerMinute: 1200 });
  shopify = await startShopifyAdmin({ quiet: true });
  shopify.shop(SHOP);
  meta = await startMetaStandIn();
  tiktok = await startTikTokStandIn();
  await adStandInControl(meta.url).credentials({ id: DATASET, token: META_TOKEN });
  await adStandInControl(tiktok.url).credentials({ id: PIXEL, token: TIKTOK_TOKEN });
  await installChaosShop(db.prisma, sandbox);
  // The feed on, both platforms connected (sealed as Settings seals them), delivered counted, refusals and returns too.
  const box = secretBoxFromEnv();
  await db.prisma.adFeed.create({
    data: {
      shop: SHOP,
      enabled: true,
      enabledAt: new Date(Date.now() - 60_000),
      stage: "delivered",
      negativeOutcomes: true,
      metaDatasetId: DATASET,
      metaTokenCipher: box.seal(META_TOKEN, { shop: SHOP, purpose: "meta-access-token" }),
      tiktokPixelCode: PIXEL,
      tiktokTokenCipher: box.seal(TIKTOK_TOKEN, { shop: SHOP, purpose: "tiktok-access-token" }),
    },
  });
  await enqueueJob(db.prisma, reconcileJobFor(SHOP, new Date()));
}, 300_000);
afterAll(async () => {
  worker?.kill("SIGKILL");
  await Promise.all([sandbox?.close(), shopify?.close(), meta?.close(), tiktok?.close()]);
  await db?.cleanup();
  if (buildDir) removePreviewBuild(buildDir);
});

it("tells each platform once per order and stage, with consent, none too old, through storms and three SIGKILLs", async () => {
  const { action } = await import("../../app/routes/webhooks.orders.create");
  const { receivePixelSignal } = await import("../../app/ad-feed/clicks.server");
  const feed = await db.prisma.adFeed.findUniqueOrThrow({ where: { shop: SHOP } });

  // Orders: a quarter with consent at checkout, some refusing, the others with no signal (a fifth from a form app).
  const orders = Array.from({ length: ORDERS }, (_, i) => {
    const roll = random();
    const checkout = roll >= 0.2;
    const body = feedOrder({ id: 5_590_000_000_000 + i, checkout });
    const consent = !checkout ? null : roll < 0.5 ? true : roll < 0.65 ? false : null;
    return { body, consent };
  });
  for (const { body } of orders) {
    const order = orderFromWebhook(body as unknown as WebhookOrderPayload);
    shopify.shop(SHOP).orders[order.id] = order;
  }
  for (const { body, consent } of orders) {
    if (consent === null) continue;
    const message = {
      v: 1,
      orderId: String(body.id),
      checkoutToken: body.checkout_token,
      marketing: consent,
      fbp: "fb.1.1700000000000.7",
      ttclid: "E.C.P.chaos",
    };
    expect(await receivePixelSignal(db.prisma, feed.pixelToken, JSON.stringify(message))).toEqual({ status: 204 });
  }
  const lost = new Set(orders.filter(() => random() < 0.1).map((o) => String(o.body.id)));
  const deliveries = orders.flatMap(({ body }) =>
    lost.has(String(body.id)) ? [] : Array.from({ length: 1 + Math.floor(random() * 3) }, () => body),
  );
  deliveries.sort(() => random() - 0.5);

  worker = startWorker();
  const started = Date.now();
  for (const body of deliveries) {
    const request = signedWebhookRequest({ topic: "orders/create", shop: SHOP, body, webhookId: `wh-${body.id}` });
    const response = await action({ request, params: {}, context: {} } as ActionFunctionArgs);
    expect(response.status).toBe(200);
  }
  expect(await waitUntilSettled(db.prisma, ORDERS)).toBe(0);

  // The platform moves the parcels in waves (70 % delivered, 15 % taken back, 15 % refused on the call), each
  // wave read by a sync and told while Meta's and TikTok's stand-ins answer storms, 5xx and cut connections,
  // and the worker is killed three times while the feed sends.
  const platform = sandboxControl(sandbox.url);
  const metaControl = adStandInControl(meta.url);
  const tiktokControl = adStandInControl(tiktok.url);
  const links = await db.prisma.orderLink.findMany({ where: { shop: SHOP }, orderBy: { orderId: "asc" } });
  const outcome = new Map<string, "delivered" | "returned" | "refused">();
  const kills: number[] = [];
  const WAVE = 10;
  for (let wave = 0; wave * WAVE < links.length; wave++) {
    for (const link of links.slice(wave * WAVE, (wave + 1) * WAVE)) {
      const roll = random();
      const fate = roll < 0.7 ? "delivered" : roll < 0.85 ? "returned" : "refused";
      outcome.set(link.orderId, fate);
      if (fate === "refused") {
        await platform.advance(link.leadRef!, { confirmation_status: "canceled" });
        continue;
      }
      await platform.advance(link.leadRef!, { confirmation_status: "confirmed" });
      for (const shipping of ["picked_up", "shipped", fate] as const)
        await platform.advance(link.leadRef!, { shipping_status: shipping });
    }
    // A 429 storm at each platform, 5xx at Meta, cut connections at TikTok.
    if (wave === 3 || wave === 12) {
      await metaControl.fault({ kind: "rate_limit", times: 3, retryAfterSeconds: 1 });
      await tiktokControl.fault({ kind: "rate_limit", times: 3, retryAfterSeconds: 1 });
    }
    if (wave === 7) await metaControl.fault({ kind: "server_error", times: 2 });
    if (wave === 9) await tiktokControl.fault({ kind: "drop", times: 2 });
    // Accepted, then the answer lost (as when the worker dies mid-request): the events go again, deduplicated.
    if (wave === 4) {
      await metaControl.fault({ kind: "answer_lost" });
      await tiktokControl.fault({ kind: "answer_lost" });
    }
    await enqueueJob(db.prisma, syncJobFor(SHOP, new Date()));
    await sleep(800 + Math.floor(random() * 1200));
    // Killed mid-send: a sync or a feed run in flight when the axe falls.
    if (wave === 5 || wave === 10 || wave === 15) {
      worker.kill("SIGKILL");
      kills.push(Date.now() - started);
      worker = startWorker();
    }
  }
  const deadline = Date.now() + 150_000;
  let settled = false;
  while (Date.now() < deadline) {
    await enqueueJob(db.prisma, syncJobFor(SHOP, new Date()));
    await sleep(1500);
    const rows = await db.prisma.adEvent.count();
    const pending = await db.prisma.adEvent.count({ where: { state: "pending" } });
    if (rows === links.length * 2 && pending === 0) {
      settled = true;
      break;
    }
  }
  worker.kill("SIGTERM");

  const rows = await db.prisma.adEvent.findMany({ where: { shop: SHOP } });
  const linkById = new Map(links.map((l) => [l.id, l]));
  const consentOf = new Map(orders.map((o) => [String(o.body.id), o.consent]));
  const diagnostics = JSON.stringify({
    settled,
    kills,
    states: countBy(rows.map((r) => r.state)),
    log: workerLog.slice(-4000),
  });
  expect(settled, diagnostics).toBe(true);
  // One row per order, its outcome and each platform.
  expect(new Set(rows.map((r) => `${r.linkId}:${r.stage}:${r.platform}`)).size).toBe(rows.length);
  for (const row of rows) {
    const link = linkById.get(row.linkId)!;
    expect(row.stage).toBe(outcome.get(link.orderId));
    expect(row.state, diagnostics).toBe(consentOf.get(link.orderId) === true ? "sent" : "no_consent");
  }

  for (const [control, target] of [
    [metaControl, DATASET],
    [tiktokControl, PIXEL],
  ] as const) {
    const received = await control.received(target);
    const events = received.events.filter((e) => !e.test);
    const perOrderStage = countBy(events.map((e) => e.eventId));
    // Exactly one event per order and stage, each for a buyer who allowed marketing; the lost answer's events
    // were sent again and kept once.
    expect(Object.values(perOrderStage).every((n) => n === 1)).toBe(true);
    expect(received.duplicates, diagnostics).toBeGreaterThan(0);
    const expected = rows.filter((r) => r.state === "sent" && r.platform === (target === DATASET ? "meta" : "tiktok"));
    expect(events.length, diagnostics).toBe(expected.length);
    for (const event of events) {
      const orderId = /^cod-(\d+)-/.exec(event.eventId)![1];
      expect(consentOf.get(orderId)).toBe(true);
      expect(event.eventId).toBe(`cod-${orderId}-${outcome.get(orderId)}`);
      expect(Date.parse(event.receivedAt) / 1000 - event.eventTime).toBeLessThan(MAX_EVENT_AGE_S);
    }
    const refusedForAge = received.requests.filter((r) => /error 100|code 40002/.test(r.outcome));
    expect(refusedForAge).toEqual([]);
    console.info(
      `chaos feed ${target === DATASET ? "Meta" : "TikTok"}: ${events.length} events kept, ${received.duplicates} sent again (an answer lost, a kill) and deduplicated by event_id, requests ${JSON.stringify(countBy(received.requests.map((r) => r.outcome)))}`,
    );
  }
  console.info(
    `chaos feed: ${ORDERS} orders, ${lost.size} webhooks lost, kills at ${kills.join("/")} ms, rows ${JSON.stringify(countBy(rows.map((r) => `${r.platform}:${r.state}`)))}`,
  );
}, 300_000);
