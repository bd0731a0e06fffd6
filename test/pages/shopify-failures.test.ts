/**
 * Shopify failing under the pages that call the Admin API: the real loaders and actions
 * (authenticate.admin and the Remix package's client, whose own error handling is in the
 * path) against the Shopify Admin stand-in, failures injected through its control API.
 * Every failure is an answer the page shows with a retry, never a thrown error, and the
 * retry recovers once Shopify does. The browser side: test/e2e/shopify-failures.e2e.test.ts.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import {
  shopifyAdminControl,
  startShopifyAdmin,
  type FaultInput,
  type RunningShopifyAdmin,
} from "../../shopify-admin/index";
import { adminRequest } from "../helpers/admin";
import { load, SHOP_A, startAdminApp, stopAdminApp, submit, type AdminApp } from "./helpers";

type MappingsRoute = typeof import("../../app/routes/app.mappings");
type OrderRoute = typeof import("../../app/routes/app.orders.$id");
type BackfillRoute = typeof import("../../app/routes/app.backfill");

let app: AdminApp;
let standIn: RunningShopifyAdmin;
let control: ReturnType<typeof shopifyAdminControl>;
let mappings: MappingsRoute;
let orderRoute: OrderRoute;
let backfillRoute: BackfillRoute;
const ORDER_ID = 6_100_000_321;

beforeAll(async () => {
  app = await startAdminApp({}, [SHOP_A]);
  standIn = await startShopifyAdmin({
    quiet: true,
    app: {
      apiKey: process.env.SHOPIFY_API_KEY!,
      apiSecret: process.env.SHOPIFY_API_SECRET!,
      scopes: process.env.SCOPES!.split(","),
    },
  });
  await standIn.installFetchRewrite();
  control = shopifyAdminControl(standIn.url);
  mappings = await import("../../app/routes/app.mappings");
  orderRoute = await import("../../app/routes/app.orders.$id");
  backfillRoute = await import("../../app/routes/app.backfill");
});
afterAll(async () => {
  await standIn?.close();
  await stopAdminApp(app);
});
beforeEach(async () => {
  await control.clearFaults();
  await control.clearCalls();
  await control.loadShop(SHOP_A, {
    variants: [
      { id: 501, sku: "ARG-OIL-50", title: "50 ml", productId: 50, productTitle: "Huile d'argan" },
      { id: 502, sku: "AMLOU-250", title: "250 g", productId: 51, productTitle: "Amlou" },
    ],
    orders: [{ id: ORDER_ID, name: "#1321", tags: ["cod"], lines: [{ sku: "ARG-OIL-50", quantity: 1 }] }],
  });
});

/** Each failure the stand-in injects, and the kind the page tells the merchant. */
const FAILURES: [string, Omit<FaultInput, "shop" | "operation">, string][] = [
  ["a refused connection", { kind: "refuse" }, "network"],
  ["HTTP 503", { kind: "http_error", status: 503 }, "unavailable"],
  ["HTTP 500", { kind: "http_error", status: 500 }, "unavailable"],
  ["HTTP 401 (invalid token)", { kind: "unauthorized" }, "unauthorized"],
  ["THROTTLED on every try", { kind: "throttled", times: 5 }, "throttled"],
];

