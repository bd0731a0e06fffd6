/**
 * A reinstalled shop works again (issue: "a reinstalled shop stays uninstalled
 * forever"). Through the real parts: the signed app/uninstalled webhook into its
 * route, then the merchant opening the app with a session token and no stored
 * session, so authenticate.admin performs the token exchange against a loopback
 * server answering https://{shop}/admin/oauth/access_token, and shopifyApp's
 * afterAuth hook runs. Orders go to the real sandbox, jobs run in the worker.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ActionFunctionArgs } from "@remix-run/node";
import { startSandbox } from "../../sandbox/index";
import { useTestDatabaseForApp } from "../helpers/app";
import { adminRequest, storeOfflineSession } from "../helpers/admin";
import type { TestDatabase } from "../helpers/db";
import { startLoopbackServer, type LoopbackServer } from "../helpers/loopback-server";
import { webhookOrder } from "../helpers/orders";
import { connectTestShop, SHOP, testPipeline, type TestPipeline } from "../helpers/pipeline";
import { signedWebhookRequest } from "../helpers/webhooks";

type Action = (args: ActionFunctionArgs) => Promise<Response>;

let db: TestDatabase;
let sandbox: Awaited<ReturnType<typeof startSandbox>>;
let tokenServer: LoopbackServer;
let pipeline: TestPipeline;
let routes: { create: Action; uninstalled: Action };
const shopifyCalls: string[] = [];
let nextId = 7_770_000_000_000;

beforeAll(async () => {
  db = await useTestDatabaseForApp();
  sandbox = await startSandbox({ port: 0, quiet: true, rateLimitPerMinute: 6000 });
  // Shopify's token endpoint, as token exchange calls it for an expiring offline token.
  tokenServer = await startLoopbackServer((_req, _body, res) => {
    res.setHeader("content-type", "application/json");
    res.end(
      JSON.stringify({
        access_token: "shpat_reinstalled_token",
        scope: process.env.SCOPES,
        expires_in: 3600,
        refresh_token: "shprt_reinstalled_refresh",
        refresh_token_expires_in: 7_776_000,
      }),
    );
  });
  const { setAbstractFetchFunc } = await import("@shopify/shopify-api/runtime");
  const { sessionStorage } = await import("../../app/shopify.server");
  // Every https://{shop}.myshopify.com call goes to the loopback server (DESIGN.md section 4).
  setAbstractFetchFunc((async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = new URL(input instanceof Request ? input.url : String(input));
    shopifyCalls.push(`${init?.method ?? "GET"} ${url.host}${url.pathname}`);
    if (!url.hostname.endsWith(".myshopify.com")) throw new Error(`unexpected call to ${url.host}`);
    return fetch(`${tokenServer.url}${url.pathname}${url.search}`, init);
  }) as typeof fetch);
  await storeOfflineSession(sessionStorage, SHOP);
  await connectTestShop(db.prisma, {
    shop: SHOP,
    apiKey: sandbox.keys.find((k) => k.account === "ACC-1001")!.key,
    baseUrl: sandbox.url,
  });
  routes = {
    create: (await import("../../app/routes/webhooks.orders.create")).action,
    uninstalled: (await import("../../app/routes/webhooks.app.uninstalled")).action,
  };
  pipeline = testPipeline(db.prisma);
});
afterAll(async () => {
  await sandbox?.close();
  await tokenServer?.close();
  await db?.cleanup();
});

const deliver = async (route: Action, topic: string, body: Record<string, unknown>) =>
  (
    await route({
      request: signedWebhookRequest({ topic, shop: SHOP, body, url: `https://cod-lead-sync.test/webhooks/${topic}` }),
      params: {},
      context: {},
    })
  ).status;
const placeOrder = async () => {
  const body = webhookOrder({ id: nextId++ });
  expect(await deliver(routes.create, "orders/create", body)).toBe(200);
  return String(body.id);
};
const link = (orderId: string) =>
  db.prisma.orderLink.findUniqueOrThrow({ where: { shop_orderId: { shop: SHOP, orderId } } });
const shopRow = () => db.prisma.shop.findUniqueOrThrow({ where: { domain: SHOP } });
const syncJob = () => db.prisma.job.findUnique({ where: { key: `sync-statuses:${SHOP}` } });

describe("uninstall, then reinstall", () => {
  it("clears the uninstalled mark through the real auth path and resumes the shop's orders and sync", async () => {
    // GIVEN a connected shop that sent one order, so its status sync is scheduled
    const first = await placeOrder();
    await pipeline.drain();
    expect((await link(first)).leadRef).toBeTruthy();
    expect((await syncJob())?.state).toBe("pending");

    // WHEN the app is uninstalled (signed webhook into its route)
    expect(await deliver(routes.uninstalled, "app/uninstalled", { id: 1, domain: SHOP })).toBe(200);
    expect((await shopRow()).uninstalledAt).toBeInstanceOf(Date);
    expect(await db.prisma.session.count({ where: { shop: SHOP } })).toBe(0);
    // AND an order arrives meanwhile, and the sync comes due
    const second = await placeOrder();
    await db.prisma.job.update({ where: { key: `sync-statuses:${SHOP}` }, data: { runAt: new Date(0) } });
    await pipeline.drain();
    // THEN the order is held "not installed" and the sync stops rescheduling itself
    expect(await link(second)).toMatchObject({
      state: "held",
      reason: "The app is not installed on this shop any more",
      leadRef: null,
    });
    expect((await syncJob())?.state).toBe("done");

    // WHEN the merchant installs the app again and opens it: a session token, no stored session
    const { loader } = await import("../../app/routes/app._index");
    const result = await loader({ request: await adminRequest(SHOP, "/app"), params: {}, context: {} });
    expect(result).toMatchObject({ shop: SHOP });

    // THEN the token was exchanged once with Shopify, a new offline session is stored...
    expect(shopifyCalls).toEqual([`POST ${SHOP}/admin/oauth/access_token`]);
    const session = await db.prisma.session.findFirstOrThrow({ where: { shop: SHOP, isOnline: false } });
    // Stored sealed; the app reads the token the exchange gave.
    expect(session.accessToken).not.toContain("shpat_");
    const { sessionStorage } = await import("../../app/shopify.server");
    expect((await sessionStorage.loadSession(session.id))?.accessToken).toBe("shpat_reinstalled_token");
    // ...the shop is installed again, the held order is queued again and the sync is scheduled again
    expect((await shopRow()).uninstalledAt).toBeNull();
    expect(await link(second)).toMatchObject({ state: "received", reason: null });
    expect((await syncJob())?.state).toBe("pending");

    // AND the worker sends the held order to the platform
    await pipeline.drain();
    const sent = await link(second);
    expect(sent.state).not.toBe("held");
    expect(sent.leadRef).toBeTruthy();
    const lead = await fetch(`${sandbox.url}/v1/leads/${sent.leadRef}`, {
      headers: { Authorization: `Bearer ${sandbox.keys.find((k) => k.account === "ACC-1001")!.key}` },
    });
    expect(lead.status).toBe(200);
    // AND an order placed after the reinstall is sent as usual
    const third = await placeOrder();
    await pipeline.drain();
    expect((await link(third)).leadRef).toBeTruthy();
  });

  it("does nothing more on a later visit: the stored session is used, no second exchange", async () => {
    const { loader } = await import("../../app/routes/app._index");
    await loader({ request: await adminRequest(SHOP, "/app", { as: "fetch" }), params: {}, context: {} });
    expect(shopifyCalls).toHaveLength(1);
    expect((await shopRow()).uninstalledAt).toBeNull();
  });
});
