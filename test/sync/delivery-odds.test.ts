/**
 * Delivery odds through the whole pipeline: orders posted to the sandbox by the
 * post-lead job, each scored before it is sent (stored with its reasons and value),
 * the shop's policy holding the ones it should (the customer hold's own step, and
 * "Send anyway"), the risk assessment written to the Shopify Admin stand-in once
 * per change, the "Delivery odds scored" Flow trigger only where a workflow uses
 * it, the daily fit on the shop's own settled orders, and customers/redact.
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
import { readShopSettings } from "../../app/models/shop-settings";
import { parseHoldReason } from "../../app/customers/hold-reason";
import { releasedRiskLevel } from "../../app/odds/decision";

let db: TestDatabase;
let sandbox: Awaited<ReturnType<typeof startSandbox>>;
let platform: ReturnType<typeof sandboxControl>;
let admin: RunningShopifyAdmin;
let shopify: ReturnType<typeof shopifyAdminControl>;
let pipeline: TestPipeline;
let nextOrderId = 6_660_000_000_000;

const REFUSER = "0677001122";
const DAY = 86_400_000;

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
  await platform.config({ rate_limit_per_minute: 100_000, duplicate_window_seconds: 0 });
  await shopify.reset();
  for (const table of ["job", "timelineEvent", "orderLink", "flowTriggerUsage", "pendingLeadEvent"] as const)
    await (db.prisma[table] as { deleteMany(): Promise<unknown> }).deleteMany();
  await db.prisma.customerLead.deleteMany();
  await db.prisma.customerRecord.deleteMany();
  await db.prisma.orderOdds.deleteMany();
  await db.prisma.oddsModel.deleteMany();
  await connectTestShop(db.prisma, { apiKey: keys.find((k) => k.account === "ACC-1001")!.key, baseUrl: sandbox.url });
  await setSettings({ duplicateWindowMinutes: 0 });
  const app = await import("../../app/shopify.server");
  pipeline = testPipeline(db.prisma, { adminFor: async (shop) => (await app.unauthenticated.admin(shop)).admin });
});

async function setSettings(change: Record<string, unknown>) {
  const shop = await db.prisma.shop.findUniqueOrThrow({ where: { domain: SHOP } });
  const settings = { ...readShopSettings(shop.settings), ...change };
  await db.prisma.shop.update({ where: { domain: SHOP }, data: { settings: JSON.stringify(settings) } });
}

/** Orders placed in Shopify (the stand-in) and taken in by the app, then the post-lead jobs. */
async function placeOrders(phones: string[], spec: Partial<Parameters<typeof webhookOrder>[0]> = {}) {
  const { intakeOrderCreated } = await import("../../app/sync/order-intake.server");
  const ids: string[] = [];
  for (const phone of phones) {
    const id = nextOrderId++;
    ids.push(String(id));
    await shopify.addOrder(SHOP, { id });
    await db.prisma.$transaction((tx) => intakeOrderCreated(tx, SHOP, webhookOrder({ id, phone, ...spec })));
  }
  await pipeline.drain({ kinds: ["post-lead"], timeoutMs: 60_000 });
  return db.prisma.orderLink.findMany({ where: { shop: SHOP, orderId: { in: ids } }, orderBy: { orderId: "asc" } });
}

/** Two refused orders of the phone, settled ten days ago, as the records handler keeps them. */
async function refusedTwice(phone: string) {
  const at = new Date(Date.now() - 10 * DAY);
  for (const i of [0, 1])
    await db.prisma.customerLead.create({
      data: {
        linkId: `old-${phone}-${i}`,
        shop: SHOP,
        phoneKey: phone,
        orderName: `#OLD${i}`,
        outcome: "refused",
        outcomeAt: at,
        orderedAt: at,
      },
    });
}

const shopRow = () => db.prisma.shop.findUniqueOrThrow({ where: { domain: SHOP } });
const odds = (linkId: string) => db.prisma.orderOdds.findUniqueOrThrow({ where: { linkId } });
const jobs = (kind: string) => db.prisma.job.findMany({ where: { kind }, orderBy: { key: "asc" } });

