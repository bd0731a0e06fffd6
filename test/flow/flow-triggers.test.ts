/**
 * Flow triggers through the whole pipeline: orders posted to the sandbox, the lead
 * moved by the platform, the status sync, and the worker calling flowTriggerReceive on
 * the Admin stand-in (which checks each payload against the app's extension TOMLs).
 * Exactly one trigger per event, also when a sync sees the same change twice and
 * when the Admin API fails then recovers.
 */
import { join } from "node:path";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { sandboxControl, startSandbox } from "../../sandbox/index";
import {
  flowDefinitionsFrom,
  shopifyAdminControl,
  startShopifyAdmin,
  type RunningShopifyAdmin,
} from "../../shopify-admin/index";
import { storeOfflineSession } from "../helpers/admin";
import { useTestDatabaseForApp } from "../helpers/app";
import type { TestDatabase } from "../helpers/db";
import { webhookOrder } from "../helpers/orders";
import { connectTestShop, SHOP, testPipeline, type TestPipeline } from "../helpers/pipeline";

let db: TestDatabase;
let sandbox: Awaited<ReturnType<typeof startSandbox>>;
let platform: ReturnType<typeof sandboxControl>;
let admin: RunningShopifyAdmin;
let shopify: ReturnType<typeof shopifyAdminControl>;
let pipeline: TestPipeline;
let nextOrderId = 7_770_000_000_000;

beforeAll(async () => {
  db = await useTestDatabaseForApp();
  sandbox = await startSandbox({ port: 0, quiet: true, rateLimitPerMinute: 100_000 });
  platform = sandboxControl(sandbox.url);
  admin = await startShopifyAdmin({
    quiet: true,
    flow: flowDefinitionsFrom(join(import.meta.dirname, "..", "..", "extensions")),
  });
  shopify = shopifyAdminControl(admin.url);
  await admin.installFetchRewrite();
  const app = await import("../../app/shopify.server");
  await storeOfflineSession(app.sessionStorage, SHOP);
});

afterAll(async () => {
  await admin?.close();
  await sandbox?.close();
  await db?.cleanup();
});

beforeEach(async () => {
  const { keys } = await platform.reset();
  await platform.config({ rate_limit_per_minute: 100_000 });
  await shopify.reset();
  await db.prisma.job.deleteMany();
  await db.prisma.timelineEvent.deleteMany();
  await db.prisma.orderLink.deleteMany();
  await db.prisma.flowTriggerUsage.deleteMany();
  await db.prisma.pendingLeadEvent.deleteMany();
  await connectTestShop(db.prisma, { apiKey: keys.find((k) => k.account === "ACC-1001")!.key, baseUrl: sandbox.url });
  // A fresh worker too, as the stand-in's buckets are fresh: its line for Shopify's points starts empty.
  const app = await import("../../app/shopify.server");
  pipeline = testPipeline(db.prisma, { adminFor: async (shop) => (await app.unauthenticated.admin(shop)).admin });
});

/**
 * Flow's lifecycle callback: an enabled workflow of the shop uses every trigger the lead events fire
 * (none is sent before); "Delivery odds scored", fired when an order is scored, has its own tests
 * (test/sync/delivery-odds.test.ts).
 */
async function workflowsUseTriggers() {
  const { recordTriggerUsage } = await import("../../app/flow/flow-triggers.server");
  await recordTriggerUsage(db.prisma, SHOP, { shopify_domain: SHOP, has_enabled_flow: true });
  await recordTriggerUsage(db.prisma, SHOP, {
    shopify_domain: SHOP,
    flow_trigger_definition_id: "delivery-odds-scored",
    has_enabled_flow: false,
  });
}

