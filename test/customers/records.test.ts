/**
 * Customer delivery records through the whole pipeline: orders posted to the
 * sandbox under one phone typed in several ways, the platform moving each lead,
 * the status sync; the hold rule in the post-lead job, send anyway, block/trust,
 * the rebuild command's function, and the compliance webhooks.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { sandboxControl, startSandbox } from "../../sandbox/index";
import { useTestDatabaseForApp } from "../helpers/app";
import type { TestDatabase } from "../helpers/db";
import { webhookOrder } from "../helpers/orders";
import { connectTestShop, SHOP, testPipeline, type TestPipeline } from "../helpers/pipeline";
import { rebuildCustomerRecords } from "../../app/customers/records.server";
import { readShopSettings } from "../../app/models/shop-settings";

let db: TestDatabase;
let sandbox: Awaited<ReturnType<typeof startSandbox>>;
let platform: ReturnType<typeof sandboxControl>;
let pipeline: TestPipeline;
let nextOrderId = 8_880_000_000_000;

const PHONE = "0612345678";
const SAME_PHONE_TYPED = [
  "0612345678",
  "+212 6 12 34 56 78",
  "00212612345678",
  "06.12.34.56.78",
  "٠٦١٢٣٤٥٦٧٨",
  "+212 0612-345-678",
];

beforeAll(async () => {
  db = await useTestDatabaseForApp();
  sandbox = await startSandbox({ port: 0, quiet: true, rateLimitPerMinute: 100_000 });
  platform = sandboxControl(sandbox.url);
  pipeline = testPipeline(db.prisma);
});

afterAll(async () => {
  await sandbox?.close();
  await db?.cleanup();
});

beforeEach(async () => {
  const { keys } = await platform.reset();
  // One customer's orders minutes apart: neither the platform nor the app may call them duplicates here.
  await platform.config({ rate_limit_per_minute: 100_000, duplicate_window_seconds: 0 });
  await db.prisma.job.deleteMany();
  await db.prisma.timelineEvent.deleteMany();
  await db.prisma.orderLink.deleteMany();
  await db.prisma.customerLead.deleteMany();
  await db.prisma.customerRecord.deleteMany();
  await db.prisma.pendingLeadEvent.deleteMany();
  await connectTestShop(db.prisma, { apiKey: keys.find((k) => k.account === "ACC-1001")!.key, baseUrl: sandbox.url });
  await setSettings({ duplicateWindowMinutes: 0 });
});

async function setSettings(change: Record<string, unknown>) {
  const shop = await db.prisma.shop.findUniqueOrThrow({ where: { domain: SHOP } });
  const settings = { ...readShopSettings(shop.settings), ...change };
  await db.prisma.shop.update({ where: { domain: SHOP }, data: { settings: JSON.stringify(settings) } });
}

async function placeOrders(phones: string[], customerId = 4242) {
  const { intakeOrderCreated } = await import("../../app/sync/order-intake.server");
  const ids: string[] = [];
  for (const phone of phones) {
    const id = nextOrderId++;
    ids.push(String(id));
    await db.prisma.$transaction((tx) => intakeOrderCreated(tx, SHOP, webhookOrder({ id, phone, customerId })));
  }
  await pipeline.drain({ kinds: ["post-lead"], timeoutMs: 60_000 });
  return db.prisma.orderLink.findMany({ where: { shop: SHOP, orderId: { in: ids } }, orderBy: { orderId: "asc" } });
}

/** A status-sync cycle, then the worker telling its lead events (the records follow them). */
async function sync() {
  const { syncShopStatuses } = await import("../../app/sync/status-sync.server");
  const shop = await db.prisma.shop.findUniqueOrThrow({ where: { domain: SHOP } });
  const report = await syncShopStatuses(pipeline.deps, shop, pipeline.deps.connect(shop).client);
  await pipeline.tellLeadEvents();
  return report;
}

const sent = (state: string) => state === "created";
const record = (phoneKey = PHONE) =>
  db.prisma.customerRecord.findUnique({ where: { shop_phoneKey: { shop: SHOP, phoneKey } } });
const timelineKinds = async (linkId: string) =>
  (await db.prisma.timelineEvent.findMany({ where: { linkId }, orderBy: { at: "asc" } })).map((e) => e.kind);

