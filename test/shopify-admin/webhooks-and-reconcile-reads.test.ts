/**
 * The stand-in as Shopify for the reconciliation: it sends the webhooks of orders placed,
 * edited and cancelled through its control API (signed, with X-Shopify-Event-Id and
 * X-Shopify-Triggered-At), loses, holds, delays or doubles them on request, and resends
 * what the app did not acknowledge; it serves the reconciliation's documents (orders by
 * update time, nodes by id, counts) and can lose a mutation silently.
 */
import { createHmac } from "node:crypto";
import { createServer, type IncomingHttpHeaders, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import * as documents from "../../app/shopify/documents";
import { shopifyAdminControl, startShopifyAdmin, type RunningShopifyAdmin } from "../../shopify-admin/index";
import { webhookOrder } from "../helpers/orders";
import { graphql } from "./helpers";

const SHOP = "hooks.myshopify.com";
const SECRET = "stand-in-secret";
let admin: RunningShopifyAdmin;
let control: ReturnType<typeof shopifyAdminControl>;
let app: Server;
let appUrl: string;
let answerWith = 200;
const received: { path: string; headers: IncomingHttpHeaders; body: string }[] = [];

beforeAll(async () => {
  admin = await startShopifyAdmin({ quiet: true, app: { apiKey: "key", apiSecret: SECRET, scopes: ["read_orders"] } });
  control = shopifyAdminControl(admin.url);
  // The app's side: records what arrives, answers as told.
  app = createServer((req, res) => {
    let body = "";
    req.on("data", (chunk) => (body += chunk));
    req.on("end", () => {
      received.push({ path: req.url ?? "", headers: req.headers, body });
      res.writeHead(answerWith).end();
    });
  });
  await new Promise<void>((resolve) => app.listen(0, "127.0.0.1", resolve));
  appUrl = `http://127.0.0.1:${(app.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await admin?.close();
  await new Promise((resolve) => app?.close(resolve));
});
beforeEach(async () => {
  await control.reset();
  await control.loadShop(SHOP);
  await control.setWebhookTarget(appUrl);
  received.length = 0;
  answerWith = 200;
});

let nextId = 9_100_000_000_000;
const order = () => webhookOrder({ id: nextId++ });

describe("webhooks the stand-in sends", () => {
  it("places an order and sends its orders/create as Shopify does: signed, with event id and trigger time", async () => {
    const payload = order();
    const { order: placed, deliveries } = await control.placeOrder(SHOP, payload);
    expect(placed.id).toBe(`gid://shopify/Order/${payload.id}`);
    expect(deliveries).toEqual([
      expect.objectContaining({ topic: "orders/create", orderId: String(payload.id), status: 200, state: "delivered" }),
    ]);
    expect(received).toHaveLength(1);
    const [{ path, headers, body }] = received;
    expect(path).toBe("/webhooks/orders/create");
    expect(headers["x-shopify-hmac-sha256"]).toBe(createHmac("sha256", SECRET).update(body).digest("base64"));
    expect(headers).toMatchObject({
      "x-shopify-topic": "orders/create",
      "x-shopify-shop-domain": SHOP,
      "x-shopify-api-version": "2026-07",
      "x-shopify-event-id": deliveries[0].eventId,
      "x-shopify-webhook-id": deliveries[0].webhookId,
      "x-shopify-triggered-at": deliveries[0].triggeredAt,
    });
    expect(JSON.parse(body)).toMatchObject({ id: payload.id, name: payload.name });
    // The Admin API serves the order the payload describes (its phone and address).
    const state = await graphql(admin.url, SHOP, documents.RECONCILE_ORDER_DETAILS, { ids: [placed.id] });
    expect(
      (state.body.data!.nodes as { shippingAddress: { phone: string; city: string } }[])[0].shippingAddress,
    ).toMatchObject({ phone: "0612345678", city: "Casablanca" });
  });

  it("places an order without its webhook, and loses, doubles or holds the next ones on request", async () => {
    await control.placeOrder(SHOP, order(), { deliver: false });
    expect(received).toHaveLength(0);

    await control.addDeliveryFault({ kind: "drop", topic: "orders/create" });
    const dropped = await control.placeOrder(SHOP, order());
    expect(dropped.deliveries).toEqual([expect.objectContaining({ state: "dropped", fault: "drop", status: null })]);
    expect(received).toHaveLength(0);

    await control.addDeliveryFault({ kind: "duplicate", shop: SHOP });
    const doubled = await control.placeOrder(SHOP, order());
    expect(received).toHaveLength(2);
    expect(received[0].headers["x-shopify-event-id"]).toBe(received[1].headers["x-shopify-event-id"]);
    expect(received[0].headers["x-shopify-webhook-id"]).not.toBe(received[1].headers["x-shopify-webhook-id"]);
    expect(doubled.deliveries.map((d) => d.fault)).toEqual(["duplicate", "duplicate"]);

    // Held, then sent four hours later by the stand-in's clock: its Triggered-At is the event's.
    await control.addDeliveryFault({ kind: "hold", topic: "orders/cancelled" });
    const payload = order();
    await control.placeOrder(SHOP, payload, { deliver: false });
    const cancelled = await control.cancelOrder(SHOP, String(payload.id));
    expect(cancelled.order.cancelledAt).not.toBeNull();
    expect(cancelled.deliveries[0]).toMatchObject({ state: "held", topic: "orders/cancelled" });
    await control.advanceClock(4 * 3600);
    const [late] = await control.releaseDeliveries(SHOP);
    expect(late).toMatchObject({ state: "delivered", triggeredAt: cancelled.deliveries[0].triggeredAt });
    expect(Date.parse(late.sentAt!) - Date.parse(late.triggeredAt)).toBeGreaterThanOrEqual(4 * 3600_000);
    const body = JSON.parse(received[received.length - 1].body) as { cancelled_at: string; updated_at: string };
    expect(body.cancelled_at).toBe(cancelled.order.cancelledAt);
  });

  it("keeps what the app did not acknowledge and resends it, same event, on request", async () => {
    answerWith = 503;
    const payload = order();
    const { deliveries } = await control.placeOrder(SHOP, payload);
    expect(deliveries[0]).toMatchObject({ state: "failed", status: 503 });
    answerWith = 200;
    const [again] = await control.redeliver(SHOP);
    expect(again).toMatchObject({
      state: "delivered",
      status: 200,
      eventId: deliveries[0].eventId,
      triggeredAt: deliveries[0].triggeredAt,
    });
    expect(await control.redeliver(SHOP)).toEqual([]);
    expect((await control.deliveries({ orderId: String(payload.id) })).map((d) => d.state)).toEqual([
      "failed",
      "delivered",
    ]);
  });

  it("edits an order (orders/updated) and the Admin API serves the edit", async () => {
    const payload = order();
    await control.placeOrder(SHOP, payload, { deliver: false });
    const address = { ...(payload.shipping_address as object), phone: "0700000009" };
    const edited = await control.editOrder(SHOP, String(payload.id), { shipping_address: address });
    expect(edited.deliveries[0]).toMatchObject({ topic: "orders/updated", state: "delivered" });
    expect(JSON.parse(received[0].body)).toMatchObject({ id: payload.id, shipping_address: { phone: "0700000009" } });
    const state = await graphql(admin.url, SHOP, documents.RECONCILE_ORDER_DETAILS, {
      ids: [`gid://shopify/Order/${payload.id}`],
    });
    expect((state.body.data!.nodes as { shippingAddress: { phone: string } }[])[0].shippingAddress.phone).toBe(
      "0700000009",
    );
  });

  it("refuses a target off loopback and an order id it already has", async () => {
    await expect(control.setWebhookTarget("http://203.0.113.9/")).rejects.toMatchObject({ status: 422 });
    const payload = order();
    await control.placeOrder(SHOP, payload, { deliver: false });
    await expect(control.placeOrder(SHOP, payload, { deliver: false })).rejects.toMatchObject({ status: 409 });
  });
});

