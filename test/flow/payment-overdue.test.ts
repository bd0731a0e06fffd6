/**
 * "Payment overdue": a parcel becoming owed schedules the shop's daily check;
 * the check fires the Flow trigger once for each delivered parcel still unpaid
 * after the shop's threshold, through the worker to the Admin stand-in (which
 * checks the payload against the extension's TOML), and nothing for parcels
 * paid, returned or recent; the merchant's switch and Flow's lifecycle word
 * are obeyed; the check comes back tomorrow while money is owed, not after.
 */
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  flowDefinitionsFrom,
  shopifyAdminControl,
  startShopifyAdmin,
  type RunningShopifyAdmin,
} from "../../shopify-admin/index";
import { storeOfflineSession } from "../helpers/admin";
import { useTestDatabaseForApp } from "../helpers/app";
import type { TestDatabase } from "../helpers/db";
import { connectTestShop, SHOP, testPipeline, type TestPipeline } from "../helpers/pipeline";
import { snapshotOf } from "../../app/models/lead-events";

const DAY = 86_400_000;
// Noon in Casablanca: whole days from here are calendar days there.
const NOW = new Date(Date.now() - (Date.now() % DAY) + 11 * 3_600_000);

let db: TestDatabase;
let admin: RunningShopifyAdmin;
let shopify: ReturnType<typeof shopifyAdminControl>;
let pipeline: TestPipeline;

beforeAll(async () => {
  db = await useTestDatabaseForApp();
  admin = await startShopifyAdmin({
    quiet: true,
    flow: flowDefinitionsFrom(join(import.meta.dirname, "..", "..", "extensions")),
  });
  shopify = shopifyAdminControl(admin.url);
  await admin.installFetchRewrite();
  const app = await import("../../app/shopify.server");
  await storeOfflineSession(app.sessionStorage, SHOP);
  pipeline = testPipeline(db.prisma, {
    adminFor: async (shop) => (await app.unauthenticated.admin(shop)).admin,
    clock: () => NOW,
  });
  await connectTestShop(db.prisma, { apiKey: "sk_test_unused_0000", baseUrl: "http://127.0.0.1:9" });
  // Flow's lifecycle callback: an enabled workflow of the shop uses the trigger (nothing is sent before).
  const { recordTriggerUsage } = await import("../../app/flow/flow-triggers.server");
  await recordTriggerUsage(
    db.prisma,
    SHOP,
    { shopify_domain: SHOP, flow_trigger_definition_id: "payment-overdue", has_enabled_flow: true },
    new Date(NOW.getTime() - DAY),
  );
});

afterAll(async () => {
  await admin?.close();
  await db?.cleanup();
});

let nextOrder = 8_800_000_000_000;

/** A lead whose parcel reached `shipping` `daysAgo` days ago, told to the ledger as the status sync would. */
async function parcel(shipping: string, daysAgo: number, profit: string | null = "80.50") {
  const { applyLeadEvents } = await import("../../app/sync/lead-events.server");
  const n = nextOrder++;
  const link = await db.prisma.orderLink.create({
    data: {
      shop: SHOP,
      orderId: String(n),
      orderName: `#${n % 10_000}`,
      payload: "{}",
      externalRef: `shopify:${n}`,
      state: "created",
      leadRef: `ATB-${n % 10_000}`,
      confirmationStatus: "confirmed",
      shippingStatus: shipping,
      totalClient: "249.00",
      sellerProfit: profit,
      createdAt: new Date(NOW.getTime() - (daysAgo + 2) * DAY),
    },
  });
  const event = {
    linkId: link.id,
    kind: "status" as const,
    before: { ...snapshotOf(link), shippingStatus: "shipped", sellerProfit: null },
    after: snapshotOf(link),
    at: new Date(NOW.getTime() - daysAgo * DAY),
  };
  await db.prisma.$transaction((tx) => applyLeadEvents(tx, SHOP, [event]));
  return link;
}

const overdueReceived = async () => (await shopify.flow(SHOP)).received.filter((r) => r.handle === "payment-overdue");