async function placeOrders(count: number) {
  const { intakeOrderCreated } = await import("../../app/sync/order-intake.server");
  for (let i = 0; i < count; i++) {
    const body = webhookOrder({
      id: nextOrderId++,
      phone: `06${String(20000000 + (nextOrderId % 1_000_000)).padStart(8, "0")}`,
    });
    await db.prisma.$transaction((tx) => intakeOrderCreated(tx, SHOP, body));
  }
  await pipeline.drain({ kinds: ["post-lead"], timeoutMs: 60_000 });
  return db.prisma.orderLink.findMany({ where: { shop: SHOP }, orderBy: { orderId: "asc" } });
}

async function sync() {
  const { syncShopStatuses } = await import("../../app/sync/status-sync.server");
  const shop = await db.prisma.shop.findUniqueOrThrow({ where: { domain: SHOP } });
  return syncShopStatuses(pipeline.deps, shop, pipeline.deps.connect(shop).client);
}

/** The worker's next steps: the recorded lead events told, then every firing sent. */
async function fireAll() {
  await pipeline.tellLeadEvents();
  // "Lead status changed" waits a few seconds for later moves to join it: let the clock reach it.
  await db.prisma.job.updateMany({
    where: { kind: "flow-trigger", state: { in: ["pending", "failed"] } },
    data: { runAt: new Date() },
  });
  return pipeline.drain({ kinds: ["flow-trigger"], timeoutMs: 20_000 });
}
const received = async () => (await shopify.flow(SHOP)).received;
const summary = (records: Awaited<ReturnType<typeof received>>, orderId: string) =>
  records
    .filter((r) => String(r.payload.order_id) === orderId)
    .map((r) =>
      r.handle === "lead-status-changed"
        ? `status ${r.payload["Confirmation status"]}/${r.payload["Shipping status"]}`
        : r.handle,
    );

