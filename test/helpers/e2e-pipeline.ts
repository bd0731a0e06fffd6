/**
 * The order pipeline run from a browser test's own process against the preview
 * server's database (the server runs with WORKER_IN_PROCESS=false): orders go
 * in through the intake, the queue is drained here against a sandbox, and the
 * status sync is one call. The page under test then reads what the pipeline wrote.
 */
import type { PrismaClient } from "@prisma/client";
import type { Browser, Page } from "playwright-core";
import { startSandbox, type RunningSandbox } from "../../sandbox/index";
import { launchBrowser, openEmbeddedSession, PHONE_UA, type EmbeddedSession } from "./browser";
import { startPreviewServer, type PreviewServer } from "./preview-server";
import { webhookOrder, type OrderSpec } from "./orders";
import { connectTestShop, testPipeline, type TestPipeline } from "./pipeline";

export interface E2EPipeline {
  pipeline: TestPipeline;
  /** Stores orders/create payloads as the webhook would, with their jobs. */
  place(specs: OrderSpec[]): Promise<Record<string, unknown>[]>;
  /** Runs every due post-lead job. */
  drain(): Promise<number>;
  /** One status-sync cycle for the shop, its lead events told. */
  sync(): Promise<void>;
}

export async function e2ePipeline(
  db: PrismaClient,
  options: { shop: string; apiKey: string; sandboxUrl: string },
): Promise<E2EPipeline> {
  // Nothing to write back to Shopify in these tests: there is no Admin API to reach.
  await connectTestShop(db, {
    shop: options.shop,
    apiKey: options.apiKey,
    baseUrl: options.sandboxUrl,
    settings: { writeBack: { tags: false, fulfillment: false, markPaid: false, cancel: false } },
  });
  const { intakeOrderCreated } = await import("../../app/sync/order-intake.server");
  const { syncShopStatuses } = await import("../../app/sync/status-sync.server");
  const pipeline = testPipeline(db);
  return {
    pipeline,
    async place(specs) {
      const bodies = specs.map((spec) => webhookOrder(spec));
      for (const body of bodies) await db.$transaction((tx) => intakeOrderCreated(tx, options.shop, body));
      return bodies;
    },
    drain: () => pipeline.drain({ kinds: ["post-lead"], timeoutMs: 30_000 }),
    async sync() {
      const shop = await db.shop.findUniqueOrThrow({ where: { domain: options.shop } });
      await syncShopStatuses(pipeline.deps, shop, pipeline.deps.connect(shop).client);
      // The cycle records its lead events; the worker tells them (analytics, cash ledger, customer records) in a batch.
      await pipeline.tellLeadEvents();
    },
  };
}

/**
 * Everything an e2e test of pipeline pages needs: a sandbox, the production
 * server on its own database, a browser, and the pipeline wired between them.
 */
export interface E2EWorld {
  sandbox: RunningSandbox;
  server: PreviewServer;
  browser: Browser;
  flow: E2EPipeline;
  close(): Promise<void>;
}

export async function startE2EWorld(
  shop: string,
  buildDir: string,
  options: { env?: Record<string, string> } = {},
): Promise<E2EWorld> {
  const sandbox = await startSandbox({ port: 0, quiet: true, rateLimitPerMinute: 6000 });
  const [server, browser] = await Promise.all([
    startPreviewServer({ buildDir, sellerApiBaseUrl: sandbox.url, shops: [shop], env: options.env }),
    launchBrowser(),
  ]);
  const key = sandbox.keys.find((k) => k.account === "ACC-1001")!;
  const flow = await e2ePipeline(server.db, { shop, apiKey: key.key, sandboxUrl: sandbox.url });
  return {
    sandbox,
    server,
    browser,
    flow,
    async close() {
      await browser.close();
      await server.close();
      await sandbox.close();
    },
  };
}

/** Opens url and waits until Remix has hydrated the page. */
export async function visit(page: Page, url: string): Promise<void> {
  await page.goto(url, { waitUntil: "networkidle" });
  await page.waitForFunction(() => "__remixRouter" in window && document.readyState === "complete");
}

/** A phone's screen, as the merchant walks measured it. */
export const PHONE = { width: 375, height: 812 };

/** The world's admin for `shop` in `locale`, on a phone's screen and browser. */
export async function openPhoneSession(world: E2EWorld, shop: string, locale: "en" | "fr"): Promise<EmbeddedSession> {
  const { server } = world;
  return openEmbeddedSession(
    world.browser,
    { apiKey: server.apiKey, shop, locale, token: await server.mintToken(shop) },
    { viewport: PHONE, userAgent: PHONE_UA },
  );
}
