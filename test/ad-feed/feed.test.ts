/**
 * The conversion feed through the pipeline, against the Meta and TikTok
 * stand-ins: orders placed and posted, moved on the platform, synced, their
 * outcomes told once per order and stage to each platform, with consent; too
 * late never sent; a refused event isolated with the platform's words; a rate
 * limit waited out; a refused token stopping the platform until a new one is
 * saved; nothing before the feed is switched on; customers/redact erasing the
 * click ids.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { Prisma } from "@prisma/client";
import type { ActionFunctionArgs } from "@remix-run/node";
import { secretBoxFromEnv } from "../../app/env.server";
import { connectPlatform, saveFeedSettings } from "../../app/ad-feed/connection.server";
import { receivePixelSignal } from "../../app/ad-feed/clicks.server";
import { adPlatformClients } from "../../app/ad-feed/clients.server";
import {
  DATASET,
  feedOrder,
  META_TOKEN,
  PIXEL,
  resetFeedWorld,
  SHOP,
  startFeedWorld,
  TIKTOK_TOKEN,
  type FeedWorld,
} from "./helpers";
import { signedWebhookRequest } from "../helpers/webhooks";

let world: FeedWorld;
beforeAll(async () => {
  world = await startFeedWorld();
});
afterAll(() => world?.close());
beforeEach(() => resetFeedWorld(world));

const db = () => world.db.prisma;

async function connectBoth() {
  const deps = { ...adPlatformClients(), secretBox: secretBoxFromEnv(), storeUrl: `https://${SHOP}/` };
  expect((await connectPlatform(db(), SHOP, "meta", { id: DATASET, token: META_TOKEN }, deps)).ok).toBe(true);
  expect((await connectPlatform(db(), SHOP, "tiktok", { id: PIXEL, token: TIKTOK_TOKEN }, deps)).ok).toBe(true);
}

async function switchOn(settings: Partial<Record<string, string>> = {}) {
  const saved = await saveFeedSettings(
    db(),
    SHOP,
    {
      enabled: "true",
      stage: "delivered",
      naming: "custom",
      negativeOutcomes: "false",
      withoutConsentSignal: "false",
      ...settings,
    },
    { admin: world.admin, appUrl: "https://app.example.com" },
  );
  expect(saved).toMatchObject({ ok: true, pixelFailure: null });
}

/** Places the orders through intake and posts them (leads on the sandbox). */
async function place(orders: Record<string, unknown>[]) {
  const { intakeOrderCreated } = await import("../../app/sync/order-intake.server");
  for (const body of orders)
    await db().$transaction((tx: Prisma.TransactionClient) => intakeOrderCreated(tx, SHOP, body));
  await world.pipeline.drain({ kinds: ["post-lead"], timeoutMs: 60_000 });
  const ids = orders.map((o) => String(o.id));
  return db().orderLink.findMany({ where: { shop: SHOP, orderId: { in: ids } }, orderBy: { orderId: "asc" } });
}

/** The storefront pixel's message for an order's checkout. */
async function signal(order: Record<string, unknown>, marketing: boolean) {
  const feed = await db().adFeed.findUniqueOrThrow({ where: { shop: SHOP } });
  const body = {
    v: 1,
    orderId: `gid://shopify/OrderIdentity/${order.id}`,
    checkoutToken: order.checkout_token,
    marketing,
    fbp: "fb.1.1700000000000.42",
    ttclid: "E.C.P.click",
    pageUrl: "https://atlas-beauty.ma/checkouts/cn/x/thank-you",
  };
  expect(await receivePixelSignal(db(), feed.pixelToken, JSON.stringify(body))).toEqual({ status: 204 });
}

/** The platform moves the leads; the status sync reads them; the events are told; the feed's jobs run. */
async function deliver(links: { leadRef: string | null }[], status: "delivered" | "returned" = "delivered") {
  await moveAndSync(links, status);
  await runFeed();
}

/** The platform confirms, ships and delivers (or takes back) the parcels; the status sync reads them and the events are told. */
async function moveAndSync(links: { leadRef: string | null }[], status: "delivered" | "returned") {
  for (const link of links) {
    await world.platform.advance(link.leadRef!, { confirmation_status: "confirmed" });
    for (const shipping of ["picked_up", "shipped", status] as const)
      await world.platform.advance(link.leadRef!, { shipping_status: shipping });
  }
  const { syncShopStatuses } = await import("../../app/sync/status-sync.server");
  const shop = await db().shop.findUniqueOrThrow({ where: { domain: SHOP } });
  await syncShopStatuses(world.pipeline.deps, shop, world.pipeline.deps.connect(shop).client);
  await world.pipeline.tellLeadEvents();
}

async function runFeed() {
  await world.pipeline.tellLeadEvents();
  await db().job.updateMany({
    where: { kind: "ad-feed", state: { in: ["pending", "failed"] } },
    data: { runAt: new Date() },
  });
  await world.pipeline.drain({ kinds: ["ad-feed"], timeoutMs: 120_000 });
}