describe("Payment overdue", () => {
  it("fires once for each parcel unpaid after the threshold, and the check comes back tomorrow", async () => {
    const late = await parcel("delivered", 20);
    const unknownProfit = await parcel("delivered", 16, null);
    const recent = await parcel("delivered", 10);
    await parcel("paid", 30);
    await parcel("returned", 25);

    // A parcel became owed: the shop's daily check is coming.
    const check = await db.prisma.job.findUniqueOrThrow({ where: { key: `payment-overdue:${SHOP}` } });
    expect(check.state).toBe("pending");
    await db.prisma.job.update({ where: { id: check.id }, data: { runAt: new Date(0) } });

    await pipeline.drain({ kinds: ["payment-overdue"] });
    await pipeline.drain({ kinds: ["flow-trigger"] });
    const received = await overdueReceived();
    expect(received.map((r) => r.payload).sort((a, b) => Number(a["Days unpaid"]) - Number(b["Days unpaid"]))).toEqual([
      {
        order_id: Number(unknownProfit.orderId),
        "Lead reference": unknownProfit.leadRef,
        "Amount collected": 249,
        "Seller profit": 0,
        "Delivered on": expect.any(String),
        "Days unpaid": 16,
      },
      {
        order_id: Number(late.orderId),
        "Lead reference": late.leadRef,
        "Amount collected": 249,
        "Seller profit": 80.5,
        "Delivered on": expect.any(String),
        "Days unpaid": 20,
      },
    ]);
    // Each firing is on the order's timeline.
    expect(
      await db.prisma.timelineEvent.count({
        where: { linkId: late.id, kind: "flow", message: { contains: "Payment overdue" } },
      }),
    ).toBe(1);

    // Money is still owed: the check is planned a few minutes into the shop's next day.
    const next = await db.prisma.job.findUniqueOrThrow({ where: { key: `payment-overdue:${SHOP}` } });
    expect(next.state).toBe("pending");
    expect(next.runAt.getTime()).toBeGreaterThan(NOW.getTime());
    expect(next.runAt.getTime() - NOW.getTime()).toBeLessThanOrEqual(DAY);

    // The same check again fires nothing new.
    const { queueOverdueTriggers } = await import("../../app/flow/payment-overdue.server");
    expect(await queueOverdueTriggers(db.prisma, SHOP, NOW)).toEqual({ queued: 0 });

    // The merchant lowers the threshold to 7 days: the 10-day parcel is overdue now.
    await db.prisma.shop.update({
      where: { domain: SHOP },
      data: { settings: JSON.stringify({ paymentOverdueDays: 7 }) },
    });
    expect(await queueOverdueTriggers(db.prisma, SHOP, NOW)).toEqual({ queued: 1 });
    await pipeline.drain({ kinds: ["flow-trigger"] });
    expect((await overdueReceived()).map((r) => r.payload.order_id)).toContain(Number(recent.orderId));
  });

  it("sends nothing while the merchant's switch is off or Flow says no workflow uses it, and marks nothing", async () => {
    const { queueOverdueTriggers } = await import("../../app/flow/payment-overdue.server");
    const waiting = await parcel("delivered", 40);
    await db.prisma.shop.update({
      where: { domain: SHOP },
      data: { settings: JSON.stringify({ flowTriggers: { paymentOverdue: false } }) },
    });
    expect(await queueOverdueTriggers(db.prisma, SHOP, NOW)).toEqual({ queued: 0, skipped: "switched_off" });
    await db.prisma.shop.update({ where: { domain: SHOP }, data: { settings: "{}" } });
    await db.prisma.flowTriggerUsage.deleteMany({ where: { shop: SHOP } });
    // Flow has not said a workflow uses it yet: nothing.
    expect(await queueOverdueTriggers(db.prisma, SHOP, NOW)).toEqual({ queued: 0, skipped: "no_workflow" });
    await db.prisma.flowTriggerUsage.create({
      data: { shop: SHOP, handle: "payment-overdue", hasEnabledFlow: false, notifiedAt: NOW },
    });
    expect(await queueOverdueTriggers(db.prisma, SHOP, NOW)).toEqual({ queued: 0, skipped: "no_workflow" });
    expect(
      (await db.prisma.cashParcel.findUniqueOrThrow({ where: { linkId: waiting.id } })).overdueNotifiedAt,
    ).toBeNull();
    // Flow reports a workflow again: the waiting parcel fires.
    await db.prisma.flowTriggerUsage.update({
      where: { shop_handle: { shop: SHOP, handle: "payment-overdue" } },
      data: { hasEnabledFlow: true },
    });
    expect(await queueOverdueTriggers(db.prisma, SHOP, NOW)).toEqual({ queued: 1 });
  });

  it("stops coming back once the platform has paid everything", async () => {
    const { applyLeadEvents } = await import("../../app/sync/lead-events.server");
    const owed = await db.prisma.orderLink.findMany({ where: { shop: SHOP, shippingStatus: "delivered" } });
    await db.prisma.orderLink.updateMany({
      where: { id: { in: owed.map((l) => l.id) } },
      data: { shippingStatus: "paid" },
    });
    await db.prisma.$transaction((tx) =>
      applyLeadEvents(
        tx,
        SHOP,
        owed.map((l) => ({
          linkId: l.id,
          kind: "status" as const,
          before: snapshotOf(l),
          after: { ...snapshotOf(l), shippingStatus: "paid" },
          at: NOW,
        })),
      ),
    );
    expect(await db.prisma.cashParcel.count({ where: { shop: SHOP, state: "owed" } })).toBe(0);
    await db.prisma.job.update({ where: { key: `payment-overdue:${SHOP}` }, data: { runAt: new Date(0) } });
    await pipeline.drain({ kinds: ["payment-overdue"] });
    expect((await db.prisma.job.findUniqueOrThrow({ where: { key: `payment-overdue:${SHOP}` } })).state).toBe("done");
  });
});
