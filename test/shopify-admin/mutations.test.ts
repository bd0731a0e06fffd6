/**
 * Mutations change the shop's state and queries read the change back: tags, a
 * fulfilment with tracking, marked as paid, cancelled; Shopify's refusals as userErrors.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as documents from "../../app/shopify/documents";
import { shopifyAdminControl, startShopifyAdmin, type RunningShopifyAdmin } from "../../shopify-admin/index";
import { graphql } from "./helpers";

const SHOP = "mutations.myshopify.com";
let admin: RunningShopifyAdmin;
let control: ReturnType<typeof shopifyAdminControl>;

beforeAll(async () => {
  admin = await startShopifyAdmin({ quiet: true });
  control = shopifyAdminControl(admin.url);
  admin.shop(SHOP);
});
afterAll(() => admin?.close());

type WriteBackState = {
  order: {
    tags: string[];
    displayFinancialStatus: string;
    canMarkAsPaid: boolean;
    cancelledAt: string | null;
    fulfillmentOrders: {
      nodes: { id: string; status: string; lineItems: { nodes: { id: string; remainingQuantity: number }[] } }[];
    };
  } | null;
};
const readBack = async (id: string) =>
  (await graphql(admin.url, SHOP, documents.ORDER_WRITE_BACK_STATE, { id })).body.data as WriteBackState;
const run = async (document: string, variables: Record<string, unknown>) => {
  const answer = await graphql(admin.url, SHOP, document, variables);
  expect(answer.body.errors).toBeUndefined();
  return answer.body.data as Record<
    string,
    { userErrors?: unknown[]; orderCancelUserErrors?: unknown[] } & Record<string, unknown>
  >;
};

describe("write-back mutations change what queries read", () => {
  it("adds and removes tags, case-insensitively and without duplicates", async () => {
    const order = await control.addOrder(SHOP, { tags: ["VIP"] });
    expect(
      (await run(documents.TAGS_ADD, { id: order.id, tags: ["cod:lead:LD-1", "vip", "cod:confirmed, cod:shipped"] }))
        .tagsAdd.userErrors,
    ).toEqual([]);
    expect((await readBack(order.id)).order!.tags).toEqual(["VIP", "cod:lead:LD-1", "cod:confirmed", "cod:shipped"]);
    await run(documents.TAGS_REMOVE, { id: order.id, tags: ["COD:CONFIRMED"] });
    expect((await readBack(order.id)).order!.tags).toEqual(["VIP", "cod:lead:LD-1", "cod:shipped"]);
    expect((await control.order(SHOP, order.id)).tags).toEqual(["VIP", "cod:lead:LD-1", "cod:shipped"]);
  });

  it("creates a fulfilment with tracking, closing the fulfilment order, and refuses a second one", async () => {
    const order = await control.addOrder(SHOP, {
      lines: [
        { sku: "ARG-OIL-50", quantity: 2 },
        { sku: "AMLOU-250", quantity: 1 },
      ],
    });
    const before = (await readBack(order.id)).order!.fulfillmentOrders.nodes[0];
    expect(before.status).toBe("OPEN");
    const fulfillment = {
      lineItemsByFulfillmentOrder: [{ fulfillmentOrderId: before.id }],
      trackingInfo: { number: "CTM123MA", company: "Amana", url: "https://t.example/CTM123MA" },
    };
    const created = (await run(documents.FULFILLMENT_CREATE, { fulfillment })).fulfillmentCreate;
    expect(created).toMatchObject({
      userErrors: [],
      fulfillment: {
        status: "SUCCESS",
        trackingInfo: [{ number: "CTM123MA", company: "Amana", url: "https://t.example/CTM123MA" }],
      },
    });
    const after = (await readBack(order.id)).order!.fulfillmentOrders.nodes[0];
    expect(after.status).toBe("CLOSED");
    expect(after.lineItems.nodes.map((l) => l.remainingQuantity)).toEqual([0, 0]);
    const view = await control.order(SHOP, order.id);
    expect(view.displayFulfillmentStatus).toBe("FULFILLED");
    expect(view.fulfillments.map((f) => f.trackingInfo[0].number)).toEqual(["CTM123MA"]);

    const again = (await run(documents.FULFILLMENT_CREATE, { fulfillment })).fulfillmentCreate;
    expect(again.userErrors).toEqual([
      { field: ["fulfillment"], message: expect.stringContaining("unfulfillable status") },
    ]);
  });

  it("fulfils part of a fulfilment order, leaving it in progress", async () => {
    const order = await control.addOrder(SHOP, { lines: [{ sku: "ARG-OIL-50", quantity: 3 }] });
    const fo = (await readBack(order.id)).order!.fulfillmentOrders.nodes[0];
    const line = fo.lineItems.nodes[0];
    await run(documents.FULFILLMENT_CREATE, {
      fulfillment: {
        lineItemsByFulfillmentOrder: [
          { fulfillmentOrderId: fo.id, fulfillmentOrderLineItems: [{ id: line.id, quantity: 1 }] },
        ],
      },
    });
    const after = (await readBack(order.id)).order!.fulfillmentOrders.nodes[0];
    expect([after.status, after.lineItems.nodes[0].remainingQuantity]).toEqual(["IN_PROGRESS", 2]);
  });

  it("marks a pending order as paid once", async () => {
    const order = await control.addOrder(SHOP, {});
    const paid = (await run(documents.ORDER_MARK_AS_PAID, { input: { id: order.id } })).orderMarkAsPaid;
    expect(paid).toEqual({ order: { id: order.id, displayFinancialStatus: "PAID" }, userErrors: [] });
    expect((await readBack(order.id)).order).toMatchObject({ displayFinancialStatus: "PAID", canMarkAsPaid: false });
    const twice = (await run(documents.ORDER_MARK_AS_PAID, { input: { id: order.id } })).orderMarkAsPaid;
    expect(twice.userErrors).toEqual([{ field: ["input", "id"], message: "Order cannot be marked as paid." }]);
  });

  it("cancels an order with its reason, then refuses to cancel it again", async () => {
    const order = await control.addOrder(SHOP, {});
    const variables = {
      orderId: order.id,
      reason: "FRAUD",
      restock: true,
      refundMethod: { originalPaymentMethodsRefund: false },
      notifyCustomer: false,
      staffNote: "fake lead",
    };
    const cancelled = (await run(documents.ORDER_CANCEL, variables)).orderCancel;
    expect(cancelled).toMatchObject({
      job: { id: expect.stringMatching(/^gid:\/\/shopify\/Job\//), done: false },
      orderCancelUserErrors: [],
    });
    const state = (await readBack(order.id)).order!;
    expect(state.cancelledAt).toEqual(expect.any(String));
    expect(state.fulfillmentOrders.nodes[0].status).toBe("CLOSED");
    expect((await control.order(SHOP, order.id)).cancelledAt).toBe(state.cancelledAt);
    const again = (await run(documents.ORDER_CANCEL, variables)).orderCancel;
    expect(again.orderCancelUserErrors).toEqual([
      { field: ["orderId"], message: "Cannot cancel an order that has already been canceled.", code: "INVALID" },
    ]);
  });

  it("answers userErrors for an order the shop does not have", async () => {
    const data = await run(documents.TAGS_ADD, { id: "gid://shopify/Order/42", tags: ["x"] });
    expect(data.tagsAdd).toEqual({ node: null, userErrors: [{ field: ["id"], message: "Order does not exist" }] });
    expect((await readBack("gid://shopify/Order/42")).order).toBeNull();
  });

  it("keeps each shop's orders apart", async () => {
    const order = await control.addOrder(SHOP, {});
    const other = await graphql(admin.url, "elsewhere.myshopify.com", documents.ORDER_WRITE_BACK_STATE, {
      id: order.id,
    });
    expect(other.body.data).toEqual({ order: null });
  });
});
