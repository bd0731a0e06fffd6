/**
 * shop/redact cannot be turned against an installed shop: a signed delivery for a
 * shop that is installed right now (raised before a reinstall, or replayed) erases
 * nothing (its row, offline session, sealed key, pairing and orders stay) and the log
 * says so. Once the shop is uninstalled, shop/redact erases it as before. Through
 * the routes' own actions, signed as Shopify signs them, on a real database.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ActionFunctionArgs } from "@remix-run/node";
import { storeOfflineSession } from "../helpers/admin";
import { useTestDatabaseForApp } from "../helpers/app";
import type { TestDatabase } from "../helpers/db";
import { connectTestShop } from "../helpers/pipeline";
import { useCapturedLog } from "../helpers/log-capture";
import { signedWebhookRequest } from "../helpers/webhooks";

type Action = (args: ActionFunctionArgs) => Promise<Response>;

const SHOP = "atlas-beauty.myshopify.com";
const PEER = "rif-market.myshopify.com";
let db: TestDatabase;
let routes: { redact: Action; uninstalled: Action };
let sessionStorage: typeof import("../../app/shopify.server").sessionStorage;
const logged = useCapturedLog();

beforeAll(async () => {
  db = await useTestDatabaseForApp();
  routes = {
    redact: (await import("../../app/routes/webhooks.shop.redact")).action,
    uninstalled: (await import("../../app/routes/webhooks.app.uninstalled")).action,
  };
  ({ sessionStorage } = await import("../../app/shopify.server"));
});
afterAll(() => db?.cleanup());

const deliver = async (route: Action, topic: string, body: Record<string, unknown>) =>
  (await route({ request: signedWebhookRequest({ topic, shop: SHOP, body }), params: {}, context: {} })).status;

/** What a working shop holds: its row with the sealed key, its offline session, a pairing and an order. */
async function holdings() {
  return {
    shop: await db.prisma.shop.findUnique({
      where: { domain: SHOP },
      select: { uninstalledAt: true, sellerApiKeyCipher: true },
    }),
    sessions: await db.prisma.session.count({ where: { shop: SHOP } }),
    pairings: await db.prisma.storePairing.count({ where: { shopA: SHOP } }),
    orders: await db.prisma.orderLink.count({ where: { shop: SHOP } }),
  };
}

describe("shop/redact", () => {
  it("GIVEN a shop installed now WHEN a signed shop/redact arrives THEN nothing is erased and the log says so", async () => {
    await connectTestShop(db.prisma, {
      shop: SHOP,
      apiKey: "cod_installed_shop_key_0123456789",
      baseUrl: "https://x.test",
    });
    await storeOfflineSession(sessionStorage, SHOP);
    await db.prisma.storePairing.create({ data: { shopA: SHOP, shopB: PEER, codeFrom: PEER } });
    await db.prisma.orderLink.create({
      data: { shop: SHOP, orderId: "9001", orderName: "#9001", payload: "{}", externalRef: "shopify:9001" },
    });
    const before = await holdings();
    expect(before).toMatchObject({ shop: { uninstalledAt: null }, sessions: 1, pairings: 1, orders: 1 });
    expect(before.shop?.sellerApiKeyCipher).toBeTruthy();

    expect(await deliver(routes.redact, "shop/redact", { shop_id: 1, shop_domain: SHOP })).toBe(200);

    expect(await holdings()).toEqual(before);
    const line = logged()
      .map((l) => JSON.parse(l) as { level: string; msg: string; shop?: string })
      .find((l) => l.msg.includes("shop/redact"));
    expect(line).toMatchObject({
      level: "warn",
      msg: "shop/redact for a shop that is installed now: nothing erased",
      shop: SHOP,
    });
  });

  it("GIVEN the shop uninstalled WHEN shop/redact arrives THEN everything it held is erased", async () => {
    expect(await deliver(routes.uninstalled, "app/uninstalled", { id: 1, domain: SHOP })).toBe(200);
    expect(await deliver(routes.redact, "shop/redact", { shop_id: 1, shop_domain: SHOP })).toBe(200);
    expect(await holdings()).toEqual({ shop: null, sessions: 0, pairings: 0, orders: 0 });
  });
});
