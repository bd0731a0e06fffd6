/**
 * Status sync against the sandbox: list pages cover the tracked leads, a
 * detail GET only where the list lacks what the merchant needs, final leads
 * stop being tracked, and platform events only trigger a re-read.
 */
import { createHmac } from "node:crypto";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { startSandbox, sandboxControl, type AdvanceInput } from "../../sandbox/index";
import { useTestDatabaseForApp } from "../helpers/app";
import type { TestDatabase } from "../helpers/db";
import { webhookOrder } from "../helpers/orders";
import { connectTestShop, SHOP, testPipeline, type TestPipeline } from "../helpers/pipeline";
import { createSecretBox } from "../../app/crypto/secret-box.server";

let db: TestDatabase;
let sandbox: Awaited<ReturnType<typeof startSandbox>>;
let control: ReturnType<typeof sandboxControl>;
let pipeline: TestPipeline;
let keyId: string;
let nextId = 5_560_000_000_000;

async function seedLeads(count: number) {
  const { intakeOrderCreated } = await import("../../app/sync/order-intake.server");
  for (let i = 0; i < count; i++) {
    // A distinct phone per order: no recent-duplicate anomalies.
    const body = webhookOrder({ id: nextId++, phone: `06${String(10000000 + i).padStart(8, "0")}` });
    await db.prisma.$transaction((tx) => intakeOrderCreated(tx, SHOP, body));
  }
  await pipeline.drain({ kinds: ["post-lead"] });
  return db.prisma.orderLink.findMany({ where: { shop: SHOP, leadRef: { not: null } }, orderBy: { createdAt: "asc" } });
}

async function runSync() {
  const { syncShopStatuses } = await import("../../app/sync/status-sync.server");
  const shop = await db.prisma.shop.findUniqueOrThrow({ where: { domain: SHOP } });
  return syncShopStatuses(pipeline.deps, shop, pipeline.deps.connect(shop).client);
}

const calls = async () => (await control.getKey(keyId)).calls;

beforeAll(async () => {
  db = await useTestDatabaseForApp();
  sandbox = await startSandbox({ port: 0, quiet: true, rateLimitPerMinute: 100_000 });
  control = sandboxControl(sandbox.url);
  pipeline = testPipeline(db.prisma);
});
afterAll(async () => {
  await sandbox.close();
  await db.cleanup();
});
beforeEach(async () => {
  const { keys } = await control.reset();
  const key = keys.find((k) => k.account === "ACC-1001")!;
  keyId = key.id;
  await control.config({ rate_limit_per_minute: 100_000 });
  await db.prisma.job.deleteMany();
  await db.prisma.timelineEvent.deleteMany();
  await db.prisma.orderLink.deleteMany();
  await db.prisma.pendingLeadEvent.deleteMany();
  await db.prisma.flowTriggerUsage.deleteMany();
  await connectTestShop(db.prisma, { apiKey: key.key, baseUrl: sandbox.url });
});

