/**
 * A signed order with a huge `line_items` array: the 500-line cap was checked
 * after every line had been adapted, so 1.5 M empty items (4.5 MB) froze the
 * server for 19 s and 400,000 for 2-3.7 s, while /healthz and every other
 * webhook waited. Through the production server with its worker inside (the
 * embedded default, where the mapping shares the event loop with intake):
 * 400,000 empty items are refused before JSON.parse (more values than any real
 * order); 50,000 or 100,000 (100,000 values is about what the heaviest real
 * order holds) are stored and held without reading one of them.
 *
 * What each order costs the event loop (its main thread's CPU time) and how
 * long /healthz and the answers wait are speeds: `npm run bench -- huge-orders`
 * measures them on the same orders. Here: what the server answers, and that
 * /healthz keeps answering.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MAX_LINE_ITEMS } from "../../app/leads/field-limits";
import { ensurePreviewBuild, removePreviewBuild } from "../helpers/preview-server";
import { signedWebhookHeaders } from "../helpers/webhooks";
import { webhookOrder } from "../helpers/orders";
import { emptyItemsOrder, waitForLink as linkInState, watchHealth } from "../../scripts/dev/bench/lib/huge-orders";
import { startAppServer, type AppServer } from "./app-server";

const SHOP = "atlas-beauty.myshopify.com";

let buildDir: string;
let server: AppServer;

beforeAll(async () => {
  buildDir = await ensurePreviewBuild();
  server = await startAppServer(buildDir, { shops: [SHOP], env: { WORKER_IN_PROCESS: "true" } });
  // No Flow trigger: its job would call Shopify, which is not there, while the watch runs.
  const flowTriggers = { leadCreated: false, leadStatusChanged: false, orderNeedsAttention: false };
  await server.db.shop.create({ data: { domain: SHOP, settings: JSON.stringify({ flowTriggers }) } });
}, 300_000);
afterAll(async () => {
  await server?.close();
  if (buildDir) removePreviewBuild(buildDir);
});

async function post(raw: string): Promise<{ status: number; body: string }> {
  const headers = signedWebhookHeaders(
    { topic: "orders/create", shop: SHOP, body: null, secret: server.apiSecret },
    raw,
  );
  const response = await fetch(`${server.url}/webhooks/orders/create`, { method: "POST", headers, body: raw });
  return { status: response.status, body: await response.text() };
}

const waitForLink = (orderId: number, state: string) => linkInState(server.db, SHOP, orderId, state);

describe("an order of hundreds of thousands of empty line items", () => {
  const refused = emptyItemsOrder(9_200_000_000_001, 400_000);

  it("is refused before parsing at 400,000 items, and held without reading a line at 501 and at 50,000", async () => {
    expect(refused.length).toBeGreaterThan(1_200_000);
    const refusedAnswer = await post(refused);
    // More values than any order Shopify sends: refused, with the reason, and nothing stored.
    expect(refusedAnswer.status).toBe(400);
    expect(refusedAnswer.body).toMatch(/more than [\d,]+ values/);
    expect(await server.db.orderLink.count({ where: { orderId: "9200000000001" } })).toBe(0);

    for (const [id, count] of [
      [9_200_000_000_020, MAX_LINE_ITEMS + 1],
      [9_200_000_000_002, 50_000],
    ]) {
      expect((await post(emptyItemsOrder(id, count))).status).toBe(200);
      const link = await waitForLink(id, "held");
      expect(JSON.parse(link.findings)).toEqual([
        expect.objectContaining({ code: "too_many_items", params: { lineCount: count, max: MAX_LINE_ITEMS } }),
      ]);
    }
  }, 300_000);

  it("leaves /healthz answering throughout, and every order its answer", async () => {
    const health = watchHealth(server.url);
    const normalAnswer = await post(JSON.stringify(webhookOrder({ id: 9_200_000_000_003 })));
    const refusedAnswer = await post(refused);
    const heldAnswer = await post(emptyItemsOrder(9_200_000_000_004, 100_000));
    await waitForLink(9_200_000_000_004, "held");
    const { statuses } = await health.stop();
    expect([normalAnswer.status, refusedAnswer.status, heldAnswer.status]).toEqual([200, 400, 200]);
    expect(statuses.length).toBeGreaterThan(0);
    expect(new Set(statuses)).toEqual(new Set([200]));
  }, 300_000);
});