/** Six orders of one customer, each lead moved to a different outcome. */
async function badCustomer() {
  const links = await placeOrders(SAME_PHONE_TYPED);
  expect(links.map((l) => [sent(l.state), l.phone])).toEqual(SAME_PHONE_TYPED.map(() => [true, PHONE]));
  const [delivered, returned, refused, fake, wrong] = links;
  await platform.advance(delivered.leadRef!, { confirmation_status: "confirmed" });
  await platform.advance(returned.leadRef!, { confirmation_status: "confirmed" });
  await platform.advance(refused.leadRef!, { confirmation_status: "canceled" });
  await platform.advance(fake.leadRef!, { confirmation_status: "fake" });
  await platform.advance(wrong.leadRef!, { confirmation_status: "wrong" });
  await sync();
  await platform.advance(delivered.leadRef!, { shipping_status: "picked_up", tracking_number: "TRK-1" });
  await platform.advance(returned.leadRef!, { shipping_status: "picked_up", tracking_number: "TRK-2" });
  await sync();
  await platform.advance(delivered.leadRef!, { shipping_status: "shipped" });
  await platform.advance(returned.leadRef!, { shipping_status: "shipped" });
  await sync();
  await platform.advance(delivered.leadRef!, { shipping_status: "delivered" });
  await platform.advance(returned.leadRef!, { shipping_status: "returned" });
  await sync();
  await sync();
  return links;
}

