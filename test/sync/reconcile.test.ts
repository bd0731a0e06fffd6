/**
 * The reconciliation pass in process, against the Shopify Admin stand-in (real client
 * stack through the fetch rewrite), the Seller Order API sandbox and a real database:
 * what it takes in, what it applies, what it writes back again, and what it leaves alone.
 * Each test places orders in the stand-in (webhooks delivered or not), runs passes
 * through the worker, and reads the app's rows, the sandbox's leads and the stand-in's
 * orders.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { ActionFunctionArgs } from "@remix-run/node";
import { useTestDatabaseForApp } from "../helpers/app";
import { storeOfflineSession } from "../helpers/admin";
import type { TestDatabase } from "../helpers/db";
import { webhookOrder, type OrderSpec } from "../helpers/orders";
import { signedWebhookRequest } from "../helpers/webhooks";
import { connectTestShop, SHOP } from "../helpers/pipeline";
import { startSandbox, sandboxControl, type RunningSandbox } from "../../sandbox/index";
import {
  flowDefinitionsFrom,
  shopifyAdminControl,
  startShopifyAdmin,
  type RunningShopifyAdmin,
  type ShopifyAdminControl,
} from "../../shopify-admin/index";
import type { AdminFor } from "../../app/shopify/admin-graphql.server";
import type { JobHandlers } from "../../app/queue/types";
import { RECONCILE_JOB } from "../../app/models/job-kinds";
import { metrics } from "../../app/runtime/metrics.server";

let db: TestDatabase;
let sandbox: RunningSandbox;
let shopify: RunningShopifyAdmin;
let control: ShopifyAdminControl;
let adminFor: AdminFor;
let handlers: JobHandlers;
let worker: typeof import("../../app/queue/worker.server");
let pass: typeof import("../../app/sync/reconcile/pass.server");
let nextId = 7_100_000_000_000;
const silent = { info: () => {}, warn: () => {}, error: () => {} };
const CONFIG = { intervalMs: 60_000, maxGapMs: 7 * 24 * 3600_000, stuckMs: 30 * 60_000, pagesPerAttempt: 20 };

beforeAll(async () => {
  db = await useTestDatabaseForApp();
  sandbox = await startSandbox({ port: 0, quiet: true, rateLimitPerMinute: 6000 });
  shopify = await startShopifyAdmin({
    quiet: true,
    flow: flowDefinitionsFrom(new URL("../../extensions", import.meta.url).pathname),
  });
  await shopify.installFetchRewrite();
  shopify.shop(SHOP);
  control = shopifyAdminControl(shopify.url);
  const key = sandbox.keys.find((k) => k.account === "ACC-1001")!;
  await connectTestShop(db.prisma, { apiKey: key.key, baseUrl: sandbox.url });
  // Installed an hour ago: orders placed since are the reconciliation's.
  await db.prisma.shop.update({ where: { domain: SHOP }, data: { installedAt: new Date(Date.now() - 3600_000) } });
  const app = await import("../../app/shopify.server");
  await storeOfflineSession(app.sessionStorage, SHOP);
  adminFor = async (shop) => (await app.unauthenticated.admin(shop)).admin;
  worker = await import("../../app/queue/worker.server");
  pass = await import("../../app/sync/reconcile/pass.server");
  const { createJobHandlers } = await import("../../app/sync/job-handlers.server");
  const { createPipelineDeps } = await import("../../app/sync/pipeline-deps.server");
  const deps = { ...createPipelineDeps(db.prisma, { timeoutMs: 5_000 }), adminFor };
  handlers = createJobHandlers(deps);
  handlers[RECONCILE_JOB] = (job, ctx) => pass.runReconcileJob(deps, job, ctx, CONFIG);
});

afterAll(async () => {
  await shopify?.close();
  await sandbox?.close();
  await db?.cleanup();
});

beforeEach(async () => {
  await control.clearFaults();
});

/** A COD order with its own phone (no recent-duplicate anomaly). */
function order(spec: Partial<OrderSpec> = {}): Record<string, unknown> {
  const id = nextId++;
  return webhookOrder({ id, phone: `06${String(id % 100_000_000).padStart(8, "0")}`, ...spec });
}

/**
 * The worker as the app runs it (its task tells the recorded lead events) until nothing is due;
 * a write-back or a Flow firing that waits a few seconds for later moves to join it is brought due.
 */