describe("Mappings, Products tab", () => {
  const open = () => load(mappings.loader, SHOP_A, "/app/mappings");

  it.each(FAILURES)("%s: the tab answers what failed, and a retry lists the variants", async (_name, fault, kind) => {
    await control.addFault({ ...fault, shop: SHOP_A, operation: "ProductVariantsPage" });

    const failed = await open();
    expect(failed.variants).toEqual({
      ok: false,
      error: kind,
      retryAfterSeconds: kind === "throttled" ? expect.any(Number) : null,
    });
    // Never Shopify's own text (nor anything else of the error) in what the page receives.
    expect(JSON.stringify(failed)).not.toMatch(/Service Unavailable|Invalid API key|Throttled|shpat_/);
    // The rest of the page is there.
    expect(failed.tab).toBe("products");

    await control.clearFaults();
    const retried = await open();
    expect(retried.variants).toMatchObject({ ok: true, rows: [{ variantId: "501" }, { variantId: "502" }] });
  });

  it("waits out a short throttle with the cost Shopify returned, and lists the variants", async () => {
    await control.addFault({ kind: "throttled", shop: SHOP_A, operation: "ProductVariantsPage", times: 1 });

    const data = await open();

    expect(data.variants).toMatchObject({ ok: true, rows: [{ variantId: "501" }, { variantId: "502" }] });
    const calls = await control.calls({ shop: SHOP_A, operation: "ProductVariantsPage" });
    expect(calls.map((c) => [c.throttled, c.status])).toEqual([
      [true, 200],
      [false, 200],
    ]);
    // The stand-in reports an empty bucket refilling 100 points/s: the wait is the requested cost / 100 s.
    const waited = Date.parse(calls[1].at) - Date.parse(calls[0].at);
    expect(waited).toBeGreaterThanOrEqual((calls[0].requestedQueryCost! / 100) * 1000 - 20);
  });

  it("a hanging Shopify is a timeout answer within the page's limit, not a hanging page", async () => {
    await control.addFault({ kind: "slow", delayMs: 9_000, shop: SHOP_A, operation: "ProductVariantsPage" });
    const started = performance.now();

    const failed = await open();

    const took = performance.now() - started;
    // A timeout, not Shopify's answer 9 s later: the page gave up at its limit (5 s; a slower machine only adds).
    expect(failed.variants).toEqual({ ok: false, error: "timeout", retryAfterSeconds: null });
    expect(took).toBeGreaterThanOrEqual(4_900);
    expect((await open()).variants).toMatchObject({ ok: true });
  });

  it("a 401 on a data request (the page's retry) is the same answer, and the next request re-authorizes", async () => {
    await control.addFault({ kind: "unauthorized", shop: SHOP_A, operation: "ProductVariantsPage" });
    const request = await adminRequest(SHOP_A, "/app/mappings?tab=products", { as: "fetch" });

    const failed = await mappings.loader({ request, params: {}, context: {} });

    expect(failed.variants).toEqual({ ok: false, error: "unauthorized", retryAfterSeconds: null });
    const retried = await mappings.loader({
      request: await adminRequest(SHOP_A, "/app/mappings?tab=products", { as: "fetch" }),
      params: {},
      context: {},
    });
    expect(retried.variants).toMatchObject({ ok: true });
  });
});

describe("Order page", () => {
  let linkId: string;
  beforeAll(async () => {
    const link = await app.db.prisma.orderLink.create({
      data: {
        shop: SHOP_A,
        orderId: String(ORDER_ID),
        orderName: "#1321",
        payload: "{}",
        externalRef: `shopify:${ORDER_ID}`,
        state: "created",
        leadRef: "ATB-9",
      },
    });
    linkId = link.id;
  });
  const open = async () =>
    orderRoute.loader({
      request: await adminRequest(SHOP_A, `/app/orders/${linkId}`),
      params: { id: linkId },
      context: {},
    });

  it("shows the order as Shopify has it", async () => {
    const data = await open();
    expect(data.shopify).toEqual({
      ok: true,
      order: {
        name: "#1321",
        financialStatus: expect.any(String),
        fulfillmentStatus: expect.any(String),
        cancelledAt: null,
        tags: ["cod"],
      },
    });
  });

  it.each(FAILURES)(
    "%s: the Shopify card answers what failed, the rest of the page is there, and a retry recovers",
    async (_name, fault, kind) => {
      await control.addFault({ ...fault, shop: SHOP_A, operation: "OrderShopifyStatus" });

      const failed = await open();
      expect(failed.shopify).toEqual({
        ok: false,
        failure: { kind, retryAfterSeconds: kind === "throttled" ? expect.any(Number) : null },
      });
      expect(failed.order).toMatchObject({ id: linkId, orderName: "#1321", leadRef: "ATB-9" });

      await control.clearFaults();
      expect((await open()).shopify).toMatchObject({ ok: true, order: { name: "#1321" } });
    },
  );

  it("says Shopify has no such order when it was deleted", async () => {
    await control.loadShop(SHOP_A, { orders: [] });
    expect((await open()).shopify).toEqual({ ok: true, order: null });
  });
});