describe("Flow triggers", () => {
  it("fire once per event along an autopilot sequence, moves made before a firing went out joining it", async () => {
    await workflowsUseTriggers();
    const [a, b] = await placeOrders(2);
    expect([a.state, b.state]).toEqual(["created", "created"]);
    await fireAll();

    await platform.advance(a.leadRef!, { confirmation_status: "confirmed" });
    await platform.advance(b.leadRef!, { confirmation_status: "confirmed" });
    await sync();
    // The same statuses seen again: nothing changed, nothing fires.
    await sync();
    await fireAll();
    await platform.advance(a.leadRef!, { shipping_status: "picked_up", tracking_number: "TRK-A-1" });
    await platform.advance(b.leadRef!, { shipping_status: "picked_up", tracking_number: "TRK-B-1" });
    await sync();
    await fireAll();
    // Two moves before the next firing goes out (two cycles, each told in its own batch): one firing, first to last.
    await platform.advance(a.leadRef!, { shipping_status: "shipped" });
    await platform.advance(b.leadRef!, { shipping_status: "shipped" });
    await sync();
    await pipeline.tellLeadEvents();
    await platform.advance(a.leadRef!, { shipping_status: "delivered" });
    await platform.advance(b.leadRef!, { shipping_status: "returned" });
    await sync();
    await sync();
    await fireAll();

    const records = await received();
    expect(summary(records, a.orderId)).toEqual([
      "lead-created",
      "status confirmed/pending",
      "status confirmed/picked_up",
      "status confirmed/delivered",
    ]);
    expect(summary(records, b.orderId)).toEqual([
      "lead-created",
      "status confirmed/pending",
      "status confirmed/picked_up",
      "status confirmed/returned",
    ]);

    const created = records.find((r) => r.handle === "lead-created" && String(r.payload.order_id) === a.orderId)!;
    expect(created.payload).toMatchObject({ "Lead reference": a.leadRef, "Lead state": "created" });
    expect(typeof created.payload.City).toBe("string");
    expect((created.payload.City as string).length).toBeGreaterThan(0);
    expect(created.payload["Amount to collect"]).toBe(Number(a.totalClient));
    const delivered = records.find((r) => r.payload["Shipping status"] === "delivered")!;
    expect(delivered.payload).toMatchObject({ "Previous shipping status": "picked_up", "Tracking number": "TRK-A-1" });
    const stored = await db.prisma.orderLink.findUniqueOrThrow({ where: { id: a.id } });
    expect(stored.sellerProfit).not.toBeNull();
    expect(delivered.payload["Seller profit"]).toBe(Number(stored.sellerProfit));
    expect(delivered.payload["Seller profit"]).toBeGreaterThan(0);

    // Each firing is on its order's timeline.
    const timeline = await db.prisma.timelineEvent.findMany({ where: { linkId: a.id, kind: "flow" } });
    expect(timeline).toHaveLength(4);
    expect(timeline.map((t) => t.message)).toContain("Sent to Shopify Flow: “Lead status changed”");
  });

  it("sends a shop's due firings in one request, and a firing Flow refuses fails alone", async () => {
    await workflowsUseTriggers();
    const orders = await placeOrders(3);
    await pipeline.tellLeadEvents();
    // One firing's payload lacks a field its trigger declares: Flow answers userErrors for it alone.
    const [refused] = await db.prisma.job.findMany({
      where: { kind: "flow-trigger", key: { contains: orders[1].orderId } },
    });
    const payload = JSON.parse(refused.payload) as { payload: Record<string, unknown> };
    delete payload.payload["Lead reference"];
    await db.prisma.job.update({ where: { id: refused.id }, data: { payload: JSON.stringify(payload) } });
    await fireAll();

    expect(await shopify.calls({ operation: "FlowTriggerReceive" })).toHaveLength(1);
    const states = Object.fromEntries(
      (await db.prisma.job.findMany({ where: { kind: "flow-trigger" } })).map((j) => [j.id, j.state]),
    );
    expect(states[refused.id]).toBe("dead");
    expect(Object.values(states).filter((s) => s === "done")).toHaveLength(2);
    expect((await received()).map((r) => String(r.payload.order_id)).sort()).toEqual(
      [orders[0].orderId, orders[2].orderId].sort(),
    );
    const rows = await db.prisma.timelineEvent.findMany({ where: { linkId: orders[1].id, kind: "flow" } });
    expect(rows.map((r) => r.message)).toEqual([expect.stringContaining("Flow")]);
  });

  it("an Admin API failure is retried until Flow has the trigger, once", async () => {
    await workflowsUseTriggers();
    await shopify.addFault({ kind: "http_error", status: 503, operation: "FlowTriggerReceive", times: 1 });
    await shopify.addFault({ kind: "throttled", operation: "FlowTriggerReceive", times: 1 });
    await shopify.addFault({ kind: "refuse", operation: "FlowTriggerReceive", times: 1 });
    const [order] = await placeOrders(1);
    // A throttled call waits for the cost Shopify returned, and the calls after it for their place in
    // the shop's line (100 ms a call on an empty bucket): each round lets the clock reach it.
    for (const until = Date.now() + 10_000; Date.now() < until && (await received()).length === 0;) {
      await fireAll();
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    const calls = await shopify.calls({ operation: "FlowTriggerReceive" });
    expect(calls.length).toBe(4);
    expect(summary(await received(), order.orderId)).toEqual(["lead-created"]);
    const job = await db.prisma.job.findFirstOrThrow({ where: { kind: "flow-trigger" } });
    expect(job.state).toBe("done");
  });

  it("sends nothing before Flow says an enabled workflow uses a trigger, then only that trigger", async () => {
    const { recordTriggerUsage } = await import("../../app/flow/flow-triggers.server");
    const [first] = await placeOrders(1);
    await platform.advance(first.leadRef!, { confirmation_status: "confirmed" });
    await sync();
    await fireAll();
    expect(await received()).toEqual([]);
    expect(await db.prisma.job.count({ where: { kind: "flow-trigger" } })).toBe(0);

    await recordTriggerUsage(db.prisma, SHOP, {
      shopify_domain: SHOP,
      flow_trigger_definition_id: "lead-status-changed",
      has_enabled_flow: true,
    });
    const [, second] = await placeOrders(1);
    await platform.advance(first.leadRef!, { shipping_status: "picked_up", tracking_number: "TRK-1" });
    await platform.advance(second.leadRef!, { confirmation_status: "confirmed" });
    await sync();
    await fireAll();
    expect((await received()).map((r) => r.handle)).toEqual(["lead-status-changed", "lead-status-changed"]);
  });

  it("sends nothing a shop switched off, or that Flow said no workflow uses", async () => {
    const { recordTriggerUsage } = await import("../../app/flow/flow-triggers.server");
    await recordTriggerUsage(db.prisma, SHOP, {
      shopify_domain: SHOP,
      flow_trigger_definition_id: "lead-created",
      has_enabled_flow: false,
      timestamp: "2026-11-20T10:00:00Z",
    });
    // An older notification does not override a newer one.
    await recordTriggerUsage(db.prisma, SHOP, {
      shopify_domain: SHOP,
      flow_trigger_definition_id: "lead-created",
      has_enabled_flow: true,
      timestamp: "2026-11-19T10:00:00Z",
    });
    const shop = await db.prisma.shop.findUniqueOrThrow({ where: { domain: SHOP } });
    const settings = JSON.parse(shop.settings ?? "{}");
    await db.prisma.shop.update({
      where: { domain: SHOP },
      data: { settings: JSON.stringify({ ...settings, flowTriggers: { leadStatusChanged: false } }) },
    });

    const [order] = await placeOrders(1);
    await platform.advance(order.leadRef!, { confirmation_status: "fake" });
    await sync();
    await fireAll();
    expect(await received()).toEqual([]);
    expect(await db.prisma.job.count({ where: { kind: "flow-trigger" } })).toBe(0);
  });

  it("queues a batch larger than one read of links takes in one call, each event once", async () => {
    await workflowsUseTriggers();
    const { queueFlowTriggers } = await import("../../app/flow/flow-triggers.server");
    const count = 1_200;
    await db.prisma.orderLink.createMany({
      data: Array.from({ length: count }, (_, i) => ({
        id: `bulk-${i}`,
        shop: SHOP,
        orderId: String(9_000_000 + i),
        orderName: `#B${i}`,
        payload: "{}",
        externalRef: `bulk:${i}`,
        state: "created",
        leadRef: `BULK-${i}`,
      })),
    });
    const at = new Date();
    const events = Array.from({ length: count }, (_, i) => ({
      linkId: `bulk-${i}`,
      kind: "status" as const,
      before: { state: "created", confirmationStatus: "new", shippingStatus: "pending", sellerProfit: null },
      after: { state: "created", confirmationStatus: "confirmed", shippingStatus: "pending", sellerProfit: null },
      at,
    }));
    await db.prisma.$transaction((tx) => queueFlowTriggers(tx, SHOP, events), { timeout: 60_000 });
    // The same events told again (a retried caller) queue nothing more.
    await db.prisma.$transaction((tx) => queueFlowTriggers(tx, SHOP, events), { timeout: 60_000 });
    expect(await db.prisma.job.count({ where: { kind: "flow-trigger" } })).toBe(count);
  });

  it("an order held by the shop's rules needs attention, with the reason in plain words", async () => {
    await workflowsUseTriggers();
    const { intakeOrderCreated } = await import("../../app/sync/order-intake.server");
    const body = webhookOrder({ id: nextOrderId++, phone: null });
    await db.prisma.$transaction((tx) => intakeOrderCreated(tx, SHOP, body));
    await pipeline.drain({ kinds: ["post-lead"], timeoutMs: 30_000 });
    await fireAll();
    const [record] = await received();
    expect(record.handle).toBe("order-needs-attention");
    expect(record.payload["Lead state"]).toBe("held");
    expect(String(record.payload.Reason)).toMatch(/phone/i);
    expect(String(record.payload.Findings)).toMatch(/phone/i);
  });
});