async function drain(kinds?: string[]): Promise<number> {
  const { leadEventsTask } = await import("../../app/sync/lead-events.server");
  const run = () =>
    worker
      .createWorker({
        db: db.prisma,
        handlers,
        kinds,
        logger: silent,
        backoff: { baseMs: 1, capMs: 5 },
        tasks: [leadEventsTask(db.prisma)],
      })
      .drain();
  let ran = await run();
  for (let round = 0; round < 5; round++) {
    const waiting = {
      kind: { in: ["write-back", "flow-trigger"] },
      state: "pending",
      runAt: { gt: new Date() },
      attempts: 0,
    };
    if ((await db.prisma.job.updateMany({ where: waiting, data: { runAt: new Date() } })).count === 0) break;
    ran += await run();
  }
  return ran;
}

/** One whole pass now, then every job it queued (posts, write-backs). */
async function reconcile(): Promise<void> {
  await pass.reconcileNow(db.prisma, SHOP, new Date());
  // The pass queues its successor an interval later: not due during this drain.
  await drain();
}

async function deliver(
  topic: string,
  body: Record<string, unknown>,
  headers: { eventId?: string; triggeredAt?: string } = {},
) {
  const route = await import(`../../app/routes/webhooks.${topic.replace("/", ".")}.tsx`);
  const request = signedWebhookRequest({ topic, shop: SHOP, body, eventId: headers.eventId });
  if (headers.triggeredAt) request.headers.set("X-Shopify-Triggered-At", headers.triggeredAt);
  const response: Response = await route.action({ request, params: {}, context: {} } as ActionFunctionArgs);
  expect(response.status).toBe(200);
}

const linkOf = (payload: Record<string, unknown>) =>
  db.prisma.orderLink.findUnique({ where: { shop_orderId: { shop: SHOP, orderId: String(payload.id) } } });
const leadCount = async (link: { externalRef: string } | null) =>
  (await sandboxControl(sandbox.url).leads("ACC-1001")).filter((l) => l.external_ref === link?.externalRef).length;
const timeline = async (payload: Record<string, unknown>) => {
  const link = await linkOf(payload);
  return db.prisma.timelineEvent.findMany({
    where: { linkId: link!.id },
    orderBy: { at: "asc" },
    select: { kind: true, message: true },
  });
};

const recoveredCount = async () =>
  (await metrics().reconcileRecovered.get()).values.reduce((sum, v) => sum + v.value, 0);

describe("an order whose webhook never came", () => {
  it("is taken in by the next pass as orders/create would, sent once, and a late webhook then changes nothing", async () => {
    const lost = order();
    await control.placeOrder(SHOP, lost, { deliver: false });
    expect(await linkOf(lost)).toBeNull();
    const recoveredBefore = await recoveredCount();

    await reconcile();

    // The operators' alert on orders no webhook brought reads this counter.
    expect((await recoveredCount()) - recoveredBefore).toBe(1);
    const link = await linkOf(lost);
    expect(link).toMatchObject({
      state: "created",
      orderName: lost.name,
      orderCreatedAt: new Date(String(lost.created_at)),
    });
    expect(await leadCount(link)).toBe(1);
    expect((await timeline(lost)).map((e) => e.kind)).toContain("recovered");
    expect(await db.prisma.reconcilePass.findFirst({ where: { shop: SHOP, recovered: { gte: 1 } } })).not.toBeNull();

    // The webhook, hours late (its original Triggered-At), twice: nothing changes.
    const before = await db.prisma.orderLink.findUniqueOrThrow({ where: { id: link!.id } });
    const jobs = await db.prisma.job.count();
    const triggeredAt = new Date(Date.now() - 4 * 3600_000).toISOString();
    await deliver("orders/create", lost, { eventId: "evt-late-1", triggeredAt });
    await deliver("orders/create", lost, { eventId: "evt-late-1", triggeredAt });
    await drain();
    expect(await db.prisma.orderLink.findUniqueOrThrow({ where: { id: link!.id } })).toEqual(before);
    expect(await db.prisma.job.count()).toBe(jobs);
    expect(await leadCount(link)).toBe(1);
    expect(await db.prisma.webhookDelivery.count({ where: { id: "ORDERS_CREATE:evt-late-1" } })).toBe(1);
  });

  it("changes nothing for an order its webhook brought first, and a second pass finds nothing new", async () => {
    const seen = order();
    await control.placeOrder(SHOP, seen, { deliver: false });
    await deliver("orders/create", seen);
    await drain();
    const before = await linkOf(seen);
    expect(before?.state).toBe("created");

    await reconcile();
    await reconcile();

    expect(await linkOf(seen)).toEqual(before);
    expect(await leadCount(before)).toBe(1);
    expect((await timeline(seen)).map((e) => e.kind)).not.toContain("recovered");
  });

  it("leaves an order placed before the coverage start to the Backfill, even when it changed since", async () => {
    const old = order({ createdAt: new Date(Date.now() - 3 * 3600_000).toISOString() });
    await control.placeOrder(SHOP, old, { deliver: false });
    await control.editOrder(SHOP, String(old.id), { note: "changed today" }, { deliver: false });
    await reconcile();
    expect(await linkOf(old)).toBeNull();
    const job = await db.prisma.job.findUniqueOrThrow({ where: { key: `reconcile:${SHOP}` } });
    expect(JSON.parse(job.payload)).toEqual({});
    expect(job.runAt.getTime()).toBeGreaterThan(Date.now() + CONFIG.intervalMs / 2);
  });
});