describe("customer delivery record", () => {
  it("counts each lead's outcome under one key whatever the phone's format, and the rebuild agrees", async () => {
    const links = await badCustomer();
    const kept = await record();
    expect(kept).toMatchObject({
      customerId: "4242",
      orders: 6,
      delivered: 1,
      returned: 1,
      refused: 1,
      cancelled: 1,
      wrongNumber: 1,
      inProgress: 1,
      lastOutcome: "returned",
      standing: null,
    });
    expect(Number(kept!.collectedCents)).toBe(Math.round(Number(links[0].totalClient) * 100));
    expect(kept!.firstOrderAt).toEqual(links[0].createdAt);
    expect(kept!.lastOrderAt).toEqual(links[5].createdAt);

    await db.prisma.customerRecord.deleteMany();
    await db.prisma.customerLead.deleteMany();
    const report = await rebuildCustomerRecords(db.prisma, SHOP);
    expect(report).toMatchObject({ links: 6, counted: 6, records: 1 });
    const { lastOutcomeAt: _kept, ...counts } = kept!;
    const { lastOutcomeAt: _rebuilt, ...rebuilt } = (await record())!;
    expect(rebuilt).toEqual(counts);
  });

  it("holds a returning customer's new order when the rule is on, says why, and sends it anyway on request", async () => {
    await badCustomer();
    // Off by default: the next order goes.
    const [free] = await placeOrders(["+212612345678"]);
    expect(sent(free.state)).toBe(true);

    await setSettings({ customerHold: { enabled: true, failures: 4, days: 90 } });
    const [held] = await placeOrders(["06 12 34 56 78"]);
    expect(held.state).toBe("held");
    expect(held.reason).toBe("1 refused, 1 returned, 1 cancelled or fake and 1 wrong number in the last 90 days");
    expect(await timelineKinds(held.id)).toContain("customer_hold");
    // The decision's row keeps the reason as data, for each page to say in its language.
    const holdRow = await db.prisma.timelineEvent.findFirstOrThrow({
      where: { linkId: held.id, kind: "customer_hold" },
    });
    expect(JSON.parse(holdRow.data!)).toEqual({
      reason: {
        code: "customer_record",
        counts: { refused: 1, returned: 1, cancelled: 1, wrong_number: 1 },
        days: 90,
        blocked: false,
      },
    });
    const { customerHoldReasons } = await import("../../app/customers/hold-reasons.server");
    expect((await customerHoldReasons(db.prisma, SHOP, [held.id, free.id])).get(held.id)).toEqual({
      reason: JSON.parse(holdRow.data!).reason,
    });
    expect((await customerHoldReasons(db.prisma, SHOP, [held.id, free.id])).has(free.id)).toBe(false);
    // Another shop asking about this order learns nothing.
    expect((await customerHoldReasons(db.prisma, "other.myshopify.com", [held.id])).size).toBe(0);

    // N-1: one more failure needed, the order goes.
    await setSettings({ customerHold: { enabled: true, failures: 5, days: 90 } });
    const [under] = await placeOrders(["0612345678"]);
    expect(sent(under.state)).toBe(true);

    const { sendAnyway } = await import("../../app/sync/order-actions.server");
    await sendAnyway(db.prisma, SHOP, held.id, { by: "owner@example.com" });
    await pipeline.drain({ kinds: ["post-lead"], timeoutMs: 30_000 });
    const after = await db.prisma.orderLink.findUniqueOrThrow({ where: { id: held.id } });
    expect(sent(after.state)).toBe(true);
    expect(after.leadRef).not.toBeNull();
    const kinds = await timelineKinds(held.id);
    expect(kinds.indexOf("send_anyway")).toBeGreaterThan(kinds.indexOf("customer_hold"));
    expect(kinds.at(-1)).toBe("answered");
    // Sent anyway ends the hold; the step keeps the reason it overrode.
    expect((await customerHoldReasons(db.prisma, SHOP, [held.id])).size).toBe(0);
    const anyway = await db.prisma.timelineEvent.findFirstOrThrow({ where: { linkId: held.id, kind: "send_anyway" } });
    expect(JSON.parse(anyway.data!).reason).toMatchObject({ code: "customer_record", days: 90 });
  });

  it("counts failures only within the last D days", async () => {
    await badCustomer();
    // The outcomes are dated when the sync saw them: pushed back 31 days, a 30-day window misses them.
    const old = new Date(Date.now() - 31 * 86_400_000);
    await db.prisma.customerLead.updateMany({ where: { phoneKey: PHONE }, data: { outcomeAt: old } });
    await setSettings({ customerHold: { enabled: true, failures: 1, days: 30 } });
    const [order] = await placeOrders(["0612345678"]);
    expect(sent(order.state)).toBe(true);
    await setSettings({ customerHold: { enabled: true, failures: 1, days: 32 } });
    const [later] = await placeOrders(["0612345678"]);
    expect(later.state).toBe("held");
  });

  it("holds a blocked phone and never a trusted one, each decision on the order's timeline", async () => {
    await badCustomer();
    await setSettings({ customerHold: { enabled: true, failures: 1, days: 90 } });
    const { setOrderCustomerStanding } = await import("../../app/sync/order-actions.server");
    const [clean] = await placeOrders(["0700000001"], 99);
    expect(sent(clean.state)).toBe(true);
    await setOrderCustomerStanding(db.prisma, SHOP, clean.id, "blocked", { by: "owner@example.com" });
    expect(await timelineKinds(clean.id)).toContain("customer_standing");
    const [blocked] = await placeOrders(["+212 700000001"], 99);
    expect(blocked).toMatchObject({ state: "held", reason: "You blocked this phone number" });

    const [bad] = await placeOrders([PHONE]);
    expect(bad.state).toBe("held");
    await setOrderCustomerStanding(db.prisma, SHOP, bad.id, "trusted", { by: "owner@example.com" });
    const [trusted] = await placeOrders([PHONE]);
    expect(sent(trusted.state)).toBe(true);
    // Standings survive a rebuild.
    await rebuildCustomerRecords(db.prisma, SHOP);
    expect((await record())!.standing).toBe("trusted");
    expect((await record("0700000001"))!.standing).toBe("blocked");
  });

  it("customers/data_request includes the record; customers/redact erases it and its phone key", async () => {
    const links = await badCustomer();
    await placeOrders(["0699999999"], 77);
    const { recordDataRequest, redactCustomer } = await import("../../app/customers/compliance.server");
    await db.prisma.$transaction((tx) =>
      recordDataRequest(tx, SHOP, { customer: { id: 4242 }, orders_requested: [links[0].orderId] }),
    );
    const request = await db.prisma.dataRequest.findFirstOrThrow({ where: { shop: SHOP } });
    const held = JSON.parse(request.held) as {
      deliveryRecord: { phoneKey: string; orders: number; refused: number } | null;
    }[];
    expect(held.length).toBe(6);
    for (const order of held) expect(order.deliveryRecord).toMatchObject({ phoneKey: PHONE, orders: 6, refused: 1 });

    await db.prisma.$transaction((tx) =>
      redactCustomer(tx, SHOP, { customer: { id: 4242 }, orders_to_redact: [links[0].orderId] }),
    );
    expect(await record()).toBeNull();
    expect(await db.prisma.customerLead.count({ where: { phoneKey: PHONE } })).toBe(0);
    // Another customer's record stays.
    expect(await record("0699999999")).toMatchObject({ orders: 1, inProgress: 1 });
  });

  it("the Orders risk filter and column agree with the record's risk level", async () => {
    await badCustomer();
    const [good] = await placeOrders(["0655555555"], 55);
    await platform.advance(good.leadRef!, { confirmation_status: "confirmed" });
    await platform.advance(good.leadRef!, { shipping_status: "picked_up", tracking_number: "TRK-G" });
    await platform.advance(good.leadRef!, { shipping_status: "shipped" });
    await platform.advance(good.leadRef!, { shipping_status: "delivered" });
    await sync();
    const { queryOrders } = await import("../../app/pages/orders.server");
    const { riskLevel } = await import("../../app/customers/risk");
    // Every standing and count mix: the filter keeps exactly the orders whose record riskLevel puts at that level.
    const mixes = [
      { phoneKey: "0600000001", standing: null, delivered: 0, returned: 1, refused: 1, cancelled: 0, wrongNumber: 0 },
      { phoneKey: "0600000002", standing: null, delivered: 2, returned: 1, refused: 1, cancelled: 0, wrongNumber: 0 },
      { phoneKey: "0600000003", standing: null, delivered: 1, returned: 0, refused: 0, cancelled: 0, wrongNumber: 1 },
      {
        phoneKey: "0600000004",
        standing: "blocked",
        delivered: 3,
        returned: 0,
        refused: 0,
        cancelled: 0,
        wrongNumber: 0,
      },
      {
        phoneKey: "0600000005",
        standing: "trusted",
        delivered: 0,
        returned: 3,
        refused: 0,
        cancelled: 0,
        wrongNumber: 0,
      },
      { phoneKey: "0600000006", standing: null, delivered: 1, returned: 0, refused: 0, cancelled: 0, wrongNumber: 0 },
    ];
    for (const m of mixes) await db.prisma.customerRecord.create({ data: { shop: SHOP, ...m } });
    const mixLinks = mixes.map((m, i) => ({
      shop: SHOP,
      orderId: String(7_000_000 + i),
      orderName: `#M${i}`,
      payload: "{}",
      externalRef: `mix-${i}`,
      phone: m.phoneKey,
      createdAt: new Date(Date.now() - 86_400_000 * 400),
    }));
    await db.prisma.orderLink.createMany({ data: mixLinks });
    for (const level of ["high", "medium", "blocked"] as const) {
      const page = await queryOrders(db.prisma, SHOP, {
        states: [],
        confirmation: [],
        shipping: [],
        issues: [],
        risk: [level],
        limit: 200,
      });
      const expected = mixes.filter((m) => riskLevel(m) === level).map((m) => m.phoneKey);
      const found = [
        ...new Set(
          page.rows
            .filter((r) => r.orderName.startsWith("#M"))
            .map((r) => mixLinks.find((l) => l.orderName === r.orderName)!.phone),
        ),
      ];
      expect(found.sort()).toEqual(expected.sort());
      expect(new Set(page.rows.map((r) => r.risk))).toEqual(new Set([level]));
    }
    // With a state narrowing too: the risky phones filter the rows that state's index finds.
    const heldHigh = await queryOrders(db.prisma, SHOP, {
      states: ["received"],
      confirmation: [],
      shipping: [],
      issues: [],
      risk: ["high"],
    });
    expect(heldHigh.rows.map((r) => r.orderName)).toEqual(["#M0"]);
    const risky = await queryOrders(db.prisma, SHOP, {
      states: [],
      confirmation: [],
      shipping: [],
      issues: [],
      risk: ["high"],
    });
    expect(risky.rows.filter((r) => !r.orderName.startsWith("#M")).length).toBe(6);
    expect(new Set(risky.rows.map((r) => r.risk))).toEqual(new Set(["high"]));
    const all = await queryOrders(db.prisma, SHOP, { states: [], confirmation: [], shipping: [], issues: [] });
    expect(all.rows.find((r) => r.id === good.id)?.risk).toBe("low");
  });

  it("the Orders risk filter works with more risky customers than one read takes, page after page", async () => {
    const { queryOrders, SCAN_WINDOW } = await import("../../app/pages/orders.server");
    const count = 1_500;
    const phone = (i: number) => `07${String(10_000_000 + i).slice(-8)}`;
    // Every other customer is high risk; each has one order, one minute apart.
    await db.prisma.customerRecord.createMany({
      data: Array.from({ length: count }, (_, i) => ({
        shop: SHOP,
        phoneKey: phone(i),
        refused: i % 2 === 0 ? 2 : 0,
        delivered: i % 2 === 0 ? 0 : 1,
      })),
    });
    const start = Date.now() - count * 60_000;
    await db.prisma.orderLink.createMany({
      data: Array.from({ length: count }, (_, i) => ({
        shop: SHOP,
        orderId: String(9_000_000 + i),
        orderName: `#R${i}`,
        payload: "{}",
        externalRef: `r-${i}`,
        phone: phone(i),
        createdAt: new Date(start + i * 60_000),
      })),
    });
    expect(count).toBeLessThan(SCAN_WINDOW);
    const seen: string[] = [];
    let after: string | undefined;
    for (let pages = 0; pages < 10; pages++) {
      const page = await queryOrders(db.prisma, SHOP, {
        states: [],
        confirmation: [],
        shipping: [],
        issues: [],
        risk: ["high"],
        limit: 200,
        after,
      });
      seen.push(...page.rows.map((r) => r.orderName));
      if (!page.nextCursor) break;
      after = page.nextCursor;
    }
    const expected = Array.from({ length: count }, (_, i) => i)
      .filter((i) => i % 2 === 0)
      .reverse()
      .map((i) => `#R${i}`);
    expect(seen).toEqual(expected);
  });
});