describe("status sync", () => {
  it("updates changed statuses, reads details only when needed, and queues write-back", async () => {
    const links = await seedLeads(5);
    expect(links).toHaveLength(5);
    const [a, b, c] = links;
    await control.advance(a.leadRef!, { confirmation_status: "confirmed" });
    await control.advance(b.leadRef!, { confirmation_status: "confirmed" });
    await control.advance(b.leadRef!, { shipping_status: "picked_up", tracking_number: "TRK-B-1" });
    await control.advance(c.leadRef!, { confirmation_status: "fake" });
    const before = (await calls()).length;

    const report = await runSync();

    const made = (await calls()).slice(before);
    expect(made.filter((x) => x.path.startsWith("/v1/leads?"))).toHaveLength(1);
    // Only b needs a detail GET (picked up, tracking number unknown).
    expect(made.filter((x) => x.path.startsWith(`/v1/leads/${b.leadRef}`))).toHaveLength(1);
    expect(report).toMatchObject({ tracked: 5, listCalls: 1, detailCalls: 1, updated: 3 });

    const after = async (id: string) => db.prisma.orderLink.findUniqueOrThrow({ where: { id } });
    expect(await after(a.id)).toMatchObject({
      confirmationStatus: "confirmed",
      shippingStatus: "pending",
      statusFinal: false,
    });
    expect(await after(b.id)).toMatchObject({ shippingStatus: "picked_up", trackingNumber: "TRK-B-1" });
    expect(await after(c.id)).toMatchObject({ confirmationStatus: "fake", statusFinal: true });
    expect(await db.prisma.job.count({ where: { kind: "write-back", shop: SHOP } })).toBe(5);
    const changes = await db.prisma.timelineEvent.findMany({ where: { linkId: b.id, kind: "status_changed" } });
    expect(changes[0].message).toMatch(/tracking number TRK-B-1/);

    // A second cycle with nothing new: no detail call, c is no longer tracked.
    const again = await runSync();
    expect(again).toMatchObject({ tracked: 4, listCalls: 1, detailCalls: 0, updated: 0 });
  });

  it("pages through more than 100 tracked leads with one list call per 100", async () => {
    await seedLeads(230);
    const report = await runSync();
    expect(report.tracked).toBe(230);
    expect(report.listCalls).toBe(3);
    expect(report.detailCalls).toBe(0);
    // 230 orders posted and synced: minutes on a loaded machine.
  }, 600_000);

  it("gets the seller profit once delivered, then stops tracking the paid lead", async () => {
    const [a] = await seedLeads(1);
    const steps: AdvanceInput[] = [
      { confirmation_status: "confirmed" },
      { shipping_status: "picked_up" },
      { shipping_status: "shipped" },
      { shipping_status: "delivered" },
    ];
    for (const change of steps) {
      await control.advance(a.leadRef!, change);
    }
    await runSync();
    const delivered = await db.prisma.orderLink.findUniqueOrThrow({ where: { id: a.id } });
    expect(delivered.shippingStatus).toBe("delivered");
    expect(delivered.sellerProfit).toMatch(/^-?\d+\.\d{2}$/);
    expect(delivered.trackingNumber).toBeTruthy();
    await control.advance(a.leadRef!, { shipping_status: "paid" });
    await runSync();
    expect((await db.prisma.orderLink.findUniqueOrThrow({ where: { id: a.id } })).statusFinal).toBe(true);
  });

  it("a seller profit read a cycle after delivered reaches the analytics, without a second status trigger", async () => {
    const { applyStatus } = await import("../../app/sync/status-sync.server");
    const { recordTriggerUsage } = await import("../../app/flow/flow-triggers.server");
    await recordTriggerUsage(db.prisma, SHOP, { shopify_domain: SHOP, has_enabled_flow: true });
    const [a] = await seedLeads(1);
    const delivered = {
      confirmationStatus: "confirmed",
      shippingStatus: "delivered",
      trackingNumber: "TRK-1",
      sellerProfit: null,
    };
    expect(await applyStatus(pipeline.deps, a, delivered)).toBe(true);
    await pipeline.tellLeadEvents();
    const counted = () => db.prisma.analyticsLead.findUniqueOrThrow({ where: { linkId: a.id } });
    const shopProfit = async () =>
      (await db.prisma.analyticsDaily.findMany({ where: { shop: SHOP, grain: "shop" } })).reduce(
        (sum, row) => sum + Number(row.profitCents),
        0,
      );
    expect(Number((await counted()).profitCents)).toBe(0);
    // Earlier tests' leads stay in the rollups: the change is what this lead adds.
    const profitBefore = await shopProfit();

    const seen = await db.prisma.orderLink.findUniqueOrThrow({ where: { id: a.id } });
    expect(await applyStatus(pipeline.deps, seen, { ...delivered, sellerProfit: "180.40" })).toBe(true);
    await pipeline.tellLeadEvents();
    expect(Number((await counted()).profitCents)).toBe(18040);
    expect((await shopProfit()) - profitBefore).toBe(18040);
    const statusTriggers = await db.prisma.job.findMany({
      where: { kind: "flow-trigger", key: { contains: ":lead-status-changed:" } },
    });
    expect(statusTriggers.map((j) => j.key)).toEqual([
      `flow-trigger:${SHOP}:${a.orderId}:lead-status-changed:${a.leadRef}`,
    ]);
    expect(JSON.parse(statusTriggers[0].payload).payload).toMatchObject({
      "Previous confirmation status": "new",
      "Confirmation status": "confirmed",
      "Shipping status": "delivered",
    });
  });

  it("a lead sent again starts without the earlier lead's parcel number and profit", async () => {
    const { resendOrder } = await import("../../app/sync/order-actions.server");
    const [a] = await seedLeads(1);
    for (const change of [
      { confirmation_status: "confirmed" },
      { shipping_status: "picked_up" },
      { shipping_status: "shipped" },
      { shipping_status: "delivered" },
    ] as AdvanceInput[]) {
      await control.advance(a.leadRef!, change);
    }
    await runSync();
    const first = await db.prisma.orderLink.findUniqueOrThrow({ where: { id: a.id } });
    expect(first.trackingNumber).toBeTruthy();
    expect(first.sellerProfit).toBeTruthy();

    // The merchant confirmed the second lead (the order page asks first).
    await resendOrder(db.prisma, SHOP, a.id, { by: "merchant", secondLead: true });
    await pipeline.drain({ kinds: ["post-lead"] });
    const again = await db.prisma.orderLink.findUniqueOrThrow({ where: { id: a.id } });
    expect(again.leadRef).not.toBe(first.leadRef);
    expect([again.shippingStatus, again.trackingNumber, again.sellerProfit]).toEqual(["pending", null, null]);
    expect(Number((await db.prisma.analyticsLead.findUniqueOrThrow({ where: { linkId: a.id } })).profitCents)).toBe(0);
  });
});

