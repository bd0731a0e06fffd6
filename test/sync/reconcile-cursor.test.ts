/**
 * A reconciliation pass cannot loop forever on Shopify's pagination: when a page says
 * more orders follow (`hasNextPage: true`) but gives no cursor, or the cursor it was asked
 * with, the same page would come back at every call, each attempt yielding after 20
 * pages with no attempt counted, spending the shop's Shopify budget and a worker for
 * ever. Through the Shopify Admin stand-in answering so (faults no_cursor and
 * same_cursor on ReconcileOrders), the sandbox and the worker: the pass ends, takes in
 * what it read, queues the next one an interval later, and that one reads on from the
 * last order seen once Shopify answers well again.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { startSandbox, type RunningSandbox } from "../../sandbox/index";
import {
  shopifyAdminControl,
  startShopifyAdmin,
  type RunningShopifyAdmin,
  type ShopifyAdminControl,
} from "../../shopify-admin/index";
import type { JobHandlers } from "../../app/queue/types";
import { RECONCILE_JOB } from "../../app/models/job-kinds";
import { brokenNextPage, MAX_PAGES_PER_PASS } from "../../app/sync/reconcile/pass.server";
import { storeOfflineSession } from "../helpers/admin";
import { useTestDatabaseForApp } from "../helpers/app";
import type { TestDatabase } from "../helpers/db";
import { webhookOrder } from "../helpers/orders";
import { connectTestShop, SHOP } from "../helpers/pipeline";

const CONFIG = { intervalMs: 60_000, maxGapMs: 7 * 24 * 3600_000, stuckMs: 30 * 60_000, pagesPerAttempt: 20 };
const silent = { info: () => {}, warn: () => {}, error: () => {} };
let db: TestDatabase;
let sandbox: RunningSandbox;
let shopify: RunningShopifyAdmin;
let control: ShopifyAdminControl;
let handlers: JobHandlers;
let pass: typeof import("../../app/sync/reconcile/pass.server");
let nextId = 7_490_000_000_000;

beforeAll(async () => {
  db = await useTestDatabaseForApp();
  sandbox = await startSandbox({ port: 0, quiet: true, rateLimitPerMinute: 6000 });
  shopify = await startShopifyAdmin({ quiet: true });
  await shopify.installFetchRewrite();
  shopify.shop(SHOP);
  control = shopifyAdminControl(shopify.url);
  const key = sandbox.keys.find((k) => k.account === "ACC-1001")!;
  await connectTestShop(db.prisma, { apiKey: key.key, baseUrl: sandbox.url });
  await db.prisma.shop.update({ where: { domain: SHOP }, data: { installedAt: new Date(Date.now() - 3600_000) } });
  const app = await import("../../app/shopify.server");
  await storeOfflineSession(app.sessionStorage, SHOP);
  pass = await import("../../app/sync/reconcile/pass.server");
  const { createJobHandlers } = await import("../../app/sync/job-handlers.server");
  const { createPipelineDeps } = await import("../../app/sync/pipeline-deps.server");
  const deps = {
    ...createPipelineDeps(db.prisma, { timeoutMs: 5_000 }),
    adminFor: async (shop: string) => (await app.unauthenticated.admin(shop)).admin,
  };
  handlers = createJobHandlers(deps);
  handlers[RECONCILE_JOB] = (job, ctx) => pass.runReconcileJob(deps, job, ctx, CONFIG);
});
afterAll(async () => {
  await shopify?.close();
  await sandbox?.close();
  await db?.cleanup();
});
beforeEach(() => control.clearFaults());

/** One pass now and the jobs it queued, for at most 20 s: a pass that never ends fails the drain. */
async function reconcileWithin20s(): Promise<void> {
  const { createWorker } = await import("../../app/queue/worker.server");
  await pass.reconcileNow(db.prisma, SHOP, new Date());
  await createWorker({ db: db.prisma, handlers, logger: silent, backoff: { baseMs: 1, capMs: 5 } }).drain({
    timeoutMs: 20_000,
  });
}

async function placeLost(count: number): Promise<string[]> {
  const ids: string[] = [];
  for (let i = 0; i < count; i++) {
    const id = nextId++;
    await control.placeOrder(SHOP, webhookOrder({ id, phone: `06${String(id).slice(-8)}` }), { deliver: false });
    ids.push(String(id));
  }
  return ids;
}

const linked = async (ids: string[]) => db.prisma.orderLink.count({ where: { shop: SHOP, orderId: { in: ids } } });
const indexCalls = async () => (await control.calls({ shop: SHOP, operation: "ReconcileOrders" })).length;

describe("Shopify's pagination with no way forward", () => {
  for (const fault of ["no_cursor", "same_cursor"] as const) {
    it(`GIVEN every page says more follow with ${fault === "no_cursor" ? "no cursor" : "the cursor it was asked for"} WHEN a pass runs THEN it ends, takes in what it read, and comes back an interval later`, async () => {
      const lost = await placeLost(3);
      await control.addFault({ kind: fault, shop: SHOP, operation: "ReconcileOrders", times: null });
      const before = await indexCalls();

      await reconcileWithin20s();

      // Two pages at most (the same_cursor fault gives a real cursor once), not one every call for ever.
      expect((await indexCalls()) - before).toBeLessThanOrEqual(2);
      expect(await linked(lost)).toBe(3);
      const job = await db.prisma.job.findUniqueOrThrow({ where: { key: `reconcile:${SHOP}` } });
      expect(JSON.parse(job.payload)).toEqual({});
      expect(job.runAt.getTime()).toBeGreaterThan(Date.now() + CONFIG.intervalMs / 2);

      // Shopify answers well again: the next pass reads on and finds a later order.
      await control.clearFaults();
      const later = await placeLost(1);
      await reconcileWithin20s();
      expect(await linked(later)).toBe(1);
    });
  }

  it("names why a page cannot lead on, and bounds a pass that never stops saying more follow", () => {
    expect(brokenNextPage({ hasNextPage: false, endCursor: null }, "c1", 3)).toBeNull();
    expect(brokenNextPage({ hasNextPage: true, endCursor: "c2" }, "c1", 3)).toBeNull();
    expect(brokenNextPage({ hasNextPage: true, endCursor: null }, "c1", 3)).toBe("no cursor");
    expect(brokenNextPage({ hasNextPage: true, endCursor: "c1" }, "c1", 3)).toBe("the same cursor again");
    expect(brokenNextPage({ hasNextPage: true, endCursor: "c9" }, "c8", MAX_PAGES_PER_PASS)).toMatch(/reached/);
  });
});
