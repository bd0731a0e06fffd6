/**
 * `npm run demo`: the whole app on its embedded defaults, in one process tree.
 * An embedded PostgreSQL (its data kept between runs, the demo's database made
 * afresh), the sandbox (autopilot), a Shopify Admin stand-in, Meta's and
 * TikTok's stand-ins, the production build and its worker in a process of its
 * own, as deployed, the demo shop installed through the app's token exchange,
 * connected to seller ACC-1001 and its conversion feed to both ad platforms on,
 * the order payloads replayed as signed webhooks (each order created in the
 * stand-in first), then a summary; it keeps running (statuses move, are written
 * back and told to the ads) with a local preview of the embedded admin, or
 * prints JSON and exits.
 */
import { randomBytes } from "node:crypto";
import { rmSync, writeFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { shownPath } from "./shown-path";
import { fileURLToPath } from "node:url";
import type { PrismaClient } from "@prisma/client";
import { createPrismaClient } from "../../../app/db/client";
import { startSandbox } from "../../../sandbox/index";
import { prepareBuild, privateBuildDir } from "../lib/app-build";
import { orderIdOf, readOrderFiles, type Expectation, type OrderDelivery } from "../lib/order-files";
import { isPortFree } from "../../lib/ports";
import { shopifyAdminControl } from "../../../shopify-admin/index";
import { deliverWebhook } from "../lib/webhook-signing";
import { startServerProcess, startWorkerProcess } from "../lib/app-process";
import { connectDemoShop, DEMO_ACCOUNT, DEMO_API_KEY, DEMO_SCOPES, DEMO_SHOP, fetchSellerAccount } from "./demo-shop";
import { openDemoDatabase } from "./database";
import { embeddedAppUrl, installThroughTokenExchange } from "./install-shop";
import type { DemoOptions } from "./options";
import { startPreviewServer } from "./preview-server";
import { sendOrders } from "./send-orders";
import { SECOND_ACCOUNT, SECOND_SHOP, startDemoShopifyAdmin } from "./shopify-admin-world";
import { readFlowTriggers, readShopifyOrders, waitForWriteBacks } from "./shopify-readback";
import { FLOW_TRIGGER } from "../../../app/flow/triggers";
import type { Shutdown } from "./shutdown";
import {
  compareWithExpectations,
  adEventsLine,
  customerHoldLines,
  describeMismatch,
  formatTable,
  notReceivedSummary,
  stateCounts,
  type OrderSummary,
} from "./summary";
import { readCustomerHolds } from "./customer-holds";
import { watchStatuses } from "./watch-statuses";
import { connectDemoFeed, readAcceptedEvents, settledFeedSnapshot, startAdStandIns } from "./ad-feed";
import { seedDemoHistory } from "./history";
import { DEMO_RECONCILE_SECONDS, readRecovered, recoveredLines } from "./recovered";

export const ROOT = join(dirname(fileURLToPath(import.meta.url)), "..", "..", "..");
export const BUILT_IN_ORDERS_DIR = join(ROOT, "scripts", "dev", "demo", "orders");

export class PortInUseError extends Error {
  constructor(
    readonly port: number,
    readonly flag: string,
  ) {
    super(`Port ${port} is in use: choose another with ${flag}`);
    this.name = "PortInUseError";
  }
}

export interface DemoIo {
  /** Human-readable lines (stderr in --json mode). */
  log(line: string): void;
  /** The JSON summary (stdout). */
  json(text: string): void;
}

/** The last expectation given for each order (a follow-up delivery states the final one). */
export function expectationsOf(deliveries: readonly OrderDelivery[]): Map<string, Expectation> {
  const expected = new Map<string, Expectation>();
  for (const d of deliveries) if (d.expect) expected.set(orderIdOf(d.payload), d.expect);
  return expected;
}

async function checkPorts(options: DemoOptions): Promise<void> {
  const ports: [number, string][] = [
    [options.port, "--port"],
    [options.sandboxPort, "--sandbox-port"],
    [options.shopifyAdminPort, "--shopify-admin-port"],
    [options.metaPort, "--meta-port"],
    [options.tiktokPort, "--tiktok-port"],
    ...(options.json ? [] : ([[options.previewPort, "--preview-port"]] as [number, string][])),
  ];
  for (const [port, flag] of ports) if (!(await isPortFree(port))) throw new PortInUseError(port, flag);
}

export async function runDemo(options: DemoOptions, io: DemoIo, shutdown: Shutdown): Promise<void> {
  const dataDir = resolve(ROOT, options.dataDir);
  const ordersDir = options.ordersDir
    ? resolve(process.env.INIT_CWD ?? process.cwd(), options.ordersDir)
    : BUILT_IN_ORDERS_DIR;
  const builtIn = !options.ordersDir;
  const deliveries = readOrderFiles(ordersDir);
  await checkPorts(options);
  const shown = (path: string) => shownPath(path, ROOT);
  const deadline = Date.now() + options.timeoutSeconds * 1000;

  // 1. The database and the app's build.
  const database = await openDemoDatabase(options, dataDir, join(ROOT, "prisma", "migrations"), shutdown);
  const databaseUrl = database.url;
  io.log(
    `Database: ${database.description}` +
      (database.folder
        ? `; its data in ${shown(database.folder)}, kept between runs (--fresh starts it over); the demo's database made afresh, migrations applied`
        : ""),
  );
  const copyDir = privateBuildDir(ROOT, dataDir);
  shutdown.add("build copy", async () => rmSync(copyDir, { recursive: true, force: true }));
  const build = await prepareBuild(ROOT, copyDir, () => io.log("Building the app (first run)…"));
  if (build.built) io.log("Build done.");

  // 2. The sandbox, and the demo shop connected to seller ACC-1001 with its store-attached key.
  const sandbox = await startSandbox({
    port: options.sandboxPort,
    autopilot: true,
    quiet: true,
    rateLimitPerMinute: options.rateLimitPerMinute,
  });
  shutdown.add("sandbox", () => sandbox.close());
  const key = sandbox.keys.find((k) => k.account === DEMO_ACCOUNT && k.store === DEMO_SHOP);
  if (!key) throw new Error(`the sandbox has no key of ${DEMO_ACCOUNT} attached to ${DEMO_SHOP}`);
  const rate =
    options.rateLimitPerMinute === 60
      ? "rate limit 60 calls/min, the platform's usual"
      : `rate limit raised to ${options.rateLimitPerMinute} calls/min for the demo, the platform's usual is 60`;
  io.log(`Sandbox: ${sandbox.url} (Seller Order API, autopilot on; ${rate})`);

  const encryptionKey = randomBytes(32).toString("base64");
  const apiSecret = randomBytes(24).toString("hex");
  const db: PrismaClient = createPrismaClient(databaseUrl);
  shutdown.add("database", () => db.$disconnect());
  const account = await fetchSellerAccount(sandbox.url, key.key);
  await connectDemoShop(db, { encryptionKey, apiKey: key.key, sellerApiBaseUrl: sandbox.url, account });
  if (builtIn)
    io.log(
      `History: ${await seedDemoHistory(db, DEMO_SHOP)} settled orders of the last 60 days, for Home and Analytics`,
    );

  // 3. Shopify: the Admin API stand-in, knowing the app's credentials for the token exchange.
  const shopify = await startDemoShopifyAdmin({
    port: options.shopifyAdminPort,
    apiKey: DEMO_API_KEY,
    apiSecret,
    scopes: DEMO_SCOPES,
    shops: { demo: DEMO_SHOP, second: SECOND_SHOP },
  });
  shutdown.add("Shopify Admin stand-in", () => shopify.close());
  const control = shopifyAdminControl(shopify.url);
  io.log(
    `Shopify Admin stand-in: ${shopify.url} (Admin API 2026-07 and token exchange; ${DEMO_SHOP} and ${SECOND_SHOP} with their catalogue and 60 days of orders)`,
  );

  // Meta's and TikTok's APIs: their stand-ins, knowing the demo's dataset and pixel (the feed is connected once the shop is installed).
  const ads = await startAdStandIns({ meta: options.metaPort, tiktok: options.tiktokPort });
  shutdown.add("Meta and TikTok stand-ins", () => ads.close());
  io.log(
    `Meta and TikTok stand-ins: ${ads.meta.url} (Conversions API), ${ads.tiktok.url} (Events API); each accepts the demo's dataset or pixel with a token made for this run`,
  );

  // 4. The app server and its worker in a process of its own, as deployed, both pointed at the stand-in.
  const appUrl = `http://127.0.0.1:${options.port}`;
  const logFile = join(dataDir, "app.log");
  const workerLog = join(dataDir, "worker.log");
  const env = {
    SHOPIFY_API_KEY: DEMO_API_KEY,
    SHOPIFY_API_SECRET: apiSecret,
    SHOPIFY_APP_URL: appUrl,
    SCOPES: DEMO_SCOPES,
    ENCRYPTION_KEY: encryptionKey,
    DATABASE_URL: databaseUrl,
    SELLER_API_BASE_URL: sandbox.url,
    // The sandbox listens on loopback over http: allowed explicitly (see README).
    SELLER_API_ALLOW_PRIVATE_HOSTS: "true",
    // The stand-in's preload (shopify-admin/register.ts) sends the app's Admin API calls there.
    SHOPIFY_ADMIN_STAND_IN_URL: shopify.url,
    META_API_BASE_URL: ads.meta.url,
    TIKTOK_API_BASE_URL: ads.tiktok.url,
    // The ad platforms' stand-ins are on loopback too: allowed explicitly, as the sandbox is.
    AD_API_ALLOW_PRIVATE_HOSTS: "true",
    LOG_LEVEL: "info",
    WORKER_IN_PROCESS: "false",
    // The reconciliation with Shopify every 15 s (5 minutes by default), so the order whose webhook is lost comes in quickly.
    RECONCILE_INTERVAL_SECONDS: String(DEMO_RECONCILE_SECONDS),
  };
  const app = await startServerProcess({ root: ROOT, cwd: build.dir, port: options.port, logFile, env });
  shutdown.add("app server", () => app.stop());
  const worker = await startWorkerProcess({ root: ROOT, cwd: build.dir, logFile: workerLog, env });
  shutdown.add("worker", () => worker.stop());
  io.log(
    `App: ${appUrl} (production build; log: ${shown(logFile)}); worker: its own process (log: ${shown(workerLog)})`,
  );

  let previewUrl: string | undefined;
  const credentials = { apiKey: DEMO_API_KEY, apiSecret };
  if (!options.json) {
    const preview = await startPreviewServer({
      port: options.previewPort,
      appUrl,
      shops: [
        { domain: DEMO_SHOP, storeName: "Atlas Beauty" },
        { domain: SECOND_SHOP, storeName: "Rif Market" },
      ],
      ...credentials,
      shopifyAdminUrl: shopify.url,
      // As Shopify does when the merchant removes the app: tokens revoked, then app/uninstalled.
      onUninstall: async (shop) => {
        await control.uninstall(shop);
        const body = JSON.stringify({ id: 1, name: shop, domain: shop, myshopify_domain: shop });
        const answer = await deliverWebhook(appUrl, { topic: "app/uninstalled", shop, secret: apiSecret, body });
        if (answer.status >= 300) throw new Error(`app/uninstalled answered ${answer.status}`);
      },
    });
    shutdown.add("admin preview", () => preview.close());
    previewUrl = preview.url;
  }

  // 5. The merchant opens the app from the Shopify admin: the app installs the shop (token exchange).
  const opened = previewUrl
    ? `${previewUrl}__preview/open?shop=${encodeURIComponent(DEMO_SHOP)}&path=/app`
    : await embeddedAppUrl(appUrl, DEMO_SHOP, credentials);
  await installThroughTokenExchange(db, DEMO_SHOP, opened);
  // The merchant has workflows on the app's triggers: Flow says so through its lifecycle callback (nothing is sent before).
  for (const handle of Object.values(FLOW_TRIGGER)) {
    const { response } = await control.flowLifecycle({
      url: `${appUrl}/flow/lifecycle`,
      shop: DEMO_SHOP,
      handle,
      has_enabled_flow: true,
    });
    if (response.status >= 300) throw new Error(`the app answered ${response.status} to Flow's lifecycle callback`);
  }
  io.log(
    `Shop: ${DEMO_SHOP}, installed through the token exchange, connected to ${account.name ?? DEMO_ACCOUNT} (${DEMO_ACCOUNT}, key •••• ${key.key.slice(-4)}); write-back on; Shopify Flow workflows on the app's triggers`,
  );
  // The merchant connects Meta and TikTok in Settings and switches the feed on (the storefront pixel is added in Shopify).
  const feed = await connectDemoFeed(db, {
    shop: DEMO_SHOP,
    encryptionKey,
    standIns: ads,
    shopifyAdminUrl: shopify.url,
    appUrl,
  });
  io.log(
    `Conversion feed: on, Meta (dataset ${feed.meta?.name ?? ""} ${feed.meta?.id ?? ""}, token •••• ${feed.meta?.tokenLast4 ?? ""}) and TikTok (pixel ${feed.tiktok?.id ?? ""}, token •••• ${feed.tiktok?.tokenLast4 ?? ""}) verified by their stand-ins; a delivered parcel is told as CODDelivered, a refusal and a return as CODRefused and CODReturned; the demo's orders never pass a storefront checkout, so they are told from hashed customer data`,
  );
  if (previewUrl) io.log(`Admin preview: ${previewUrl}`);

  // 6. The orders, as signed webhooks (each created in the stand-in first); progress as their links settle.
  const total = new Set(deliveries.map((d) => orderIdOf(d.payload))).size;
  io.log("");
  io.log(
    `Sending ${total} orders (${deliveries.length} webhooks) from ${builtIn ? "the built-in set" : shown(ordersDir)} to ${appUrl}/webhooks/…`,
  );
  const final = await sendOrders({
    db,
    shop: DEMO_SHOP,
    appUrl,
    secret: apiSecret,
    deliveries,
    stampDates: builtIn,
    deadlineMs: deadline,
    log: io.log,
    beforeDelivery: (topic, payload) => shopify.beforeDelivery(DEMO_SHOP, topic, payload),
  });

  // 7. The summary, with what was written back to the stand-in once the write-back jobs are done.
  const summaries: OrderSummary[] = final.orders.map(
    (o) => o.summary ?? notReceivedSummary(o.sent.orderId, o.sent.orderName),
  );
  if (!(await waitForWriteBacks(db, DEMO_SHOP, Math.min(deadline, Date.now() + 30_000)))) {
    io.log("Some write-backs to Shopify were still due: showing what was written so far.");
  }
  const inShopify = await readShopifyOrders(
    control,
    DEMO_SHOP,
    summaries.map((r) => r.order_id),
  );
  const flowTriggers = await readFlowTriggers(control, DEMO_SHOP);
  const holds = await readCustomerHolds(
    db,
    DEMO_SHOP,
    summaries.map((r) => r.order_id),
  );
  const readBack: OrderSummary[] = summaries.map((r) => ({
    ...r,
    shopify: inShopify.get(r.order_id) ?? null,
    flow_triggers: flowTriggers.get(r.order_id) ?? [],
    customer_hold: holds.get(r.order_id) ?? null,
  }));
  // What the ads were told, matching the statuses shown beside it (read together once the feed has caught up).
  const told = await settledFeedSnapshot(
    db,
    DEMO_SHOP,
    ads,
    readBack.map((r) => r.order_id),
    Math.min(deadline, Date.now() + 30_000),
  );
  if (!told.settled) io.log("The conversion feed was still sending: showing what the stand-ins had accepted so far.");
  const rows: OrderSummary[] = readBack.map((r) => ({
    ...r,
    ...told.statuses.get(r.order_id),
    ad_events: told.events.get(r.order_id) ?? [],
  }));
  const expected = expectationsOf(deliveries);
  const mismatches = compareWithExpectations(rows, expected);
  const recovered = await readRecovered(db, DEMO_SHOP);
  if (!final.allSettled) io.log(`Not every order settled within ${options.timeoutSeconds} s: showing where they are.`);
  if (options.json) {
    if (expected.size > 0 && mismatches.length > 0) io.log(mismatches.map(describeMismatch).join("\n"));
    for (const line of customerHoldLines(rows)) io.log(line);
    for (const line of recoveredLines(recovered, DEMO_RECONCILE_SECONDS)) io.log(line);
    io.log(adEventsLine(rows));
    io.json(JSON.stringify(rows, null, 2));
    return;
  }
  io.log("");
  io.log(formatTable(rows));
  io.log("");
  io.log(`${rows.length} orders: ${stateCounts(rows)}`);
  for (const line of customerHoldLines(rows)) io.log(line);
  for (const line of recoveredLines(recovered, DEMO_RECONCILE_SECONDS)) io.log(line);
  io.log(adEventsLine(rows));
  io.log(
    "The autopilot delivers a parcel 7 to 30 minutes after its lead is sent (some are refused on the phone or returned instead): each outcome is then told to both stand-ins, in a line below, and counted in the preview's Analytics and listed in its Activity.",
  );
  if (expected.size > 0) {
    io.log(
      mismatches.length === 0
        ? `Every order ended as its file expects (${expected.size} checked).`
        : `${mismatches.length} order(s) did not end as expected:\n${mismatches.map((m) => `  ${describeMismatch(m)}`).join("\n")}`,
    );
  }
  io.log("");
  // The second store's seller key, for its onboarding: in a file of the demo's, not on the screen.
  const second = sandbox.keys.find((k) => k.account === SECOND_ACCOUNT && k.store === SECOND_SHOP);
  const secondKeyFile = join(dataDir, `${SECOND_ACCOUNT}-seller-key.txt`);
  if (second) writeFileSync(secondKeyFile, `${second.key}\n`, { mode: 0o600 });
  io.log(`Admin preview: ${previewUrl}`);
  const page = (path: string) =>
    `${previewUrl}__preview/open?shop=${encodeURIComponent(DEMO_SHOP)}&path=${encodeURIComponent(path)}`;
  if (recovered.length > 0) io.log(`The sync ledger (Activity): ${page("/app/activity#sync-ledger")}`);
  io.log(`What the ads were told: Analytics ${page("/app/analytics")}, Activity ${page("/app/activity")}`);
  io.log(`Sandbox leads: ${sandbox.url}/_sandbox/leads?account=${DEMO_ACCOUNT}`);
  io.log(`An order in Shopify (the stand-in's page): ${shopify.orderPage(DEMO_SHOP, rows[0]?.order_id ?? "")}`);
  io.log(
    `A second store, ${SECOND_SHOP}, is not installed: pick it in the preview's Store menu to install it (onboarding asks for its seller key${second ? `: ${shown(secondKeyFile)}` : ""}).`,
  );
  io.log(
    "Statuses keep moving: the sandbox's autopilot confirms, ships and delivers leads; the app syncs them every minute, writes tags, fulfilment and payment back to Shopify and tells Meta and TikTok each delivery, refusal and return.",
  );
  io.log(`More orders: npm run replay -- --url ${appUrl} --secret ${apiSecret} --shop ${DEMO_SHOP} DIR`);
  io.log("Press Ctrl-C to stop.");
  await watchStatuses(db, DEMO_SHOP, io.log, {
    orderPage: (orderId) => shopify.orderPage(DEMO_SHOP, orderId),
    adEvents: () => readAcceptedEvents(ads),
  });
}
