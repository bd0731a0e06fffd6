/**
 * What the app sends and flags can be trusted, end to end on real parts (signed webhooks
 * into the intake routes, a real database, the worker, the sandbox over loopback):
 * an order placed longer ago than the shop's limit is never sent without the merchant's
 * word; a held order keeps its amount to collect from its first mapping; a sent order
 * cancelled, refunded or edited in Shopify is flagged first in Home's to-do inbox with the
 * delivery fee at stake, and an edit that touches nothing the lead carries is not.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { ActionFunctionArgs } from "@remix-run/node";
import { startSandbox, sandboxControl } from "../../sandbox/index";
import { useTestDatabaseForApp } from "../helpers/app";
import type { TestDatabase } from "../helpers/db";
import { signedWebhookRequest } from "../helpers/webhooks";
import { webhookOrder, type OrderSpec } from "../helpers/orders";
import { connectTestShop, SHOP, testPipeline, type TestPipeline } from "../helpers/pipeline";

type Action = (args: ActionFunctionArgs) => Promise<Response>;
const DAY_MS = 86_400_000;
let db: TestDatabase;
let sandbox: Awaited<ReturnType<typeof startSandbox>>;
let control: ReturnType<typeof sandboxControl>;
let routes: Record<"create" | "updated" | "cancelled", Action>;
let pipeline: TestPipeline;
let nextId = 5_560_000_000_000;

async function deliver(topic: "create" | "updated" | "cancelled", body: Record<string, unknown>) {
  const request = signedWebhookRequest({ topic: `orders/${topic}`, shop: SHOP, body });
  return (await routes[topic]({ request, params: {}, context: {} })).status;
}

async function placeOrder(spec: Partial<OrderSpec> = {}) {
  const body = webhookOrder({ id: nextId++, ...spec });
  expect(await deliver("create", body)).toBe(200);
  return body;
}

const link = (orderId: unknown) =>
  db.prisma.orderLink.findUniqueOrThrow({ where: { shop_orderId: { shop: SHOP, orderId: String(orderId) } } });
const leadsOnPlatform = async () => (await control.leads("ACC-1001")).length;

beforeAll(async () => {
  db = await useTestDatabaseForApp();
  sandbox = await startSandbox({ port: 0, quiet: true, rateLimitPerMinute: 6000 });
  control = sandboxControl(sandbox.url);
  routes = {
    create: (await import("../../app/routes/webhooks.orders.create")).action,
    updated: (await import("../../app/routes/webhooks.orders.updated")).action,
    cancelled: (await import("../../app/routes/webhooks.orders.cancelled")).action,
  };
  pipeline = testPipeline(db.prisma);
});
afterAll(async () => {
  await sandbox.close();
  await db.cleanup();
});

beforeEach(async () => {
  const keys = await control.reset();
  const key = keys.keys.find((k) => k.account === "ACC-1001")!;
  await connectTestShop(db.prisma, { apiKey: key.key, baseUrl: sandbox.url });
  await db.prisma.job.deleteMany();
  await db.prisma.timelineEvent.deleteMany();
  await db.prisma.orderLink.deleteMany();
  await db.prisma.rateLimitSlot.deleteMany();
});

describe("orders older than the shop's limit", () => {
  it("GIVEN an order placed 10 days ago WHEN it arrives THEN it waits, flagged, and only the merchant's word sends it", async () => {
    const { loadInbox } = await import("../../app/pages/home-inbox.server");
    const { resendOrder } = await import("../../app/sync/order-actions.server");
    const old = await placeOrder({ createdAt: new Date(Date.now() - 10 * DAY_MS).toISOString(), phone: "0611223344" });
    const fresh = await placeOrder({ createdAt: new Date(Date.now() - 2 * DAY_MS).toISOString() });
    await pipeline.drain();

    // THEN the two-day-old order is sent; the ten-day-old one waits with its age in words and its amount.
    expect((await link(fresh.id)).state).toBe("created");
    const held = await link(old.id);
    expect(held).toMatchObject({ state: "held", leadRef: null, totalClient: "229.00", totalCents: 22900 });
    expect(held.reason).toMatch(/^Placed 10 days ago, more than your limit of 7 days/);
    expect(await leadsOnPlatform()).toBe(1);
    const inbox = await loadInbox(db.prisma, SHOP);
    expect(inbox.groups.find((g) => g.cause === "stale")).toMatchObject({ count: 1, amountCents: 22900 });
    expect(inbox.groups.some((g) => g.cause === "ready")).toBe(false);

    // WHEN it is sent again without the word (a bulk retry), THEN it waits again.
    await resendOrder(db.prisma, SHOP, held.id, { by: "merchant" });
    await pipeline.drain();
    expect((await link(old.id)).state).toBe("held");
    expect(await leadsOnPlatform()).toBe(1);

    // WHEN the merchant confirms it knowing its age, THEN it goes, and the timeline says so.
    await resendOrder(db.prisma, SHOP, held.id, { by: "merchant", sendStale: true });
    await pipeline.drain();
    expect((await link(old.id)).state).toBe("created");
    expect(await leadsOnPlatform()).toBe(2);
    const sentRow = await db.prisma.timelineEvent.findFirst({ where: { linkId: held.id, kind: "send_anyway" } });
    expect(sentRow?.message).toBe("Sent by you, knowing it was placed 10 days ago");
  });

  it("GIVEN the shop's limit raised to 30 days WHEN a 10-day-old order arrives THEN it is sent by itself", async () => {
    const shop = await db.prisma.shop.findUniqueOrThrow({ where: { domain: SHOP } });
    await db.prisma.shop.update({
      where: { domain: SHOP },
      data: { settings: JSON.stringify({ ...JSON.parse(shop.settings), staleOrderDays: 30 }) },
    });
    const order = await placeOrder({ createdAt: new Date(Date.now() - 10 * DAY_MS).toISOString() });
    await pipeline.drain();
    expect((await link(order.id)).state).toBe("created");
  });
});

describe("the amount to collect of a held order", () => {
  it("GIVEN an order held for its landline WHEN the list, Home and the customer message read it THEN each has its amount", async () => {
    const { loadInbox } = await import("../../app/pages/home-inbox.server");
    const { queryOrders, parseOrdersSearch } = await import("../../app/pages/orders.server");
    const order = await placeOrder({ phone: "0522123456" });
    await pipeline.drain();
    const held = await link(order.id);
    expect(held).toMatchObject({ state: "held", leadJson: null, totalCents: 22900 });
    const page = await queryOrders(db.prisma, SHOP, parseOrdersSearch(new URLSearchParams("state=held")));
    expect(page.rows.find((r) => r.id === held.id)?.amountCents).toBe(22900);
    expect((await loadInbox(db.prisma, SHOP)).groups.find((g) => g.cause === "phone")?.amountCents).toBe(22900);
  });

  it("GIVEN an order held for being paid in euros WHEN Home's inbox counts it THEN it says the amount is unknown rather than 0 MAD", async () => {
    const { loadInbox } = await import("../../app/pages/home-inbox.server");
    const order = await placeOrder({ currency: "EUR" });
    await pipeline.drain();
    expect(await link(order.id)).toMatchObject({ state: "held", totalClient: null });
    const other = (await loadInbox(db.prisma, SHOP)).groups.find((g) => g.cause === "other");
    expect(other).toMatchObject({ count: 1, amountCents: 0, unknownAmounts: 1 });
  });
});

describe("sent orders Shopify and the platform disagree about", () => {
  it("GIVEN a sent order WHEN Shopify cancels it THEN it is first in Home's to-do inbox with the city's delivery fee, until settled", async () => {
    const { loadInbox } = await import("../../app/pages/home-inbox.server");
    const { settleMismatch } = await import("../../app/sync/order-actions.server");
    // Another waiting order, so the cancelled one has to come first rather than alone.
    await placeOrder({ phone: "0522123456" });
    const order = await placeOrder({ city: "Casablanca" });
    await pipeline.drain();
    expect((await link(order.id)).state).toBe("created");
    expect(await deliver("cancelled", { ...order, cancelled_at: new Date().toISOString() })).toBe(200);

    const sent = await link(order.id);
    expect(sent).toMatchObject({ state: "created", mismatch: "cancelled" });
    const inbox = await loadInbox(db.prisma, SHOP);
    expect(inbox.groups[0]).toMatchObject({
      cause: "mismatch",
      count: 1,
      // Casablanca's delivery fee in the sandbox's cities: 20 MAD.
      fees: { cents: 2000, unknown: 0 },
      href: `/app/orders/${sent.id}`,
    });

    await settleMismatch(db.prisma, SHOP, sent.id, { by: "merchant" });
    expect((await link(order.id)).mismatch).toBeNull();
    expect((await loadInbox(db.prisma, SHOP)).groups.some((g) => g.cause === "mismatch")).toBe(false);
  });

  it("GIVEN a sent order WHEN Shopify refunds it, or edits what the lead carries THEN it is flagged; a tag alone is not", async () => {
    const tagged = await placeOrder();
    const refunded = await placeOrder();
    const edited = await placeOrder();
    await pipeline.drain();
    const later = (body: Record<string, unknown>, changes: Record<string, unknown>) => ({
      ...body,
      ...changes,
      updated_at: new Date(Date.now() + 60_000).toISOString(),
    });
    expect(await deliver("updated", later(tagged, { tags: "cod:confirmed, vip" }))).toBe(200);
    expect(await deliver("updated", later(refunded, { financial_status: "refunded" }))).toBe(200);
    const lines = (edited.line_items as Record<string, unknown>[]).map((l) => ({
      ...l,
      quantity: 3,
      current_quantity: 3,
    }));
    expect(await deliver("updated", later(edited, { line_items: lines }))).toBe(200);

    expect((await link(tagged.id)).mismatch).toBeNull();
    expect((await link(refunded.id)).mismatch).toBe("refunded");
    expect((await link(edited.id)).mismatch).toBe("edited");
    const row = await db.prisma.timelineEvent.findFirst({
      where: { linkId: (await link(edited.id)).id, kind: "updated" },
    });
    expect(row?.message).toMatch(/^Edited in Shopify after its lead ATB-\d+ was sent/);
  });
});