const eventsAt = async (control: FeedWorld["metaControl"]) => (await control.received()).events.filter((e) => !e.test);

describe("conversion feed", () => {
  it("GIVEN the feed on WHEN orders are delivered THEN each platform is told once per order with consent, and none without", async () => {
    await connectBoth();
    await switchOn();
    const consenting = feedOrder();
    const declining = feedOrder();
    const formApp = feedOrder({ checkout: false });
    const links = await place([consenting, declining, formApp]);
    await signal(consenting, true);
    await signal(declining, false);
    await deliver(links);

    for (const control of [world.metaControl, world.tiktokControl]) {
      const events = await eventsAt(control);
      expect(events.map((e) => e.eventId)).toEqual([`cod-${consenting.id}-delivered`]);
      expect(events[0].eventName).toBe("CODDelivered");
    }
    const [metaEvent] = await eventsAt(world.metaControl);
    expect(metaEvent.body).toMatchObject({ action_source: "website", user_data: { fbp: "fb.1.1700000000000.42" } });
    const states = await db().adEvent.groupBy({ by: ["state"], _count: true, orderBy: { state: "asc" } });
    expect(Object.fromEntries(states.map((s) => [s.state, s._count]))).toEqual({ sent: 2, no_consent: 4 });
    // The order's timeline says what each platform was told.
    const timeline = await db().timelineEvent.findMany({ where: { kind: "ad_feed" } });
    expect(timeline.map((t) => t.message).sort()).toEqual(["Told Meta: CODDelivered", "Told TikTok: CODDelivered"]);

    // Told again (a sync that sees the same status, events told twice): nothing new.
    await deliver([]);
    await runFeed();
    expect(await eventsAt(world.metaControl)).toHaveLength(1);
    expect(await db().adEvent.count()).toBe(6);
  });

  it("GIVEN orders without a consent signal and the merchant's setting on WHEN delivered THEN told from customer data alone, and the page says so", async () => {
    await connectBoth();
    await switchOn({ withoutConsentSignal: "true", negativeOutcomes: "true", naming: "purchase" });
    const formApp = feedOrder({ checkout: false });
    const [link] = await place([formApp]);
    await deliver([link], "returned");
    const events = await eventsAt(world.metaControl);
    expect(events.map((e) => e.eventName)).toEqual(["CODReturned"]);
    expect(events[0].body).toMatchObject({ action_source: "other" });
    expect((await eventsAt(world.tiktokControl)).map((e) => e.eventName)).toEqual(["CODReturned"]);
    expect(await db().adEvent.count({ where: { customerDataOnly: true, state: "sent" } })).toBe(2);

    const [delivered] = await place([feedOrder({ checkout: false })]);
    await deliver([delivered]);
    expect((await eventsAt(world.metaControl)).map((e) => e.eventName)).toContain("Purchase");
    expect((await eventsAt(world.tiktokControl)).map((e) => e.eventName)).toContain("CompletePayment");
  });

  it("GIVEN outcomes reached before the feed was switched on WHEN synced THEN nothing is recorded or sent", async () => {
    await connectBoth();
    const links = await place([feedOrder({ checkout: false })]);
    await deliver(links);
    await switchOn({ withoutConsentSignal: "true" });
    await runFeed();
    expect(await db().adEvent.count()).toBe(0);
    expect(await eventsAt(world.metaControl)).toHaveLength(0);
  });

  it("GIVEN an outcome older than 7 days WHEN the feed runs THEN it is recorded too late and Meta never sees it", async () => {
    await connectBoth();
    await switchOn({ withoutConsentSignal: "true" });
    const links = await place([feedOrder({ checkout: false }), feedOrder({ checkout: false })]);
    await world.platform.config({ rate_limit_per_minute: 100_000 });
    // The feed's worker stopped for 8 days: the first order's outcome waited that long.
    await deliverWithoutSending(links);
    const [first] = await db().adEvent.findMany({ where: { linkId: links[0].id } });
    await db().adEvent.updateMany({
      where: { linkId: links[0].id },
      data: { occurredAt: new Date(Date.now() - 8 * 86400_000) },
    });
    expect(first).toBeDefined();
    await runFeed();
    expect(await db().adEvent.count({ where: { linkId: links[0].id, state: "too_late" } })).toBe(2);
    expect((await eventsAt(world.metaControl)).map((e) => e.eventId)).toEqual([`cod-${links[1].orderId}-delivered`]);
    // None refused by the platform for its age: the guard held.
    expect(
      (await world.metaControl.received()).requests.every((r) => r.outcome === "accepted" || r.outcome === "read"),
    ).toBe(true);
  });

  it("GIVEN Meta refuses one event of a batch WHEN sent THEN the others are accepted and that one is recorded with Meta's words", async () => {
    await connectBoth();
    await switchOn();
    const good = feedOrder();
    const bad = { ...feedOrder(), client_details: { browser_ip: "not-an-ip", user_agent: "Mozilla/5.0" } };
    const links = await place([good, bad]);
    await signal(good, true);
    await signal(bad, true);
    await deliver(links);
    expect((await eventsAt(world.metaControl)).map((e) => e.eventId)).toEqual([`cod-${good.id}-delivered`]);
    const refused = await db().adEvent.findFirstOrThrow({ where: { platform: "meta", state: "refused" } });
    expect(refused.detail).toBe(
      "Invalid parameter: data[0].user_data.client_ip_address: must be an IPv4 or IPv6 address",
    );
    // TikTok takes no IP it cannot read either: the same order refused there too, the good one accepted.
    expect((await eventsAt(world.tiktokControl)).map((e) => e.eventId)).toEqual([`cod-${good.id}-delivered`]);
  });

  it("GIVEN a rate limit WHEN the feed runs THEN it waits the stated time without counting an attempt, then sends", async () => {
    await connectBoth();
    await switchOn({ withoutConsentSignal: "true" });
    await world.metaControl.fault({ kind: "rate_limit", retryAfterSeconds: 30 });
    const links = await place([feedOrder({ checkout: false })]);
    await deliver(links);
    expect(await eventsAt(world.metaControl)).toHaveLength(0);
    expect(await eventsAt(world.tiktokControl)).toHaveLength(1);
    const job = await db().job.findFirstOrThrow({ where: { kind: "ad-feed" } });
    expect(job.runAt.getTime()).toBeGreaterThan(Date.now() + 20_000);
    expect(job.lastError).toBe("Meta's rate limit");
    await runFeed();
    expect(await eventsAt(world.metaControl)).toHaveLength(1);
  });

  it("GIVEN Meta refuses the saved token WHEN sending THEN Meta waits for a new token while TikTok goes on; a new token sends what waited", async () => {
    await connectBoth();
    await switchOn({ withoutConsentSignal: "true" });
    await world.metaControl.fault({ kind: "invalid_token" });
    const links = await place([feedOrder({ checkout: false })]);
    await deliver(links);
    expect(await eventsAt(world.tiktokControl)).toHaveLength(1);
    expect((await db().adFeed.findUniqueOrThrow({ where: { shop: SHOP } })).metaRefusedAt).not.toBeNull();
    expect(await db().adEvent.count({ where: { platform: "meta", state: "pending" } })).toBe(1);
    await runFeed();
    expect(await eventsAt(world.metaControl)).toHaveLength(0);

    const deps = { ...adPlatformClients(), secretBox: secretBoxFromEnv(), storeUrl: `https://${SHOP}/` };
    expect((await connectPlatform(db(), SHOP, "meta", { id: DATASET, token: "" }, deps)).ok).toBe(true);
    await runFeed();
    expect(await eventsAt(world.metaControl)).toHaveLength(1);
  });

  it("GIVEN a worker killed after Meta accepted WHEN the batch is sent again THEN Meta keeps one event (same event_id)", async () => {
    await connectBoth();
    await switchOn({ withoutConsentSignal: "true" });
    const links = await place([feedOrder({ checkout: false })]);
    await deliver(links);
    // The answer was never recorded: the rows are pending again.
    await db().adEvent.updateMany({ data: { state: "pending", sentAt: null } });
    await world.pipeline.deps.db.job.updateMany({
      where: { kind: "ad-feed" },
      data: { state: "pending", runAt: new Date() },
    });
    await runFeed();
    const received = await world.metaControl.received();
    expect(received.events.filter((e) => !e.test)).toHaveLength(1);
    expect(received.duplicates).toBe(1);
  });

  it("GIVEN customers/redact WHEN it names an order THEN its click ids go and its waiting outcomes are never sent", async () => {
    await connectBoth();
    await switchOn();
    const order = feedOrder();
    const [link] = await place([order]);
    await signal(order, true);
    // The storefront's word for an order the app never took in (not cash on delivery) is erased too.
    const unlinked = feedOrder();
    await signal(unlinked, true);
    const kept = feedOrder();
    await signal(kept, true);
    await deliverWithoutSending([link]);
    const { action } = await import("../../app/routes/webhooks.customers.redact");
    const body = {
      shop_id: 954889,
      shop_domain: SHOP,
      customer: { id: 1 },
      orders_to_redact: [Number(order.id), Number(unlinked.id)],
    };
    const request = signedWebhookRequest({ topic: "customers/redact", shop: SHOP, body, webhookId: "wh-feed-redact" });
    expect((await action({ request, params: {}, context: {} } as ActionFunctionArgs)).status).toBe(200);
    expect((await db().adClick.findMany()).map((c) => c.orderId)).toEqual([String(kept.id)]);
    await runFeed();
    expect(await db().adEvent.count({ where: { state: "erased" } })).toBe(2);
    expect(await eventsAt(world.metaControl)).toHaveLength(0);
    expect(await eventsAt(world.tiktokControl)).toHaveLength(0);
  });
});

/** Delivered and told, with the feed's job left waiting (its outcomes pending). */
const deliverWithoutSending = (links: { leadRef: string | null }[]) => moveAndSync(links, "delivered");