describe("delivery odds before sending", () => {
  it("GIVEN send all (the default) WHEN an order is posted THEN it is sent, its odds, value and reasons stored", async () => {
    const [link] = await placeOrders(["0611223344"]);
    expect(link.state).toBe("created");
    const row = await odds(link.id);
    expect(row.probability).toBeGreaterThan(0);
    expect(row.probability).toBeLessThan(1);
    expect(row.held).toBe(false);
    // 199 MAD of argan oil (79 MAD at the platform) to Casablanca (20 MAD): a known margin and loss.
    expect(row.marginCents).toBe(Math.round(Number(link.totalClient) * 100) - 7_900 - 2_000);
    expect(row.valueCents).not.toBeNull();
    expect(JSON.parse(row.reasons).map((r: { feature: string }) => r.feature)).toContain("first_order");
    expect(await jobs("risk-assessment")).toHaveLength(1);
  });

  it("GIVEN hold below 50 % and a customer who refused twice THEN the order is held as the customer hold holds, says why and from where it would go; Send anyway sends it", async () => {
    await setSettings({ deliveryOdds: { policy: "hold_below", minPercent: 50, refusalCost: 0 } });
    await refusedTwice(REFUSER);
    const [held, fine] = await placeOrders([REFUSER, "0611000222"]);
    expect(held.state).toBe("held");
    expect(fine.state).toBe("created");
    const step = await db.prisma.timelineEvent.findFirstOrThrow({ where: { linkId: held.id, kind: "customer_hold" } });
    const reason = parseHoldReason(JSON.parse(step.data!).reason)!;
    expect(reason.code).toBe("delivery_odds");
    expect(reason.odds).toMatchObject({ rule: "below_probability", releaseAt: 0.5 });
    expect(reason.odds!.reasons[0]).toMatchObject({ feature: "customer_failed", params: { count: 2 } });
    expect(held.reason).toBe(`Delivery odds ${Math.round(reason.odds!.probability * 100)}%, under your 50%`);
    expect((await odds(held.id)).held).toBe(true);

    const { sendAnyway } = await import("../../app/sync/order-actions.server");
    await sendAnyway(db.prisma, SHOP, held.id, { by: "owner@example.com" });
    await pipeline.drain({ kinds: ["post-lead"], timeoutMs: 30_000 });
    const after = await db.prisma.orderLink.findUniqueOrThrow({ where: { id: held.id } });
    expect(after.state).toBe("created");
    expect((await odds(held.id)).held).toBe(false);
  });

  it("GIVEN hold when the value is negative THEN a dear order to a far city from a refuser waits; a trusted phone never does", async () => {
    await setSettings({ deliveryOdds: { policy: "hold_negative_value", minPercent: 30, refusalCost: 150 } });
    await refusedTwice(REFUSER);
    const [held] = await placeOrders([REFUSER], { city: "Azemmour" });
    expect(held.state).toBe("held");
    const row = await odds(held.id);
    expect(row.valueCents!).toBeLessThan(0);
    expect(row.level).toBe("HIGH");
    await db.prisma.customerRecord.upsert({
      where: { shop_phoneKey: { shop: SHOP, phoneKey: REFUSER } },
      create: { shop: SHOP, phoneKey: REFUSER, standing: "trusted" },
      update: { standing: "trusted" },
    });
    const [trusted] = await placeOrders([REFUSER], { city: "Azemmour" });
    expect(trusted.state).toBe("created");
  });
});

