/**
 * The demo's orders mirrored into the stand-in from their webhook payloads (created,
 * then cancelled; unknown variants join the catalogue), and the read-only order page
 * that shows what the write-back left on an order: tags, fulfilment with tracking, paid.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as documents from "../../app/shopify/documents";
import { readOrderFiles } from "../../scripts/dev/lib/order-files";
import { BUILT_IN_ORDERS_DIR } from "../../scripts/dev/demo/run-demo";
import {
  applyWebhookOrder,
  orderPageUrl,
  startShopifyAdmin,
  type RunningShopifyAdmin,
  type WebhookOrderPayload,
} from "../../shopify-admin/index";
import { graphql } from "./helpers";

const SHOP = "atlas-beauty.myshopify.com";
let admin: RunningShopifyAdmin;
const deliveries = readOrderFiles(BUILT_IN_ORDERS_DIR);
const payloadOf = (name: string, topic = "orders/create") =>
  deliveries.find((d) => d.topic === topic && d.payload.name === name)!.payload as unknown as WebhookOrderPayload;

beforeAll(async () => {
  admin = await startShopifyAdmin({ quiet: true });
  admin.shop(SHOP, { products: [] });
});
afterAll(() => admin?.close());

const page = async (shop: string, id: number | string) => {
  const response = await fetch(orderPageUrl(admin.url, shop, id));
  return { status: response.status, type: response.headers.get("content-type"), html: await response.text() };
};

describe("orders from webhook payloads", () => {
  it("serves the payload's order through the Admin API, with an open fulfilment order holding its lines", async () => {
    const payload = payloadOf("#1006");
    applyWebhookOrder(admin.shop(SHOP), "orders/create", payload);
    const answer = await graphql(admin.url, SHOP, documents.ORDER_WRITE_BACK_STATE, {
      id: `gid://shopify/Order/${payload.id}`,
    });
    const order = (
      answer.body.data as {
        order: {
          displayFinancialStatus: string;
          canMarkAsPaid: boolean;
          fulfillmentOrders: { nodes: { status: string; lineItems: { nodes: { remainingQuantity: number }[] } }[] };
        };
      }
    ).order;
    expect(order.displayFinancialStatus).toBe("PENDING");
    expect(order.canMarkAsPaid).toBe(true);
    expect(order.fulfillmentOrders.nodes).toHaveLength(1);
    expect(order.fulfillmentOrders.nodes[0].status).toBe("OPEN");
    expect(order.fulfillmentOrders.nodes[0].lineItems.nodes.map((l) => l.remainingQuantity)).toEqual(
      (payload.line_items ?? []).map((l) => l.quantity),
    );
  });

  it("adds an unknown SKU's variant to the catalogue, so it can be mapped", async () => {
    const payload = payloadOf("#1019");
    const sku = payload.line_items![0].sku!;
    applyWebhookOrder(admin.shop(SHOP), "orders/create", payload);
    applyWebhookOrder(admin.shop(SHOP), "orders/create", payload);
    const answer = await graphql(admin.url, SHOP, documents.PRODUCT_VARIANTS_PAGE, { first: 10, query: `sku:${sku}` });
    const nodes = (answer.body.data as { productVariants: { nodes: { id: string; sku: string }[] } }).productVariants
      .nodes;
    expect(nodes.map((n) => n.sku)).toEqual([sku]);
    expect(nodes[0].id).toBe(`gid://shopify/ProductVariant/${payload.line_items![0].variant_id}`);
  });

  it("cancels the order on orders/cancelled, closing what was left to fulfil", () => {
    const created = payloadOf("#1035");
    applyWebhookOrder(admin.shop(SHOP), "orders/create", created);
    const cancelled = applyWebhookOrder(admin.shop(SHOP), "orders/cancelled", payloadOf("#1035", "orders/cancelled"))!;
    expect(cancelled.cancelledAt).toBeTypeOf("string");
    expect(cancelled.displayFinancialStatus).toBe("VOIDED");
    expect(cancelled.fulfillmentOrders.every((fo) => fo.status === "CLOSED")).toBe(true);
    // An order cancelled before the app saw it arrives cancelled.
    const early = applyWebhookOrder(admin.shop(SHOP), "orders/create", payloadOf("#1031"))!;
    expect(early.cancelledAt).toBeTypeOf("string");
  });
});

describe("the order page", () => {
  it("shows the tags, the fulfilment with its tracking number and the paid status the mutations left", async () => {
    const payload = payloadOf("#1002");
    applyWebhookOrder(admin.shop(SHOP), "orders/create", payload);
    const id = `gid://shopify/Order/${payload.id}`;
    const before = await page(SHOP, payload.id);
    expect(before.status).toBe(200);
    expect(before.type).toContain("text/html");
    expect(before.html).toContain("<title>Order #1002 · atlas-beauty.myshopify.com</title>");
    expect(before.html).toContain('data-financial-status="PENDING"');
    expect(before.html).toContain("Not fulfilled");

    await graphql(admin.url, SHOP, documents.TAGS_ADD, { id, tags: ["cod:lead:ATB-100002", "cod:shipped"] });
    const fo = admin.shop(SHOP).orders[id].fulfillmentOrders[0];
    await graphql(admin.url, SHOP, documents.FULFILLMENT_CREATE, {
      fulfillment: {
        lineItemsByFulfillmentOrder: [{ fulfillmentOrderId: fo.id }],
        trackingInfo: { number: "AMN-4455", company: "Amana" },
        notifyCustomer: false,
      },
    });
    await graphql(admin.url, SHOP, documents.ORDER_MARK_AS_PAID, { input: { id } });

    const after = (await page(SHOP, payload.id)).html;
    expect(after).toContain('<span class="tag">cod:lead:ATB-100002</span>');
    expect(after).toContain("<td data-tracking>AMN-4455</td>");
    expect(after).toContain('data-financial-status="PAID"');
    expect(after).toContain('data-fulfillment-status="FULFILLED"');
  });

  it("escapes what it shows, and answers 404 for an order or shop it does not hold", async () => {
    const order = admin.addOrder({ id: 990001, name: "#<b>x</b>", tags: ["<script>"] }, SHOP);
    const html = (await page(SHOP, 990001)).html;
    expect(html).toContain("&#60;script&#62;");
    expect(html).not.toContain("<script>");
    expect(order.name).toBe("#<b>x</b>");
    expect((await page(SHOP, 424242)).status).toBe(404);
    expect((await page("not-loaded.myshopify.com", 990001)).status).toBe(404);
  });
});