describe("a cancellation whose webhook was lost", () => {
  it("stops an order not sent yet, and marks a sent one, as orders/cancelled would", async () => {
    const held = order({ items: [{ sku: "NOT-IN-CATALOGUE", quantity: 1, price: "99.00" }] });
    const sent = order();
    for (const o of [held, sent]) {
      await control.placeOrder(SHOP, o, { deliver: false });
      await deliver("orders/create", o);
    }
    await drain();
    expect((await linkOf(held))?.state).toBe("held");
    expect((await linkOf(sent))?.state).toBe("created");

    for (const o of [held, sent]) await control.cancelOrder(SHOP, String(o.id), { deliver: false });
    await reconcile();

    expect(await linkOf(held)).toMatchObject({ state: "cancelled", cancelledAt: expect.any(Date) });
    expect(await linkOf(sent)).toMatchObject({ state: "created", cancelledAt: expect.any(Date) });
    for (const o of [held, sent])
      expect((await timeline(o)).map((e) => e.kind)).toEqual(expect.arrayContaining(["cancelled", "reconciled"]));

    // Its webhook, late: already applied.
    const payload = { ...held, cancelled_at: new Date().toISOString() };
    const before = await linkOf(held);
    await deliver("orders/cancelled", payload, { triggeredAt: new Date(Date.now() - 3600_000).toISOString() });
    expect(await linkOf(held)).toEqual(before);
  });
});

describe("an edit whose webhook was lost", () => {
  it("reopens a held order with the merchant's correction, as orders/updated would, and sends it", async () => {
    const noPhone = order({ phone: null });
    await control.placeOrder(SHOP, noPhone, { deliver: false });
    await deliver("orders/create", noPhone);
    await drain();
    expect((await linkOf(noPhone))?.state).toBe("held");

    const phone = "0677000001";
    await control.editOrder(
      SHOP,
      String(noPhone.id),
      { shipping_address: { ...(noPhone.shipping_address as object), phone } },
      { deliver: false },
    );
    await reconcile();

    const link = await linkOf(noPhone);
    expect(link?.state).toBe("created");
    expect(link?.phone).toBe(phone);
    expect((await timeline(noPhone)).map((e) => e.kind)).toEqual(expect.arrayContaining(["updated", "reconciled"]));

    // The lost orders/updated, hours late with its old snapshot: stale, nothing changes.
    const stale = { ...noPhone, updated_at: new Date(Date.now() - 2 * 3600_000).toISOString() };
    await deliver("orders/updated", stale, { triggeredAt: new Date(Date.now() - 2 * 3600_000).toISOString() });
    expect(await linkOf(noPhone)).toEqual(link);
    // One without updated_at is judged by its X-Shopify-Triggered-At.
    const { updated_at: _dropped, ...undated } = stale;
    await deliver("orders/updated", undated, { triggeredAt: new Date(Date.now() - 2 * 3600_000).toISOString() });
    expect(await linkOf(noPhone)).toEqual(link);
    expect(await leadCount(link)).toBe(1);
  });
});