describe("a looser policy in Settings", () => {
  it("GIVEN orders held for their odds WHEN the merchant lowers the threshold THEN nothing is sent by itself: the ones the new policy sends are named for one confirmation, their hold ended; the rest stay held", async () => {
    await setSettings({ deliveryOdds: { policy: "hold_below", minPercent: 99, refusalCost: 0 } });
    await refusedTwice(REFUSER);
    const placed = await placeOrders([REFUSER, "0611000444", "0611000555"]);
    expect(placed.map((l) => l.state)).toEqual(["held", "held", "held"]);
    const scores = await Promise.all(placed.map((l) => odds(l.id)));
    const [refuser, ...firsts] = scores.map((o) => Math.round(o.probability * 100));
    // The refuser's odds are well under a first order's.
    expect(Math.min(...firsts) - refuser).toBeGreaterThanOrEqual(4);

    const { saveSettingsPage, settingsFormValues, sendReleasedFromSettings } =
      await import("../../app/pages/settings.server");
    const threshold = refuser + 2;
    const saved = await saveSettingsPage(db.prisma, SHOP, {
      ...settingsFormValues(readShopSettings((await shopRow()).settings)),
      "deliveryOdds.minPercent": String(threshold),
    });
    expect(saved.ok).toBe(true);
    if (!saved.ok) return;
    const freed = [placed[1].id, placed[2].id].sort();
    expect(saved.release?.orders.map((o) => o.id).sort()).toEqual(freed);
    expect(saved.release?.stillHeld).toBe(1);

    // Nothing was sent: the freed orders wait, their hold ended and said so; the refuser's stays.
    const after = await db.prisma.orderLink.findMany({
      where: { id: { in: placed.map((l) => l.id) } },
      orderBy: { orderId: "asc" },
    });
    expect(after.map((l) => l.state)).toEqual(["held", "held", "held"]);
    expect(await db.prisma.job.count({ where: { kind: "post-lead", state: { not: "done" } } })).toBe(0);
    const { customerHoldReasons } = await import("../../app/customers/hold-reasons.server");
    const holds = await customerHoldReasons(
      db.prisma,
      SHOP,
      placed.map((l) => l.id),
    );
    expect([...holds.keys()]).toEqual([placed[0].id]);
    const released = await db.prisma.timelineEvent.findMany({ where: { kind: "odds_released" } });
    expect(released.map((r) => r.linkId).sort()).toEqual(freed);
    expect(released[0].message).toMatch(
      /^Ready to send: your new delivery-odds policy no longer holds it \(\d+% chance/,
    );
    expect((await db.prisma.orderLink.findUniqueOrThrow({ where: { id: placed[1].id } })).reason).toMatch(
      /^Ready to send/,
    );
    expect((await odds(placed[1].id)).held).toBe(false);
    expect((await odds(placed[0].id)).held).toBe(true);

    // The same save again frees nothing more; a stricter one frees nothing at all.
    const again = await saveSettingsPage(db.prisma, SHOP, {
      ...settingsFormValues(readShopSettings((await shopRow()).settings)),
      "deliveryOdds.minPercent": String(threshold + 1),
    });
    expect(again.ok && again.release?.orders).toEqual([]);

    // WHEN the merchant confirms the two THEN they are sent; more than one never goes without the stated count.
    const form = (fields: Record<string, string>) => {
      const data = new FormData();
      for (const [k, v] of Object.entries(fields)) data.set(k, v);
      return data;
    };
    expect(await sendReleasedFromSettings(db.prisma, SHOP, form({ ids: freed.join(",") }))).toEqual({
      intent: "sendReleased",
      ok: false,
      error: "group_changed",
    });
    expect(await sendReleasedFromSettings(db.prisma, SHOP, form({ ids: freed.join(","), count: "2" }))).toEqual({
      intent: "sendReleased",
      ok: true,
      sent: 2,
    });
    await pipeline.drain({ kinds: ["post-lead"], timeoutMs: 60_000 });
    const sent = await db.prisma.orderLink.findMany({
      where: { id: { in: placed.map((l) => l.id) } },
      orderBy: { orderId: "asc" },
    });
    expect(sent.map((l) => l.state)).toEqual(["held", "created", "created"]);
  });
});

describe("in Shopify's own places", () => {
  it("GIVEN a scored order WHEN the risk-assessment job runs THEN the stand-in's order holds the level and facts, once per change", async () => {
    const [link] = await placeOrders(["0611223355"]);
    await pipeline.drain({ kinds: ["risk-assessment"], timeoutMs: 20_000 });
    const order = await shopify.order(SHOP, link.orderId);
    expect(order.riskAssessments).toHaveLength(1);
    const [assessment] = order.riskAssessments!;
    expect(["LOW", "MEDIUM", "HIGH"]).toContain(assessment.riskLevel);
    expect(assessment.facts[0].description).toMatch(/^Delivery odds \d+% \(your shop delivers \d+%\)$/);
    expect(assessment.facts[1].description).toMatch(/^Expected value of sending: [+-]/);
    expect(assessment.facts.some((f) => f.description === "First order from this phone")).toBe(true);
    expect((await odds(link.id)).assessedHash).not.toBeNull();
    const steps = await db.prisma.timelineEvent.findMany({ where: { linkId: link.id, kind: "risk_assessed" } });
    expect(steps).toHaveLength(1);

    // The same score again (a re-check that changes nothing): nothing new is written.
    const { writeRiskAssessment } = await import("../../app/sync/risk-assessment.server");
    const app = await import("../../app/shopify.server");
    const deps = {
      db: db.prisma,
      now: () => new Date(),
      adminFor: async (shop: string) => (await app.unauthenticated.admin(shop)).admin,
    };
    expect(await writeRiskAssessment(deps, link.id)).toBe("unchanged");
    // Held since: the level and facts change, so it is written again.
    await db.prisma.orderOdds.update({ where: { linkId: link.id }, data: { level: "HIGH", held: true } });
    expect(await writeRiskAssessment(deps, link.id)).toBe("written");
    expect((await shopify.order(SHOP, link.orderId)).riskAssessments!.map((a) => a.riskLevel).at(-1)).toBe("HIGH");
  });

  it("GIVEN a sent order LOW on its risk card WHEN it is cancelled in Shopify while its lead goes on THEN the card is rewritten with no recommendation: nothing to gain, stop it, what a parcel out and back costs", async () => {
    const [link] = await placeOrders(["0611223366"]);
    await pipeline.drain({ kinds: ["risk-assessment"], timeoutMs: 20_000 });
    expect((await shopify.order(SHOP, link.orderId)).riskAssessments!.at(-1)!.facts[1].description).toMatch(
      /^Expected value of sending: \+/,
    );
    const { intakeOrderCancelled } = await import("../../app/sync/order-intake.server");
    await db.prisma.$transaction((tx) =>
      intakeOrderCancelled(tx, SHOP, {
        ...webhookOrder({ id: Number(link.orderId) }),
        cancelled_at: new Date().toISOString(),
      }),
    );
    await pipeline.drain({ kinds: ["risk-assessment"], timeoutMs: 20_000 });
    const latest = (await shopify.order(SHOP, link.orderId)).riskAssessments!.at(-1)!;
    expect(latest.riskLevel).toBe("NONE");
    const facts = latest.facts.map((f) => f.description);
    expect(facts[0]).toBe("Cancelled in Shopify after its lead was sent: nothing to gain from delivering it");
    expect(facts[1]).toMatch(/^Stop its lead in the platform's seller space: a parcel out and back costs [\d.,]+ MAD/);
    expect(facts.join(" ")).not.toMatch(/Expected value/);
  });

  const RELEASED = "Released by the merchant from its delivery-odds hold";
  const assessments = async (orderId: string) => (await shopify.order(SHOP, orderId)).riskAssessments ?? [];

  it("GIVEN an order held for its odds, HIGH on its risk card WHEN the merchant sends it anyway THEN the card reads the odds' own level and the release at once, and after the sending too", async () => {
    await setSettings({ deliveryOdds: { policy: "hold_negative_value", minPercent: 30, refusalCost: 150 } });
    await refusedTwice(REFUSER);
    const [held] = await placeOrders([REFUSER], { city: "Azemmour" });
    expect(held.state).toBe("held");
    await pipeline.drain({ kinds: ["risk-assessment"], timeoutMs: 20_000 });
    const before = await assessments(held.orderId);
    expect(before.map((a) => a.riskLevel)).toEqual(["HIGH"]);
    expect(before[0].facts.map((f) => f.description)).toContain(held.reason);
    expect(before[0].facts.map((f) => f.description)).not.toContain(RELEASED);

    const { sendAnyway } = await import("../../app/sync/order-actions.server");
    await sendAnyway(db.prisma, SHOP, held.id, { by: "owner@example.com" });
    // Before the order is sent: the risk card already says it was released, at the odds' own level.
    await pipeline.drain({ kinds: ["risk-assessment"], timeoutMs: 20_000 });
    const released = await assessments(held.orderId);
    expect(released).toHaveLength(2);
    // A negative expected value is HIGH for a held order; released, it stays worth a look but is no longer HIGH.
    expect((await odds(held.id)).valueCents!).toBeLessThan(0);
    expect(released[1].riskLevel).toBe("MEDIUM");
    const facts = released[1].facts.map((f) => f.description);
    expect(facts).toContain(RELEASED);
    expect(facts).not.toContain(held.reason);
    expect(released[1].facts.find((f) => f.description === RELEASED)!.sentiment).toBe("NEUTRAL");

    // Sent and scored again: still released, still MEDIUM; the same content is not written twice.
    await pipeline.drain({ kinds: ["post-lead", "risk-assessment"], timeoutMs: 60_000 });
    expect((await db.prisma.orderLink.findUniqueOrThrow({ where: { id: held.id } })).state).toBe("created");
    const sent = await assessments(held.orderId);
    expect(sent.at(-1)!.riskLevel).toBe("MEDIUM");
    expect(sent.at(-1)!.facts.map((f) => f.description)).toContain(RELEASED);
    expect(sent).toHaveLength(2);
  });

  it("GIVEN orders held for their odds, HIGH on their risk cards WHEN a looser policy in Settings releases one THEN its card reads the odds' own level and the release before it is sent; the one still held stays HIGH", async () => {
    await setSettings({ deliveryOdds: { policy: "hold_below", minPercent: 99, refusalCost: 0 } });
    await refusedTwice(REFUSER);
    const [refuser, fine] = await placeOrders([REFUSER, "0611000666"]);
    await pipeline.drain({ kinds: ["risk-assessment"], timeoutMs: 20_000 });
    for (const link of [refuser, fine])
      expect((await assessments(link.orderId)).map((a) => a.riskLevel)).toEqual(["HIGH"]);

    const { saveSettingsPage, settingsFormValues } = await import("../../app/pages/settings.server");
    const threshold = Math.round((await odds(refuser.id)).probability * 100) + 2;
    const saved = await saveSettingsPage(db.prisma, SHOP, {
      ...settingsFormValues(readShopSettings((await shopRow()).settings)),
      "deliveryOdds.minPercent": String(threshold),
    });
    expect(saved.ok && saved.release?.orders.map((o) => o.id)).toEqual([fine.id]);
    await pipeline.drain({ kinds: ["risk-assessment"], timeoutMs: 20_000 });

    // Not sent (nothing is until the merchant confirms), yet Shopify no longer reads it as held.
    expect((await db.prisma.orderLink.findUniqueOrThrow({ where: { id: fine.id } })).state).toBe("held");
    const freed = await assessments(fine.orderId);
    expect(freed).toHaveLength(2);
    // The level stored at the release is the odds' own without the hold.
    const score = await odds(fine.id);
    expect(score.held).toBe(false);
    expect(freed[1].riskLevel).not.toBe("HIGH");
    expect(freed[1].riskLevel).toBe(releasedRiskLevel(score.level as "HIGH" | "MEDIUM" | "LOW"));
    expect(freed[1].facts.map((f) => f.description)).toContain(RELEASED);
    expect((await assessments(refuser.orderId)).map((a) => a.riskLevel)).toEqual(["HIGH"]);
  });

  it('GIVEN no workflow uses "Delivery odds scored" THEN no firing is queued; once Flow says one does, each distinct score fires once', async () => {
    await placeOrders(["0611223366"]);
    expect((await jobs("flow-trigger")).filter((j) => j.key.includes("delivery-odds-scored"))).toHaveLength(0);

    const { recordTriggerUsage } = await import("../../app/flow/flow-triggers.server");
    await recordTriggerUsage(db.prisma, SHOP, {
      shopify_domain: SHOP,
      flow_trigger_definition_id: "delivery-odds-scored",
      has_enabled_flow: true,
    });
    const [link] = await placeOrders(["0611223377"]);
    const queued = (await jobs("flow-trigger")).filter((j) => j.key.includes("delivery-odds-scored"));
    expect(queued).toHaveLength(1);
    await pipeline.drain({ kinds: ["flow-trigger"], timeoutMs: 20_000 });
    const received = (await shopify.flow(SHOP)).received.filter((r) => r.handle === "delivery-odds-scored");
    expect(received).toHaveLength(1);
    expect(received[0].payload).toMatchObject({
      order_id: Number(link.orderId),
      "Risk level": (await odds(link.id)).level,
      Decision: "send",
    });
    expect(received[0].payload["Delivery probability"]).toBeCloseTo((await odds(link.id)).probability * 100, 1);

    // Switched off in Settings: nothing, even with the workflow.
    await setSettings({ flowTriggers: { ...readShopSettings(null).flowTriggers, deliveryOdds: false } });
    await placeOrders(["0611223388"]);
    expect((await jobs("flow-trigger")).filter((j) => j.key.includes("delivery-odds-scored"))).toHaveLength(1);
  });
});

describe("the shop's model", () => {
  it("GIVEN settled orders WHEN the daily fit runs THEN the shop's model is stored and the next scores use it", async () => {
    const links = await placeOrders(["0612000001", "0612000002", "0612000003", "0612000004"]);
    for (const [i, link] of links.entries())
      await platform.advance(link.leadRef!, { confirmation_status: i % 2 ? "canceled" : "confirmed" });
    const { syncShopStatuses } = await import("../../app/sync/status-sync.server");
    const shop = await db.prisma.shop.findUniqueOrThrow({ where: { domain: SHOP } });
    await syncShopStatuses(pipeline.deps, shop, pipeline.deps.connect(shop).client);
    await pipeline.tellLeadEvents();

    const { ensureOddsFitScheduled } = await import("../../app/customers/odds-fit.server");
    await ensureOddsFitScheduled(db.prisma, SHOP, new Date(Date.now() - 2 * 60_000));
    await pipeline.drain({ kinds: ["odds-fit"], timeoutMs: 20_000 });
    const model = await db.prisma.oddsModel.findUniqueOrThrow({ where: { shop: SHOP } });
    // The two cancelled on the call have settled; the confirmed ones are still on their way.
    expect(model.settled).toBe(2);
    expect(JSON.parse(model.model)).toMatchObject({ source: "fitted", shop: { delivered: 0, settled: 2 } });
    // The next fit is planned for tomorrow.
    const next = await db.prisma.job.findUniqueOrThrow({ where: { key: `odds-fit:${SHOP}` } });
    expect(next.runAt.getTime()).toBeGreaterThan(Date.now() + 23 * 3600_000);

    const [scored] = await placeOrders(["0612000005"]);
    expect((await odds(scored.id)).modelFittedAt).toEqual(model.fittedAt);
  });

  it("GIVEN customers/redact THEN the odds of the customer's orders go with the customer", async () => {
    const [link, other] = await placeOrders(["0612000009", "0612000010"]);
    const { redactCustomer } = await import("../../app/customers/compliance.server");
    await db.prisma.$transaction((tx) =>
      redactCustomer(tx, SHOP, { customer: { id: 1 }, orders_to_redact: [link.orderId] }),
    );
    expect(await db.prisma.orderOdds.findUnique({ where: { linkId: link.id } })).toBeNull();
    expect(await db.prisma.orderOdds.findUnique({ where: { linkId: other.id } })).not.toBeNull();
    // Its risk assessment finds nothing to write any more.
    const { writeRiskAssessment } = await import("../../app/sync/risk-assessment.server");
    expect(
      await writeRiskAssessment(
        {
          db: db.prisma,
          now: () => new Date(),
          adminFor: async () => {
            throw new Error("no call expected");
          },
        },
        link.id,
      ),
    ).toBe("nothing");
  });
});
