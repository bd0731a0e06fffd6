/**
 * Shopify's HMAC covers the body only, so the topic and shop
 * headers can be swapped on a captured delivery. Through the production server:
 * a signed body replayed to another topic's address, or a compliance payload
 * sent with another shop's header, is refused and that shop's data stays; a
 * redelivery (same X-Shopify-Webhook-Id) is acknowledged and not processed twice.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ensurePreviewBuild, removePreviewBuild } from "../helpers/preview-server";
import { signedWebhookHeaders } from "../helpers/webhooks";
import { webhookOrder } from "../helpers/orders";
import { startAppServer, type AppServer } from "./app-server";

const ATTACKER = "mallory-store.myshopify.com";
const VICTIM = "atlas-beauty.myshopify.com";

let buildDir: string;
let server: AppServer;

beforeAll(async () => {
  buildDir = await ensurePreviewBuild();
  server = await startAppServer(buildDir, { shops: [ATTACKER, VICTIM] });
}, 300_000);
afterAll(async () => {
  await server?.close();
  if (buildDir) removePreviewBuild(buildDir);
});

function post(path: string, headerTopic: string, shop: string, body: string, webhookId?: string) {
  const headers = signedWebhookHeaders(
    { topic: headerTopic, shop, body: null, secret: server.apiSecret, webhookId },
    body,
  );
  return fetch(`${server.url}${path}`, { method: "POST", headers, body });
}

async function seedVictim() {
  await server.db.shop.upsert({ where: { domain: VICTIM }, create: { domain: VICTIM }, update: {} });
  const order = webhookOrder({ id: 4_300_000_000_001 });
  expect((await post("/webhooks/orders/create", "orders/create", VICTIM, JSON.stringify(order))).status).toBe(200);
  expect(await server.db.orderLink.count({ where: { shop: VICTIM } })).toBe(1);
}

async function victimIntact() {
  expect(await server.db.shop.count({ where: { domain: VICTIM } })).toBe(1);
  expect(await server.db.orderLink.count({ where: { shop: VICTIM } })).toBe(1);
  expect(await server.db.session.count({ where: { shop: VICTIM } })).toBe(1);
}

describe("webhook replay across topics and shops", () => {
  it("refuses a signed customers/data_request body posted to /webhooks/shop/redact with another shop's header", async () => {
    await seedVictim();
    // GIVEN a data request the attacker's own shop really received (Shopify signed it)
    const captured = JSON.stringify({
      shop_id: 1,
      shop_domain: ATTACKER,
      orders_requested: [],
      customer: { id: 1 },
      data_request: { id: 9 },
    });

    // WHEN it is replayed, topic header kept, to the shop/redact address for the victim: THEN refused
    const kept = await post("/webhooks/shop/redact", "customers/data_request", VICTIM, captured);
    expect(kept.status).toBe(400);
    expect(await kept.text()).toMatch(/topic/);
    // AND with the topic header rewritten to match the address: the payload names another shop
    const rewritten = await post("/webhooks/shop/redact", "shop/redact", VICTIM, captured);
    expect(rewritten.status).toBe(400);
    expect(await rewritten.text()).toMatch(/shop_domain/);
    // AND through a path variant of the same route
    expect((await post("/webhooks/shop/redact/", "shop/redact", VICTIM, captured)).status).toBe(400);
    await victimIntact();
  });

  it("refuses compliance payloads for one shop sent with another shop's header, and without shop_id", async () => {
    const forOther = {
      shop_id: 2,
      shop_domain: ATTACKER,
      customer: { id: 7, phone: "+212612345678" },
      orders_to_redact: [4_300_000_000_001],
    };
    expect(
      (await post("/webhooks/customers/redact", "customers/redact", VICTIM, JSON.stringify(forOther))).status,
    ).toBe(400);
    const noId = { shop_domain: VICTIM, customer: { id: 7 }, orders_to_redact: [4_300_000_000_001] };
    expect((await post("/webhooks/customers/redact", "customers/redact", VICTIM, JSON.stringify(noId))).status).toBe(
      400,
    );
    // The same delivery addressed correctly is accepted (a domain differing only in case is the same shop).
    const right = { shop_id: 3, shop_domain: VICTIM.toUpperCase(), customer: { id: 7 }, orders_requested: [] };
    expect(
      (await post("/webhooks/customers/data_request", "customers/data_request", VICTIM, JSON.stringify(right))).status,
    ).toBe(200);
    await victimIntact();
  });

  it("refuses any topic at another topic's address (orders/updated body at orders/cancelled)", async () => {
    const order = JSON.stringify(webhookOrder({ id: 4_300_000_000_001 }));
    expect((await post("/webhooks/orders/cancelled", "orders/updated", VICTIM, order)).status).toBe(400);
    expect((await post("/webhooks/app/uninstalled", "orders/create", VICTIM, order)).status).toBe(400);
    expect((await server.db.shop.findUniqueOrThrow({ where: { domain: VICTIM } })).uninstalledAt).toBeNull();
  });

  it("acknowledges a redelivery (same webhook id) on every topic without processing it twice", async () => {
    const request = JSON.stringify({
      shop_id: 4,
      shop_domain: VICTIM,
      orders_requested: [4_300_000_000_001],
      customer: { id: 8 },
      data_request: { id: 10 },
    });
    const before = await server.db.dataRequest.count({ where: { shop: VICTIM } });
    for (let i = 0; i < 3; i++) {
      expect(
        (
          await post(
            "/webhooks/customers/data_request",
            "customers/data_request",
            VICTIM,
            request,
            "wh-replay-data-request",
          )
        ).status,
      ).toBe(200);
    }
    expect(await server.db.dataRequest.count({ where: { shop: VICTIM } })).toBe(before + 1);

    // app/uninstalled, redelivered after a reinstall cleared it, must not uninstall again.
    const uninstall = JSON.stringify({ id: 1, domain: VICTIM });
    expect(
      (await post("/webhooks/app/uninstalled", "app/uninstalled", VICTIM, uninstall, "wh-replay-uninstall")).status,
    ).toBe(200);
    await server.db.shop.update({ where: { domain: VICTIM }, data: { uninstalledAt: null } });
    expect(
      (await post("/webhooks/app/uninstalled", "app/uninstalled", VICTIM, uninstall, "wh-replay-uninstall")).status,
    ).toBe(200);
    expect((await server.db.shop.findUniqueOrThrow({ where: { domain: VICTIM } })).uninstalledAt).toBeNull();
    expect(
      await server.db.webhookDelivery.count({
        where: { id: { in: ["wh-replay-data-request", "wh-replay-uninstall"] } },
      }),
    ).toBe(2);
  });
});