describe("a write-back that failed silently", () => {
  it("is written again when Shopify does not show the fulfilment and payment the app recorded", async () => {
    const delivered = order();
    await control.placeOrder(SHOP, delivered, { deliver: false });
    await deliver("orders/create", delivered);
    await drain();
    const link = (await linkOf(delivered))!;
    const sandboxLeads = sandboxControl(sandbox.url);
    // The parcel is delivered; Shopify answers the fulfilment and the payment, and applies neither.
    await sandboxLeads.advance(link.leadRef!, { confirmation_status: "confirmed" });
    await sandboxLeads.advance(link.leadRef!, { shipping_status: "picked_up", tracking_number: "AMANA-42" });
    await sandboxLeads.advance(link.leadRef!, { shipping_status: "shipped" });
    await sandboxLeads.advance(link.leadRef!, { shipping_status: "delivered" });
    await control.addFault({ kind: "silent", shop: SHOP, operation: "FulfillmentCreate" });
    await control.addFault({ kind: "silent", shop: SHOP, operation: "OrderMarkAsPaid" });
    const { syncShopStatuses } = await import("../../app/sync/status-sync.server");
    const { createPipelineDeps } = await import("../../app/sync/pipeline-deps.server");
    const deps = createPipelineDeps(db.prisma);
    const shop = await db.prisma.shop.findUniqueOrThrow({ where: { domain: SHOP } });
    await syncShopStatuses(deps, shop, deps.connect(shop).client);
    await drain();
    expect(JSON.parse((await linkOf(delivered))!.writtenBack)).toMatchObject({ fulfilled: true, paid: true });
    const silentOrder = await control.order(SHOP, String(delivered.id));
    expect(silentOrder).toMatchObject({ displayFulfillmentStatus: "UNFULFILLED", displayFinancialStatus: "PENDING" });
    expect(silentOrder.tags).toEqual(
      expect.arrayContaining(
        [`cod:lead:${link.leadRef!.toLowerCase()}`, "cod:delivered"].map((t) =>
          expect.stringMatching(new RegExp(`^${t}$`, "i")),
        ),
      ),
    );

    await reconcile();

    const fixed = await control.order(SHOP, String(delivered.id));
    expect(fixed).toMatchObject({ displayFulfillmentStatus: "FULFILLED", displayFinancialStatus: "PAID" });
    expect(fixed.fulfillments).toHaveLength(1);
    expect((await timeline(delivered)).filter((e) => e.kind === "reconciled").map((e) => e.message)).toEqual([
      "The Shopify order does not show what the app wrote (the fulfilment and the payment): written again",
    ]);
    // Written once more, not again and again: the next pass finds Shopify in line.
    await reconcile();
    expect((await timeline(delivered)).filter((e) => e.kind === "reconciled")).toHaveLength(1);
    expect((await control.order(SHOP, String(delivered.id))).fulfillments).toHaveLength(1);
  });
});

