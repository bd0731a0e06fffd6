import { Prisma } from "@prisma/client";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import type { ActionFunctionArgs } from "@remix-run/node";
import { useTestDatabaseForApp } from "../helpers/app";
import { signedWebhookRequest } from "../helpers/webhooks";
import { storeOfflineSession } from "../helpers/admin";
import { webhookOrder } from "../helpers/orders";
import type { TestDatabase } from "../helpers/db";

type Action = (args: ActionFunctionArgs) => Promise<Response>;
let db: TestDatabase;
let routes: Record<string, Action>;
let sessionStorage: typeof import("../../app/shopify.server").sessionStorage;

const SHOP = "atlas-beauty.myshopify.com";

async function call(topic: string, request: Request): Promise<number> {
  try {
    const response = await routes[topic]({ request, params: {}, context: {} });
    return response.status;
  } catch (thrown) {
    // authenticate.webhook throws a Response for a refused request.
    if (thrown instanceof Response) return thrown.status;
    throw thrown;
  }
}

beforeAll(async () => {
  db = await useTestDatabaseForApp();
  routes = {
    "app/uninstalled": (await import("../../app/routes/webhooks.app.uninstalled")).action,
    "app/scopes_update": (await import("../../app/routes/webhooks.app.scopes_update")).action,
    "customers/data_request": (await import("../../app/routes/webhooks.customers.data_request")).action,
    "customers/redact": (await import("../../app/routes/webhooks.customers.redact")).action,
    "shop/redact": (await import("../../app/routes/webhooks.shop.redact")).action,
    "orders/create": (await import("../../app/routes/webhooks.orders.create")).action,
  };
  ({ sessionStorage } = await import("../../app/shopify.server"));
});
afterAll(() => db.cleanup());