describe("a status read racing a resend", () => {
  it("GIVEN the merchant resends a lead between the sync's read and its write WHEN the sync writes THEN nothing of the old lead's status is recorded on the reopened order", async () => {
    const { resendOrder } = await import("../../app/sync/order-actions.server");
    const { loadTrackedLinks, statusChangeFor, writeStatusChanges } = await import("../../app/sync/status-sync.server");
    const [a] = await seedLeads(1);
    await pipeline.tellLeadEvents();
    const [read] = await loadTrackedLinks(db.prisma, SHOP);
    const change = statusChangeFor(read, { ...read, confirmationStatus: "confirmed", shippingStatus: "shipped" })!;
    await resendOrder(db.prisma, SHOP, a.id, { by: "merchant", secondLead: true });
    const rowsBefore = await db.prisma.timelineEvent.count({ where: { linkId: a.id } });

    await writeStatusChanges(pipeline.deps, [change]);

    const after = await db.prisma.orderLink.findUniqueOrThrow({ where: { id: a.id } });
    expect(after.state).toBe("received");
    expect([after.confirmationStatus, after.shippingStatus]).toEqual(["new", "pending"]);
    expect(await db.prisma.timelineEvent.count({ where: { linkId: a.id } })).toBe(rowsBefore);
    const events = (await db.prisma.pendingLeadEvent.findMany({ where: { linkId: a.id } })).map(
      (e) => (JSON.parse(e.event) as { kind: string }).kind,
    );
    expect(events).toEqual(["reopened"]);
  });
});

describe("platform events", () => {
  const secret = "whsec_demo_events_secret";

  async function postEvent(token: string, body: string, options: { sign?: string; timestamp?: number } = {}) {
    const { receiveSellerEvent } = await import("../../app/webhooks/seller-events.server");
    const ts = String(options.timestamp ?? Math.floor(Date.now() / 1000));
    const signature = createHmac("sha256", options.sign ?? secret)
      .update(`${ts}.${body}`)
      .digest("hex");
    const request = new Request(`https://app.test/webhooks/seller/${token}`, {
      method: "POST",
      body,
      headers: { "X-Signature": `sha256=${signature}`, "X-Timestamp": ts, "Content-Type": "application/json" },
    });
    return receiveSellerEvent(db.prisma, token, request);
  }

  it("verifies the signature, then re-reads the lead instead of trusting the event", async () => {
    const [a] = await seedLeads(1);
    const shop = await db.prisma.shop.update({
      where: { domain: SHOP },
      data: {
        eventsSecretCipher: createSecretBox(process.env.ENCRYPTION_KEY!).seal(secret, {
          shop: SHOP,
          purpose: "events-secret",
        }),
      },
    });
    await control.advance(a.leadRef!, { confirmation_status: "confirmed" });
    // The event claims "delivered": only the GET that follows is believed.
    const body = JSON.stringify({ event: "lead.delivered", ref: a.leadRef, shipping_status: "delivered" });

    expect((await postEvent(shop.eventsToken, body, { sign: "wrong-secret" })).status).toBe(401);
    expect((await postEvent(shop.eventsToken, body, { timestamp: Math.floor(Date.now() / 1000) - 3600 })).status).toBe(
      401,
    );
    // An unknown address gets the same answer as a bad signature: no oracle for live tokens.
    expect((await postEvent("no-such-token", body)).status).toBe(401);
    expect(await db.prisma.job.count({ where: { kind: "refresh-lead" } })).toBe(0);

    expect((await postEvent(shop.eventsToken, body)).status).toBe(202);
    await pipeline.drain({ kinds: ["refresh-lead"] });
    const link = await db.prisma.orderLink.findUniqueOrThrow({ where: { id: a.id } });
    expect(link.confirmationStatus).toBe("confirmed");
    expect(link.shippingStatus).toBe("pending");
  });
});
