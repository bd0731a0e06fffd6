/**
 * The reconciliation's world for a test file: a real database, the Seller Order API
 * sandbox, the Shopify Admin stand-in reached through the app's own Admin client (the
 * fetch rewrite), the test shop connected and installed `installedAgoMs` ago with its
 * offline session, and the job handlers with the reconcile job on a test config.
 * Started before the file's tests and closed after; call the result inside a test.
 */
import { afterAll, beforeAll } from "vitest";
import { startSandbox, type RunningSandbox } from "../../sandbox/index";
import {
  shopifyAdminControl,
  startShopifyAdmin,
  type RunningShopifyAdmin,
  type ShopifyAdminControl,
} from "../../shopify-admin/index";
import type { JobHandlers } from "../../app/queue/types";
import type { PipelineDeps } from "../../app/sync/pipeline-deps.server";
import type { AdminFor } from "../../app/shopify/admin-graphql.server";
import { RECONCILE_JOB } from "../../app/models/job-kinds";
import { storeOfflineSession } from "./admin";
import { useTestDatabaseForApp } from "./app";
import type { TestDatabase } from "./db";
import { connectTestShop, SHOP } from "./pipeline";

export const RECONCILE_TEST_CONFIG = {
  intervalMs: 60_000,
  maxGapMs: 7 * 24 * 3600_000,
  stuckMs: 30 * 60_000,
  pagesPerAttempt: 20,
};
const silent = { info: () => {}, warn: () => {}, error: () => {} };

export interface ReconcileWorld {
  db: TestDatabase;
  sandbox: RunningSandbox;
  control: ShopifyAdminControl;
  deps: PipelineDeps & { adminFor: AdminFor };
  /** Runs due jobs until none is left (or `timeoutMs`, then throws). */
  drain(timeoutMs?: number): Promise<void>;
  /** One pass now, then the jobs it queued. */
  reconcile(timeoutMs?: number): Promise<void>;
}

export function useReconcileWorld(
  options: { installedAgoMs: number; settings?: Record<string, unknown> } = { installedAgoMs: 3600_000 },
): () => ReconcileWorld {
  let world: ReconcileWorld | undefined;
  let shopify: RunningShopifyAdmin | undefined;
  beforeAll(async () => {
    const db = await useTestDatabaseForApp();
    const sandbox = await startSandbox({ port: 0, quiet: true, rateLimitPerMinute: 6000 });
    shopify = await startShopifyAdmin({ quiet: true });
    await shopify.installFetchRewrite();
    shopify.shop(SHOP);
    const key = sandbox.keys.find((k) => k.account === "ACC-1001")!;
    await connectTestShop(db.prisma, { apiKey: key.key, baseUrl: sandbox.url, settings: options.settings });
    await db.prisma.shop.update({
      where: { domain: SHOP },
      data: { installedAt: new Date(Date.now() - options.installedAgoMs) },
    });
    const app = await import("../../app/shopify.server");
    await storeOfflineSession(app.sessionStorage, SHOP);
    const pass = await import("../../app/sync/reconcile/pass.server");
    const { createWorker } = await import("../../app/queue/worker.server");
    const { leadEventsTask } = await import("../../app/sync/lead-events.server");
    const { createJobHandlers } = await import("../../app/sync/job-handlers.server");
    const { createPipelineDeps } = await import("../../app/sync/pipeline-deps.server");
    const deps = {
      ...createPipelineDeps(db.prisma, { timeoutMs: 5_000 }),
      adminFor: (async (shop) => (await app.unauthenticated.admin(shop)).admin) satisfies AdminFor,
    };
    const handlers: JobHandlers = createJobHandlers(deps);
    handlers[RECONCILE_JOB] = (job, ctx) => pass.runReconcileJob(deps, job, ctx, RECONCILE_TEST_CONFIG);
    // A bound for a queue that never empties, not a speed (a loaded machine drains slower).
    const drain = async (timeoutMs = 300_000) => {
      await createWorker({
        db: db.prisma,
        handlers,
        logger: silent,
        backoff: { baseMs: 1, capMs: 5 },
        tasks: [leadEventsTask(db.prisma)],
      }).drain({ timeoutMs });
    };
    world = {
      db,
      sandbox,
      control: shopifyAdminControl(shopify.url),
      deps,
      drain,
      async reconcile(timeoutMs) {
        await pass.reconcileNow(db.prisma, SHOP, new Date());
        await drain(timeoutMs);
      },
    };
  });
  afterAll(async () => {
    await shopify?.close();
    await world?.sandbox.close();
    await world?.db.cleanup();
  });
  return () => {
    if (!world) throw new Error("the reconciliation's world is not started yet");
    return world;
  };
}