describe("Shopify webhooks", () => {
  it("refuses a wrong HMAC with 401 and stores nothing", async () => {
    // GIVEN a stored session WHEN app/uninstalled arrives signed with another secret
    await storeOfflineSession(sessionStorage, SHOP);
    const status = await call(
      "app/uninstalled",
      signedWebhookRequest({ topic: "app/uninstalled", shop: SHOP, body: { id: 1 }, signWith: "not-the-secret" }),
    );
    // THEN it is refused and nothing changed
    expect(status).toBe(401);
    expect(await db.prisma.webhookDelivery.count()).toBe(0);
    expect(await db.prisma.session.count({ where: { shop: SHOP } })).toBe(1);
  });

  it("answers 400 when a required Shopify header is missing", async () => {
    const status = await call(
      "app/uninstalled",
      signedWebhookRequest({ topic: "app/uninstalled", shop: SHOP, body: {}, omitHeaders: ["X-Shopify-Topic"] }),
    );
    expect(status).toBe(400);
    expect(await db.prisma.webhookDelivery.count()).toBe(0);
  });

  it("accepts a valid app/uninstalled once: sessions dropped, shop kept and marked", async () => {
    const request = () =>
      signedWebhookRequest({ topic: "app/uninstalled", shop: SHOP, body: { id: 1 }, webhookId: "wh-uninstall-1" });
    expect(await call("app/uninstalled", request())).toBe(200);
    expect(await db.prisma.session.count({ where: { shop: SHOP } })).toBe(0);
    const shop = await db.prisma.shop.findUniqueOrThrow({ where: { domain: SHOP } });
    expect(shop.uninstalledAt).toBeInstanceOf(Date);

    // A redelivery of the same webhook is acknowledged and does nothing more.
    expect(await call("app/uninstalled", request())).toBe(200);
    expect(await db.prisma.webhookDelivery.count({ where: { id: "wh-uninstall-1" } })).toBe(1);
  });

  it("records app/scopes_update on the stored sessions", async () => {
    await storeOfflineSession(sessionStorage, SHOP, "read_orders");
    const status = await call(
      "app/scopes_update",
      signedWebhookRequest({
        topic: "app/scopes_update",
        shop: SHOP,
        body: { id: 2, previous: ["read_orders"], current: ["read_orders", "write_orders"] },
      }),
    );
    expect(status).toBe(200);
    const session = await db.prisma.session.findFirstOrThrow({ where: { shop: SHOP } });
    expect(session.scope).toBe("read_orders,write_orders");
  });

  it("acknowledges compliance topics without a session, once per delivery", async () => {
    for (const topic of ["customers/data_request", "customers/redact"]) {
      // Shopify's compliance payloads name their shop (shop_id, shop_domain): both are required.
      const body = {
        shop_id: 954889,
        shop_domain: SHOP,
        customer: { id: 7, phone: "+212612345678" },
        orders_requested: [1],
      };
      const status = await call(topic, signedWebhookRequest({ topic, shop: SHOP, body, webhookId: `wh-${topic}` }));
      expect(status).toBe(200);
      expect(
        await db.prisma.webhookDelivery.count({ where: { id: `wh-${topic}`, topic: { contains: "CUSTOMERS" } } }),
      ).toBe(1);
    }
  });

  it("shop/redact erases everything held for that shop and nothing of another", async () => {
    const other = "rif-market.myshopify.com";
    await storeOfflineSession(sessionStorage, SHOP);
    await storeOfflineSession(sessionStorage, other);
    for (const shop of [SHOP, other]) {
      await db.prisma.skuMapping.create({ data: { shop, sourceKind: "sku", sourceKey: "x", targets: "[]" } });
      await db.prisma.cityAlias.create({ data: { shop, alias: "casa anfa", cityId: 101 } });
      await db.prisma.flowTriggerUsage.create({
        data: { shop, handle: "lead-created", hasEnabledFlow: false, notifiedAt: new Date() },
      });
      await db.prisma.analyticsLead.create({ data: { linkId: `link-${shop}`, shop, day: "2026-11-20", cityId: 101 } });
      await db.prisma.analyticsDaily.create({
        data: {
          shop,
          grain: "shop",
          day: "2026-11-20",
          cityId: 0,
          productKey: "",
          statusGroup: "delivered",
          deliveryDays: 2,
          orders: 1,
        },
      });
      await db.prisma.queueTurn.create({ data: { shop, lastServedMs: 1 } });
      await db.prisma.pendingLeadEvent.create({
        data: { id: `event-${shop}`, shop, linkId: `link-${shop}`, event: "{}", at: new Date() },
      });
      await db.prisma.storePairingCode.create({
        data: { codeHash: `hash-${shop}`, shop, expiresAt: new Date(Date.now() + 60_000) },
      });
      await db.prisma.shopAuditEvent.create({ data: { shop, kind: "pairing.code_created", by: shop } });
      await db.prisma.cashParcel.create({
        data: {
          linkId: `cash-${shop}`,
          shop,
          orderId: "1",
          orderName: "#1",
          state: "owed",
          day: "2026-11-20",
          deliveredDay: "2026-11-20",
        },
      });
      await db.prisma.cashDaily.create({
        data: { shop, state: "owed", day: "2026-11-20", deliveredDay: "2026-11-20", parcels: 1 },
      });
      await db.prisma.syncLedger.create({ data: { shop, coverageFrom: new Date() } });
      await db.prisma.reconcilePass.create({ data: { shop, at: new Date(), recovered: 1 } });
      await db.prisma.syncLatency.create({
        data: { shop, metric: "order_to_lead", hour: new Date("2026-11-20T10:00:00Z"), bucket: 60, count: 1 },
      });
      await db.prisma.oddsModel.create({ data: { shop, model: "{}", fittedAt: new Date(), settled: 1 } });
      await db.prisma.orderOdds.create({
        data: { linkId: `odds-${shop}`, shop, probability: 0.7, level: "LOW", scoredAt: new Date() },
      });
      await db.prisma.adFeed.create({ data: { shop, enabled: true, metaDatasetId: "1234567890123" } });
      await db.prisma.adEvent.create({
        data: {
          shop,
          linkId: `link-${shop}`,
          stage: "delivered",
          platform: "meta",
          state: "sent",
          occurredAt: new Date(),
          day: "2026-11-20",
        },
      });
      await db.prisma.adClick.create({ data: { shop, orderId: "1", marketing: true, fbp: "fb.1.1700000000000.1" } });
    }
    // Paired with the other store: the pairing goes with the erased shop; the other store's log stays its own.
    await db.prisma.storePairing.create({ data: { shopA: SHOP, shopB: other, codeFrom: other } });
    // Shopify sends shop/redact 48 hours after the uninstall (an installed shop is not erased).
    expect(
      await call("app/uninstalled", signedWebhookRequest({ topic: "app/uninstalled", shop: SHOP, body: { id: 1 } })),
    ).toBe(200);
    const status = await call(
      "shop/redact",
      signedWebhookRequest({ topic: "shop/redact", shop: SHOP, body: { shop_id: 1, shop_domain: SHOP } }),
    );
    expect(status).toBe(200);
    const seeded = [
      "session",
      "skuMapping",
      "cityAlias",
      "flowTriggerUsage",
      "analyticsLead",
      "analyticsDaily",
      "queueTurn",
      "pendingLeadEvent",
      "storePairingCode",
      "shopAuditEvent",
      "cashParcel",
      "cashDaily",
      "syncLedger",
      "reconcilePass",
      "syncLatency",
      "oddsModel",
      "orderOdds",
      "adFeed",
      "adEvent",
      "adClick",
    ] as const;
    for (const model of seeded) {
      // @ts-expect-error indexing the client by model name keeps the assertion in one loop
      expect(await db.prisma[model].count({ where: { shop: SHOP } })).toBe(0);
      // @ts-expect-error see above
      expect(await db.prisma[model].count({ where: { shop: other } })).toBe(1);
    }
    expect(await db.prisma.shop.count({ where: { domain: SHOP } })).toBe(0);
    expect(await db.prisma.storePairing.count()).toBe(0);
    // A table added later with a shop column must be erased too (and seeded above), or be named here with why it stays.
    const erasedElsewhere = [
      "timelineEvent",
      "orderLink",
      "job",
      "apiCall",
      "dataRequest",
      "customerLead",
      "customerRecord",
    ];
    const kept = { webhookDelivery: "ids and topics only, so a redelivered shop/redact is still recognised as done" };
    const withShop = Prisma.dmmf.datamodel.models
      .filter((m) => m.fields.some((f) => f.name === "shop"))
      .map((m) => m.name.charAt(0).toLowerCase() + m.name.slice(1));
    expect(withShop.sort()).toEqual([...seeded, ...erasedElsewhere, ...Object.keys(kept)].sort());
  });

  it("refuses a wrong HMAC on orders/create with 401 and stores no order", async () => {
    const body = webhookOrder({ id: 4_100_000_000_001 });
    const status = await call(
      "orders/create",
      signedWebhookRequest({ topic: "orders/create", shop: SHOP, body, signWith: "nope" }),
    );
    expect(status).toBe(401);
    expect(await db.prisma.orderLink.count({ where: { orderId: String(body.id) } })).toBe(0);
    expect(await db.prisma.job.count({ where: { key: { contains: String(body.id) } } })).toBe(0);
  });

  it("answers 405 to a webhook route called with GET", async () => {
    const request = new Request("https://cod-lead-sync.test/webhooks/orders/create");
    expect(await call("orders/create", request)).toBe(405);
  });

  it("answers 400 to a signed body that is not a JSON object, and stores nothing", async () => {
    const before = await db.prisma.webhookDelivery.count();
    const status = await call(
      "orders/create",
      signedWebhookRequest({ topic: "orders/create", shop: SHOP, body: "[1, 2]" }),
    );
    expect(status).toBe(400);
    expect(await db.prisma.webhookDelivery.count()).toBe(before);
  });

  it("never calls Shopify on a webhook, even when the shop's offline token has expired (no refresh on the request path)", async () => {
    // GIVEN an offline session whose token expired and which holds a refresh token
    // (authenticate.webhook would refresh it with an HTTP call to the shop: after an
    // uninstall the token is revoked, that call fails, and the webhook would be 500 forever)
    const session = await storeOfflineSession(sessionStorage, SHOP);
    session.expires = new Date(Date.now() - 60_000);
    session.refreshToken = "shprt_revoked";
    session.refreshTokenExpires = new Date(Date.now() + 3600_000);
    await sessionStorage.storeSession(session);
    const calls: string[] = [];
    const record = async (input: RequestInfo | URL) => {
      calls.push(String(input instanceof Request ? input.url : input));
      return new Response("no network in tests", { status: 500 });
    };
    const { setAbstractFetchFunc } = await import("@shopify/shopify-api/runtime");
    setAbstractFetchFunc(record as typeof fetch);
    vi.stubGlobal("fetch", record);
    try {
      // WHEN an order and then app/uninstalled arrive
      const order = webhookOrder({ id: 4_100_000_000_002 });
      expect(
        await call("orders/create", signedWebhookRequest({ topic: "orders/create", shop: SHOP, body: order })),
      ).toBe(200);
      expect(
        await call("app/uninstalled", signedWebhookRequest({ topic: "app/uninstalled", shop: SHOP, body: { id: 1 } })),
      ).toBe(200);
      // THEN both are stored and nothing went out
      expect(await db.prisma.orderLink.count({ where: { orderId: String(order.id) } })).toBe(1);
      expect(await db.prisma.session.count({ where: { shop: SHOP } })).toBe(0);
      expect(calls).toEqual([]);
    } finally {
      vi.unstubAllGlobals();
      setAbstractFetchFunc(globalThis.fetch);
    }
  });
});
