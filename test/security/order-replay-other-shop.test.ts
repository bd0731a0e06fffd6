/**
 * A signed orders/create body replayed with another shop's X-Shopify-Shop-Domain (the
 * HMAC covers the body, not the header) is refused: Shopify's order ids are unique across
 * shops, so an order another shop holds can only be a replay. Without the check it was
 * stored for the second shop and posted with that shop's key: the other merchant's call
 * centre phoned the first shop's customer, who appeared in the second shop's admin.
 * Through the production server; the replay keeps its delivery ids or takes new ones.
 */
import { describe, expect, it } from "vitest";
import { signedWebhookHeaders } from "../helpers/webhooks";
import { webhookOrder } from "../helpers/orders";
import { useAppServer } from "./app-server";

const OWNER = "atlas-beauty.myshopify.com";
const OTHER = "rif-market.myshopify.com";
const server = useAppServer({ shops: [OWNER, OTHER] });

function post(topic: string, shop: string, body: string, ids: { webhookId?: string; eventId?: string } = {}) {
  const headers = signedWebhookHeaders({ topic, shop, body: null, secret: server().apiSecret, ...ids }, body);
  return fetch(`${server().url}/webhooks/${topic}`, { method: "POST", headers, body });
}

const stored = (shop: string, orderId: number) =>
  server().db.orderLink.count({ where: { shop, orderId: String(orderId) } });
const postJobs = (shop: string) => server().db.job.count({ where: { shop, kind: "post-lead" } });

describe("orders/create replayed with another shop's header", () => {
  it("GIVEN a shop's signed order WHEN its body is posted again for another shop THEN it is refused and stores nothing there", async () => {
    const order = webhookOrder({ id: 4_710_000_000_001 });
    const body = JSON.stringify(order);
    expect((await post("orders/create", OWNER, body, { webhookId: "wh-owner-1", eventId: "ev-owner-1" })).status).toBe(
      200,
    );
    expect(await stored(OWNER, order.id as number)).toBe(1);

    // The captured request, only the shop header changed; then with delivery ids of its own.
    const same = await post("orders/create", OTHER, body, { webhookId: "wh-owner-1", eventId: "ev-owner-1" });
    const fresh = await post("orders/create", OTHER, body, { webhookId: "wh-forged-2", eventId: "ev-forged-2" });

    expect([same.status, fresh.status]).toEqual([400, 400]);
    expect(await fresh.text()).toBe("the order belongs to another shop");
    expect(await stored(OTHER, order.id as number)).toBe(0);
    expect(await postJobs(OTHER)).toBe(0);
    // The owner's order is untouched, and its redelivery still acknowledged.
    expect(await stored(OWNER, order.id as number)).toBe(1);
    expect((await post("orders/create", OWNER, body, { webhookId: "wh-owner-1" })).status).toBe(200);
    // Its updates and cancellation sent for the other shop find nothing of it there.
    for (const topic of ["orders/updated", "orders/cancelled"])
      expect((await post(topic, OTHER, JSON.stringify({ ...order, note: "x" }))).status).toBe(200);
    expect(await stored(OTHER, order.id as number)).toBe(0);
    expect(server().stdout()).toContain("orders/create for an order another shop holds");
    expect(server().stdout()).not.toContain("0612345678");
  });

  it("GIVEN two shops' orders arriving together WHEN each is its own THEN both are stored", async () => {
    const [a, b] = [webhookOrder({ id: 4_710_000_000_011 }), webhookOrder({ id: 4_710_000_000_012 })];
    const answers = await Promise.all([
      post("orders/create", OWNER, JSON.stringify(a)),
      post("orders/create", OTHER, JSON.stringify(b)),
    ]);
    expect(answers.map((r) => r.status)).toEqual([200, 200]);
    expect([await stored(OWNER, a.id as number), await stored(OTHER, b.id as number)]).toEqual([1, 1]);
  });
});