describe("Shopify's budget", () => {
  it("waits out a throttle and a low bucket without spending attempts, then finishes the pass", async () => {
    const lost = order();
    await control.placeOrder(SHOP, lost, { deliver: false });
    // Another app spent the bucket: the index page is THROTTLED.
    await control.setBucket(SHOP, 10);
    await pass.reconcileNow(db.prisma, SHOP, new Date());
    await drain([RECONCILE_JOB]).catch(() => undefined);
    let job = await db.prisma.job.findUniqueOrThrow({ where: { key: `reconcile:${SHOP}` } });
    expect(job).toMatchObject({
      state: "pending",
      attempts: 0,
      lastError: expect.stringMatching(/^Shopify is busy: the reconciliation continues in \d+ s$/),
    });
    expect(JSON.parse(job.payload)).toMatchObject({ pages: 0, throttledUntil: expect.any(String) });

    // Room for the index (the stand-in asks 504 points for it) but not for reading an order whole (930 and a quarter of the bucket).
    await control.setBucket(SHOP, 700);
    await db.prisma.job.update({ where: { id: job.id }, data: { runAt: new Date() } });
    await drain([RECONCILE_JOB]).catch(() => undefined);
    job = await db.prisma.job.findUniqueOrThrow({ where: { key: `reconcile:${SHOP}` } });
    expect(job).toMatchObject({
      attempts: 0,
      lastError: expect.stringMatching(/^Shopify's budget is low: the reconciliation continues in \d+ s$/),
    });
    expect(await linkOf(lost)).toBeNull();

    await control.setBucket(SHOP, 2000);
    await db.prisma.job.update({ where: { id: job.id }, data: { runAt: new Date() } });
    await drain();
    expect((await linkOf(lost))?.state).toBe("created");
    expect(
      JSON.parse((await db.prisma.job.findUniqueOrThrow({ where: { key: `reconcile:${SHOP}` } })).payload),
    ).toEqual({});
  });

  it("comes back at the next interval when Shopify fails, and the ledger says why", async () => {
    await control.addFault({ kind: "http_error", shop: SHOP, operation: "ReconcileOrders", status: 503, times: 1 });
    await pass.reconcileNow(db.prisma, SHOP, new Date());
    await drain([RECONCILE_JOB]);
    const job = await db.prisma.job.findUniqueOrThrow({ where: { key: `reconcile:${SHOP}` } });
    expect(job.state).toBe("pending");
    expect(job.runAt.getTime()).toBeGreaterThan(Date.now() + 30_000);
    expect(JSON.parse(job.payload)).toMatchObject({ shopifyFailure: "unavailable", pages: 0 });
    expect((await db.prisma.syncLedger.findUniqueOrThrow({ where: { shop: SHOP } })).lastFailure).toBe("unavailable");
    // The next pass reads again and clears it.
    await reconcile();
    expect((await db.prisma.syncLedger.findUniqueOrThrow({ where: { shop: SHOP } })).lastFailure).toBeNull();
  });
});

describe("stuck orders", () => {
  it("fire the Order stuck Flow trigger once per episode, with the fields the extension declares", async () => {
    // Flow's lifecycle callback: an enabled workflow of the shop uses the trigger (nothing is sent before).
    const { recordTriggerUsage } = await import("../../app/flow/flow-triggers.server");
    await recordTriggerUsage(db.prisma, SHOP, {
      shopify_domain: SHOP,
      flow_trigger_definition_id: "order-stuck",
      has_enabled_flow: true,
    });
    const id = String(nextId++);
    const since = new Date(Date.now() - 45 * 60_000);
    const link = await db.prisma.orderLink.create({
      data: {
        shop: SHOP,
        orderId: id,
        orderName: "#STUCK",
        payload: "{}",
        externalRef: `shopify:${id}`,
        state: "retrying",
        reason: "The platform is down",
        createdAt: since,
        orderCreatedAt: since,
      },
    });
    await reconcile();
    await reconcile();
    const received = (await control.flow(SHOP)).received.filter((r) => r.handle === "order-stuck");
    expect(received).toHaveLength(1);
    expect(received[0].payload).toEqual({
      order_id: Number(id),
      "Lead state": "retrying",
      "Minutes stuck": 45,
      Reason: "The platform is down",
    });
    const { loadSyncLedger } = await import("../../app/pages/sync-ledger.server");
    const ledger = await loadSyncLedger(db.prisma, SHOP);
    expect(ledger.stuck).toMatchObject({
      total: 1,
      orders: [{ id: link.id, orderName: "#STUCK", state: "retrying", minutes: 45 }],
    });
    await db.prisma.orderLink.delete({ where: { id: link.id } });
  });
});

describe("stuck orders, counted", () => {
  it("counts them all when more wait than are listed, a recent arrival or resend not among them", async () => {
    const { stuckOrders } = await import("../../app/sync/reconcile/measure.server");
    const now = new Date();
    const ago = (minutes: number) => new Date(now.getTime() - minutes * 60_000);
    const rows = [
      { state: "received", createdAt: ago(90) },
      { state: "posting", createdAt: ago(60) },
      { state: "retrying", createdAt: ago(45) },
      { state: "received", createdAt: ago(5) },
      { state: "retrying", createdAt: ago(200), resendAt: ago(2) },
    ];
    const ids = [];
    for (const [i, row] of rows.entries()) {
      const id = String(nextId++);
      ids.push(
        (
          await db.prisma.orderLink.create({
            data: {
              shop: SHOP,
              orderId: id,
              orderName: `#C${i}`,
              payload: "{}",
              externalRef: `shopify:${id}`,
              updatedAt: row.createdAt,
              ...row,
            },
          })
        ).id,
      );
    }
    try {
      const all = await stuckOrders(db.prisma, SHOP, now, 30 * 60_000, 10);
      expect(all.orders.map((o) => o.orderName)).toEqual(["#C0", "#C1", "#C2"]);
      expect(all.total).toBe(3);
      // Two read (the two waiting longest since their last change: the resent one, then #C0), the counts
      // give the total (where the resent one counts from its arrival: four).
      const two = await stuckOrders(db.prisma, SHOP, now, 30 * 60_000, 2);
      expect(two.orders.map((o) => o.orderName)).toEqual(["#C0"]);
      expect(two.total).toBe(4);
    } finally {
      await db.prisma.orderLink.deleteMany({ where: { id: { in: ids } } });
    }
  });
});

describe("the sync ledger", () => {
  it("counts Shopify's orders and the app's of the same instant, what was recovered, and the latencies", async () => {
    const placed = new Date(Date.now() - 5 * 60_000).toISOString();
    const viaWebhook = order({ createdAt: placed });
    const lost = order({ createdAt: placed });
    const skipped = order({ createdAt: placed, gateway: "shopify_payments", financialStatus: "paid" });
    for (const o of [viaWebhook, lost, skipped]) await control.placeOrder(SHOP, o, { deliver: false });
    for (const o of [viaWebhook, skipped]) await deliver("orders/create", o);
    await drain();
    const { loadSyncLedger } = await import("../../app/pages/sync-ledger.server");

    // The lost order shows in Shopify with a time before the last pass (as when Shopify's search
    // trails its writes): the updated-since read misses it, Shopify's count does not.
    await reconcile();
    expect(await linkOf(lost)).toBeNull();
    expect((await loadSyncLedger(db.prisma, SHOP)).windows.day.notSeen).toBe(1);
    // So the next pass reads the whole window again, and takes it in.
    await reconcile();
    expect((await linkOf(lost))?.state).toBe("created");

    const ledger = await loadSyncLedger(db.prisma, SHOP);
    const day = ledger.windows.day;
    expect(ledger.started).toBe(true);
    expect(day.shopify).toMatchObject({ precision: "EXACT" });
    // Every order Shopify has in the window is accounted for, by outcome.
    expect(day.app.total).toBe(day.shopify!.count);
    expect(day.notSeen).toBe(0);
    expect(day.app.skipped).toBeGreaterThanOrEqual(1);
    // Counted when the pass ended: the order it had just taken in was on its way to the platform.
    expect(day.app.sent + day.app.pending).toBeGreaterThanOrEqual(2);
    expect(day.recovered).toBeGreaterThanOrEqual(3);
    expect(ledger.passes[0].orders).toEqual(
      expect.arrayContaining([expect.objectContaining({ orderName: lost.name, what: "recovered" })]),
    );
    // The lost order's lead came after its pass; the others' within seconds.
    expect(day.leadP50).not.toBeNull();
    expect(day.leadP95).not.toBeNull();
    expect(day.leadP95!).toBeGreaterThanOrEqual(day.leadP50!);
    expect(day.statusP95).not.toBeNull();
    expect(ledger.windows.week.promise.leads.sample).toBeGreaterThanOrEqual(5);
  });

  it("after a pause longer than the bound, takes in only the bound and names the rest for the Backfill", async () => {
    const saved = await db.prisma.syncLedger.findUniqueOrThrow({ where: { shop: SHOP } });
    const tenDaysAgo = new Date(Date.now() - 10 * 24 * 3600_000);
    await db.prisma.syncLedger.update({
      where: { shop: SHOP },
      data: { watermark: tenDaysAgo, coverageFrom: tenDaysAgo },
    });
    const tooOld = order({ createdAt: new Date(Date.now() - 8 * 24 * 3600_000).toISOString() });
    const inBound = order({ createdAt: new Date(Date.now() - 6 * 24 * 3600_000).toISOString() });
    for (const o of [tooOld, inBound]) {
      await control.placeOrder(SHOP, o, { deliver: false });
      await control.editOrder(SHOP, String(o.id), { note: "seen now" }, { deliver: false });
    }
    await reconcile();
    expect(await linkOf(tooOld)).toBeNull();
    expect(await linkOf(inBound)).not.toBeNull();
    const ledger = await db.prisma.syncLedger.findUniqueOrThrow({ where: { shop: SHOP } });
    expect(ledger.uncoveredFrom).toEqual(tenDaysAgo);
    expect(ledger.coverageFrom.getTime()).toBeGreaterThan(Date.now() - 7 * 24 * 3600_000 - 60_000);
    await db.prisma.syncLedger.update({
      where: { shop: SHOP },
      data: { coverageFrom: saved.coverageFrom, uncoveredFrom: null },
    });
  });
});