describe("the reconciliation's reads", () => {
  it("lists orders by update time with Shopify's search, and counts them", async () => {
    const at = (minutes: number) => new Date(Date.UTC(2026, 10, 20, 10, minutes)).toISOString();
    for (const [i, [created, updated]] of [
      [0, 30],
      [10, 10],
      [20, 20],
    ].entries()) {
      await control.placeOrder(
        SHOP,
        { ...webhookOrder({ id: 9_200_000_000_000 + i }), created_at: at(created), updated_at: at(updated) },
        { deliver: false },
      );
    }
    const answer = await graphql(admin.url, SHOP, documents.RECONCILE_ORDERS, {
      first: 2,
      query: `updated_at:>="${at(10)}"`,
      dayQuery: `created_at:>="${at(0)}" created_at:<"${at(15)}"`,
      weekQuery: `created_at:>="${at(0)}"`,
    });
    const data = answer.body.data as {
      orders: { nodes: { id: string; updatedAt: string }[]; pageInfo: { hasNextPage: boolean } };
      day: unknown;
      week: unknown;
    };
    expect(data.orders.nodes.map((n) => n.updatedAt)).toEqual([at(10), at(20)]);
    expect(data.orders.pageInfo.hasNextPage).toBe(true);
    expect(data.day).toEqual({ count: 2, precision: "EXACT" });
    expect(data.week).toEqual({ count: 3, precision: "EXACT" });
    // Requested cost: one object per node; nodes(ids:) asks one per id.
    const states = await graphql(admin.url, SHOP, documents.RECONCILE_ORDER_STATES, {
      ids: ["gid://shopify/Order/9200000000000", "gid://shopify/Order/1"],
    });
    expect((states.body.data!.nodes as unknown[])[1]).toBeNull();
    expect(states.body.extensions!.cost.requestedQueryCost).toBe(2);
  });

  it("loses a mutation silently: it answers success and the order does not change", async () => {
    const payload = order();
    const { order: placed } = await control.placeOrder(SHOP, payload, { deliver: false });
    await control.addFault({ kind: "silent", operation: "TagsAdd" });
    const answer = await graphql(admin.url, SHOP, documents.TAGS_ADD, { id: placed.id, tags: ["cod:new"] });
    expect(answer.body.data).toMatchObject({ tagsAdd: { node: { id: placed.id }, userErrors: [] } });
    expect((await control.order(SHOP, placed.id)).tags).toEqual([]);
    expect((await control.calls({ operation: "TagsAdd" }))[0]).toMatchObject({ fault: "silent", status: 200 });
    await graphql(admin.url, SHOP, documents.TAGS_ADD, { id: placed.id, tags: ["cod:new"] });
    expect((await control.order(SHOP, placed.id)).tags).toEqual(["cod:new"]);
  });
});
