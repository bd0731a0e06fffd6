/**
 * The order pipeline end to end on real parts: signed webhooks into the intake
 * routes, a real database, the worker, and the sandbox over loopback.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { ActionFunctionArgs } from "@remix-run/node";
import { startSandbox, sandboxControl } from "../../sandbox/index";
import { useTestDatabaseForApp } from "../helpers/app";
import type { TestDatabase } from "../helpers/db";
import { signedWebhookRequest } from "../helpers/webhooks";
import { webhookOrder, type OrderSpec } from "../helpers/orders";
import { connectTestShop, SHOP, testPipeline, type TestPipeline } from "../helpers/pipeline";
import { DrainTimeoutError } from "../../app/queue/errors";

type Action = (args: ActionFunctionArgs) => Promise<Response>;
let db: TestDatabase;
let sandbox: Awaited<ReturnType<typeof startSandbox>>;
let control: ReturnType<typeof sandboxControl>;
let apiKey: string;
let routes: Record<"create" | "updated" | "cancelled", Action>;
let pipeline: TestPipeline;
let nextId = 5_550_000_000_000;

async function deliver(topic: "create" | "updated" | "cancelled", body: Record<string, unknown>, webhookId?: string) {
  const request = signedWebhookRequest({ topic: `orders/${topic}`, shop: SHOP, body, webhookId });
  const response = await routes[topic]({ request, params: {}, context: {} });
  return response.status;
}

async function placeOrder(spec: Partial<OrderSpec> = {}) {
  const body = webhookOrder({ id: nextId++, ...spec });
  expect(await deliver("create", body)).toBe(200);
  return body;
}

const link = (orderId: unknown) =>
  db.prisma.orderLink.findUniqueOrThrow({ where: { shop_orderId: { shop: SHOP, orderId: String(orderId) } } });

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

describe("intake", () => {
  it("stores the order and its job in one go, calls nothing outside, and ignores a redelivery", async () => {
    const callsBefore = (await control.getKey(sandboxKeyId())).calls.length;
    const body = webhookOrder({ id: nextId++ });
    expect(await deliver("create", body, "wh-dup-1")).toBe(200);
    expect(await deliver("create", body, "wh-dup-1")).toBe(200);
    // The same order under another webhook id (Shopify may send both) is one link too.
    expect(await deliver("create", body, "wh-dup-2")).toBe(200);
    expect(await db.prisma.orderLink.count({ where: { orderId: String(body.id) } })).toBe(1);
    expect(await db.prisma.job.count({ where: { key: `post-lead:${SHOP}:${body.id}` } })).toBe(1);
    expect((await link(body.id)).state).toBe("received");
    expect((await control.getKey(sandboxKeyId())).calls.length).toBe(callsBefore);
  });

  it("stores a burst of concurrent webhooks (committed together) with one link and one job per order", async () => {
    // GIVEN 20 orders, each delivered twice under different webhook ids, and one unreadable payload, all at once
    const orders = Array.from({ length: 20 }, () => webhookOrder({ id: nextId++ }));
    const deliveries = [...orders, ...orders].map((body, i) => deliver("create", body, `wh-burst-${i}`));
    const unreadable = deliver("create", { name: "#no-id" }, "wh-burst-bad");
    // THEN each answer is its own: 200 for the orders, 422 for the unreadable one
    expect(await Promise.all(deliveries)).toEqual(Array(40).fill(200));
    expect(await unreadable).toBe(422);
    const ids = orders.map((o) => String(o.id));
    expect(await db.prisma.orderLink.count({ where: { orderId: { in: ids } } })).toBe(20);
    expect(await db.prisma.job.count({ where: { key: { in: ids.map((id) => `post-lead:${SHOP}:${id}`) } } })).toBe(20);
    expect(await db.prisma.webhookDelivery.count({ where: { id: { startsWith: "wh-burst-" } } })).toBe(40);
    const stored = await db.prisma.orderLink.findMany({ where: { orderId: { in: ids } } });
    expect(stored.every((l) => l.state === "received" && JSON.parse(l.payload).id === Number(l.orderId))).toBe(true);
  });

  it("answers 422 for a verified payload without an order id, and stores nothing", async () => {
    const before = await db.prisma.orderLink.count();
    expect(await deliver("create", { name: "#1" })).toBe(422);
    expect(await db.prisma.orderLink.count()).toBe(before);
  });
});

let lastKeys = { id: "", key: "" };
const sandboxKeyId = () => lastKeys.id;
beforeEach(async () => {
  const keys = await control.reset();
  lastKeys = keys.keys.find((k) => k.account === "ACC-1001")!;
  apiKey = lastKeys.key;
  await connectTestShop(db.prisma, { apiKey, baseUrl: sandbox.url });
  await control.config({ rate_limit_per_minute: 6000 });
  // Each test starts with an empty queue and no order links or rate-limit slots.
  await db.prisma.job.deleteMany();
  await db.prisma.timelineEvent.deleteMany();
  await db.prisma.orderLink.deleteMany();
  await db.prisma.rateLimitSlot.deleteMany();
});

describe("posting", () => {
  it("turns a clean COD order into exactly one created lead with its external_ref", async () => {
    const body = await placeOrder({ city: "Casa", phone: "+212 6 12 34 56 78" });
    await pipeline.drain();
    const l = await link(body.id);
    expect(l.anomalies).toBe("[]");
    expect(l.state).toBe("created");
    expect(l.leadRef).toMatch(/^ATB-\d+$/);
    const leads = await control.leads("ACC-1001");
    const ours = leads.filter((x) => x.external_ref === l.externalRef);
    expect(ours).toHaveLength(1);
    expect(ours[0]).toMatchObject({
      customer_phone: "0612345678",
      city_id: 101,
      total_client: "229.00",
      damaged: false,
    });
    const kinds = (await db.prisma.timelineEvent.findMany({ where: { linkId: l.id }, orderBy: { at: "asc" } })).map(
      (t) => t.kind,
    );
    expect(kinds).toEqual(["received", "mapped", "posted", "answered"]);
  });

  it("flags a possible duplicate of the phone's latest lead with the same product, looking at the phone's 50 most recent leads only", async () => {
    const { RECENT_LEADS_LOOKED_AT } = await import("../../app/sync/post-lead.server");
    const phone = "+212 6 44 55 66 77";
    const first = await placeOrder({ phone });
    await pipeline.drain();
    const posted = await link(first.id);
    expect(posted.state).toBe("created");
    const findingsOf = async (id: unknown) =>
      JSON.parse((await link(id)).findings).map((f: { code: string }) => f.code);

    // A phone many orders share (a reseller, a placeholder number): its other recent leads, of other products.
    const since = posted.postedAt!.getTime();
    await db.prisma.orderLink.createMany({
      data: Array.from({ length: RECENT_LEADS_LOOKED_AT - 2 }, (_, i) => ({
        shop: SHOP,
        orderId: `77${i}`,
        orderName: `#77${i}`,
        payload: "{}",
        externalRef: `ref-77${i}`,
        state: "created",
        phone: posted.phone,
        productKeys: JSON.stringify(["sku:OTHER"]),
        postedAt: new Date(since + 1 + i),
      })),
    });
    const second = await placeOrder({ phone });
    await pipeline.drain();
    expect(await findingsOf(second.id)).toContain("possible_duplicate");

    // Beyond the 50 most recent, the same product is no longer looked for.
    const secondAt = (await link(second.id)).postedAt!.getTime();
    await db.prisma.orderLink.createMany({
      data: Array.from({ length: RECENT_LEADS_LOOKED_AT }, (_, i) => ({
        shop: SHOP,
        orderId: `78${i}`,
        orderName: `#78${i}`,
        payload: "{}",
        externalRef: `ref-78${i}`,
        state: "created",
        phone: posted.phone,
        productKeys: JSON.stringify(["sku:OTHER"]),
        postedAt: new Date(secondAt + 1 + i),
      })),
    });
    const third = await placeOrder({ phone });
    await pipeline.drain();
    expect(await findingsOf(third.id)).not.toContain("possible_duplicate");
  });

  it("records a damaged lead with the platform's anomalies", async () => {
    // Total below platform price + delivery fee: the platform stores it as damaged.
    const body = await placeOrder({ items: [{ sku: "HAIR-DRYER-2200", price: "50.00" }], shipping: "0.00" });
    await pipeline.drain();
    const l = await link(body.id);
    expect(l.state).toBe("damaged");
    expect(JSON.parse(l.anomalies).map((a: { code: string }) => a.code)).toContain("inconsistent_total");
    expect(l.leadRef).toMatch(/^ATB-/);
  });

  it("holds an order with no phone, with a fixable reason, and sends nothing", async () => {
    const body = await placeOrder({ phone: null });
    await pipeline.drain();
    const l = await link(body.id);
    expect(l.state).toBe("held");
    expect(l.reason).toMatch(/phone/i);
    expect(JSON.parse(l.findings).map((f: { code: string }) => f.code)).toContain("phone_missing");
    expect(await control.leads("ACC-1001")).toHaveLength(0);
  });

  it("skips a card-paid order", async () => {
    const body = await placeOrder({ gateway: "shopify_payments", financialStatus: "paid" });
    await pipeline.drain();
    expect((await link(body.id)).state).toBe("skipped");
  });

  it("picks up the merchant's correction from orders/updated and then sends", async () => {
    const body = await placeOrder({ phone: null });
    await pipeline.drain();
    expect((await link(body.id)).state).toBe("held");
    const fixed: Record<string, unknown> = { ...body, updated_at: new Date(Date.now() + 60_000).toISOString() };
    (fixed.shipping_address as Record<string, unknown>).phone = "0698765432";
    expect(await deliver("updated", fixed)).toBe(200);
    await pipeline.drain();
    const l = await link(body.id);
    expect(l.state).toBe("created");
    expect(l.phone).toBe("0698765432");
  });

  it("GIVEN a held order WHEN Shopify sends orders/updated for a tag alone (the app's own write-back) THEN it stays held, untouched, with the newer snapshot kept", async () => {
    const body = await placeOrder({ phone: null });
    await pipeline.drain();
    const before = await link(body.id);
    expect(before.state).toBe("held");
    const timeline = () => db.prisma.timelineEvent.count({ where: { linkId: before.id } });
    const rows = await timeline();
    const tagged: Record<string, unknown> = {
      ...body,
      tags: "cod-held",
      updated_at: new Date(Date.now() + 60_000).toISOString(),
    };
    expect(await deliver("updated", tagged)).toBe(200);
    await pipeline.drain();
    const after = await link(body.id);
    expect(after.state).toBe("held");
    expect(after.reason).toBe(before.reason);
    expect(after.payloadAt!.getTime()).toBeGreaterThan(before.payloadAt!.getTime());
    expect(await timeline()).toBe(rows);
    // A real correction beside a tag still reopens the order.
    const fixed: Record<string, unknown> = { ...tagged, updated_at: new Date(Date.now() + 120_000).toISOString() };
    fixed.shipping_address = { ...(tagged.shipping_address as Record<string, unknown>), phone: "0698765432" };
    expect(await deliver("updated", fixed)).toBe(200);
    await pipeline.drain();
    expect((await link(body.id)).state).toBe("created");
  });

  it("never sends an order cancelled before it was posted, and marks a posted one", async () => {
    const held = await placeOrder({ phone: null });
    const sent = await placeOrder();
    await pipeline.drain();
    const cancel = (b: Record<string, unknown>) => ({
      ...b,
      cancelled_at: new Date().toISOString(),
      updated_at: new Date(Date.now() + 1000).toISOString(),
    });
    expect(await deliver("cancelled", cancel(held))).toBe(200);
    expect(await deliver("cancelled", cancel(sent))).toBe(200);
    expect((await link(held.id)).state).toBe("cancelled");
    const posted = await link(sent.id);
    expect(posted.state).toBe("created");
    expect(posted.cancelledAt).toBeInstanceOf(Date);
  });
});

describe("failures", () => {
  it("pauses the shop on a revoked key without burning attempts, and resumes when a new key is verified", async () => {
    await control.revoke(lastKeys.id);
    const body = await placeOrder();
    await pipeline.drain();
    const shop = await db.prisma.shop.findUniqueOrThrow({ where: { domain: SHOP } });
    expect(shop.pausedReason).toBe("key_rejected");
    const job = await db.prisma.job.findUniqueOrThrow({ where: { key: `post-lead:${SHOP}:${body.id}` } });
    expect(job.state).toBe("pending");
    expect(job.attempts).toBe(0);
    expect((await link(body.id)).reason).toMatch(/refused your key/);
    expect(JSON.parse((await link(body.id)).reasonText!)).toEqual({ key: "timeline.text.keyRejected" });

    const { key } = await control.createKey({ account: "ACC-1001", name: "new", store: SHOP });
    await connectTestShop(db.prisma, { apiKey: key, baseUrl: sandbox.url });
    const { resumeShop } = await import("../../app/sync/shop-pause.server");
    expect(await resumeShop(db.prisma, SHOP)).toBeGreaterThan(0);
    await pipeline.drain();
    expect((await link(body.id)).state).toBe("created");
  });

  it("reschedules after a 429 without counting it as a failed attempt", async () => {
    await control.config({ rate_limit_per_minute: 2 });
    // At 2 calls a minute the next call after GET /v1/me is 30 s away: the job is
    // put back for then instead of holding the worker.
    const body = await placeOrder();
    await pipeline.drain();
    const job = await db.prisma.job.findUniqueOrThrow({ where: { key: `post-lead:${SHOP}:${body.id}` } });
    expect(job.state).toBe("pending");
    expect(job.attempts).toBe(0);
    expect(job.runAt.getTime()).toBeGreaterThan(Date.now());
    expect(job.lastError).toMatch(/sending limit reached/i);
  });

  it("finds the lead of an attempt whose outcome was unknown instead of posting a second one", async () => {
    const body = await placeOrder();
    await pipeline.drain();
    const first = await link(body.id);
    // GIVEN the worker crashed a minute ago, after the platform stored the lead but before recording it
    const crashedAt = new Date(Date.now() - 60_000);
    await db.prisma.orderLink.update({
      where: { id: first.id },
      data: { state: "posting", leadRef: null, postingSince: crashedAt, updatedAt: crashedAt },
    });
    await db.prisma.job.update({
      where: { key: `post-lead:${SHOP}:${body.id}` },
      data: { state: "pending", runAt: new Date() },
    });
    // WHEN the job runs again
    await pipeline.drain();
    // THEN it links the existing lead and the platform holds still one lead for the order
    const again = await link(body.id);
    expect(again.state).toBe("created");
    expect(again.leadRef).toBe(first.leadRef);
    expect((await control.leads("ACC-1001")).filter((x) => x.external_ref === first.externalRef)).toHaveLength(1);
  });

  it("GIVEN a POST the platform stores after the client gave up on it WHEN the job is retried at once THEN it waits for that POST to land and the order has one lead", async () => {
    let ahead = 0;
    const slow = testPipeline(db.prisma, { timeoutMs: 1_000, clock: () => new Date(Date.now() + ahead) });
    // The key's rate and the reference lists are read first, without latency: the POST is the only slow call.
    await placeOrder({ phone: "+212 6 98 76 54 32" });
    await slow.drain();
    const body = await placeOrder();
    const key = `post-lead:${SHOP}:${body.id}`;
    // GIVEN a platform that takes longer than the client's time limit and stores the lead anyway
    await control.config({ fault: { latency_ms: 3_000 } });
    // WHEN the POST times out (the drain stops after that one attempt)
    await expect(slow.drain({ timeoutMs: 200 })).rejects.toThrow(DrainTimeoutError);
    const uncertain = await link(body.id);
    expect(uncertain.state).toBe("posting");
    expect((await db.prisma.job.findUniqueOrThrow({ where: { key } })).attempts).toBe(1);
    // AND the job is retried at once while that POST is still on its way
    await control.config({ fault: { latency_ms: 0 } });
    await db.prisma.job.update({ where: { key }, data: { runAt: new Date() } });
    await slow.drain();
    // (the Activity page reads why it waits, from the catalogues)
    const { english } = await import("../../app/i18n");
    const { earlierSendLandingText } = await import("../../app/models/order-texts");
    expect((await db.prisma.job.findUniqueOrThrow({ where: { key } })).lastError).toBe(
      english(earlierSendLandingText()),
    );
    // THEN, once every POST sent has landed and the wait is over, the order has exactly one lead, the one its link names
    const landed = async () =>
      (await control.getKey(sandboxKeyId())).calls.filter((c) => c.method === "POST" && c.path === "/v1/leads")
        .length === (await db.prisma.timelineEvent.count({ where: { kind: "posted" } }));
    const deadline = Date.now() + 30_000;
    while (!(await landed()) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    expect(await landed()).toBe(true);
    ahead = slow.deps.uncertainSettleMs;
    await db.prisma.job.update({ where: { key }, data: { runAt: new Date() } });
    await slow.drain();
    const after = await link(body.id);
    const ours = (await control.leads("ACC-1001")).filter((x) => x.external_ref === after.externalRef);
    expect(ours).toHaveLength(1);
    expect(after.state).toBe("created");
    expect(after.leadRef).toBe(ours[0]!.ref);
  });

  it("retries after injected 500s and ends with one lead", async () => {
    await control.config({ fault: { error_rate: 1 } });
    const body = await placeOrder();
    // Short drains until the job has tried (a busy machine takes more of them, never a different answer).
    const deadline = Date.now() + 60_000;
    let during = await link(body.id);
    while (during.state === "received" && Date.now() < deadline) {
      await pipeline.drain({ timeoutMs: 200 }).catch(() => undefined);
      during = await link(body.id);
    }
    expect(["retrying", "posting"]).toContain(during.state);
    await control.config({ fault: { error_rate: 0 } });
    // The last 500 a minute ago: a POST the platform was still holding has landed since.
    await db.prisma.orderLink.update({ where: { id: during.id }, data: { updatedAt: new Date(Date.now() - 60_000) } });
    await db.prisma.job.updateMany({ where: { key: `post-lead:${SHOP}:${body.id}` }, data: { runAt: new Date() } });
    await pipeline.drain();
    const after = await link(body.id);
    expect(after.state).toBe("created");
    expect((await control.leads("ACC-1001")).filter((x) => x.external_ref === after.externalRef)).toHaveLength(1);
  });
});