describe("Backfill page", () => {
  let runner: { runOnce(): Promise<boolean> };
  beforeAll(async () => {
    const shopify = await import("../../app/shopify.server");
    const { createWorker } = await import("../../app/queue/worker.server");
    const { createJobHandlers } = await import("../../app/sync/job-handlers.server");
    const { createPipelineDeps } = await import("../../app/sync/pipeline-deps.server");
    const { BACKFILL_JOB } = await import("../../app/models/job-kinds");
    await app.db.prisma.shop.upsert({ where: { domain: SHOP_A }, create: { domain: SHOP_A }, update: {} });
    const deps = {
      ...createPipelineDeps(app.db.prisma),
      adminFor: async (shop: string) => (await shopify.unauthenticated.admin(shop)).admin,
    };
    const silent = { info: () => {}, warn: () => {}, error: () => {} };
    runner = createWorker({
      db: app.db.prisma,
      handlers: createJobHandlers(deps),
      kinds: [BACKFILL_JOB],
      logger: silent,
      backoff: { baseMs: 1, capMs: 5 },
    });
  });
  beforeEach(() => app.db.prisma.job.deleteMany());

  const view = async () => (await load(backfillRoute.loader, SHOP_A, "/app/backfill")).backfill;
  const today = new Date().toISOString().slice(0, 10);

  it.each(FAILURES.filter(([, fault]) => fault.kind !== "throttled"))(
    "%s: the job waits for its retry, the page says what failed, and Try again runs it to the end",
    async (_name, fault, kind) => {
      await control.addFault({ ...fault, shop: SHOP_A, operation: "OrdersPage" });
      expect(
        await submit(backfillRoute.action, SHOP_A, "/app/backfill", {
          intent: "start",
          from: "2020-01-01",
          to: today,
          dryRun: "true",
        }),
      ).toMatchObject({ ok: true });

      expect(await runner.runOnce()).toBe(true);

      expect(await view()).toMatchObject({
        state: "failed",
        active: true,
        payload: { shopifyFailure: kind, pages: 0 },
      });
      // What the page would show stays the merchant's: no Shopify text in the loader data.
      expect(JSON.stringify(await load(backfillRoute.loader, SHOP_A, "/app/backfill"))).not.toMatch(
        /Service Unavailable|Invalid API key/,
      );

      // Try again: the job is due now, and Shopify answers again.
      expect(await submit(backfillRoute.action, SHOP_A, "/app/backfill", { intent: "resume" })).toEqual({
        intent: "resume",
        ok: true,
      });
      expect(await view()).toMatchObject({ state: "pending" });
      expect(await runner.runOnce()).toBe(true);
      expect(await view()).toMatchObject({ state: "done", payload: { shopifyFailure: null, counts: { scanned: 1 } } });
    },
  );

  it("a throttled page is rescheduled by the queue (no waiting in the worker), shown as a wait, not a failure", async () => {
    await control.addFault({ kind: "throttled", shop: SHOP_A, operation: "OrdersPage" });
    await submit(backfillRoute.action, SHOP_A, "/app/backfill", {
      intent: "start",
      from: "2020-01-01",
      to: today,
      dryRun: "true",
    });

    expect(await runner.runOnce()).toBe(true);

    expect(await view()).toMatchObject({
      state: "pending",
      payload: { throttledUntil: expect.any(String), shopifyFailure: null },
    });
    expect(await control.calls({ shop: SHOP_A, operation: "OrdersPage" })).toHaveLength(1);
  });
});
