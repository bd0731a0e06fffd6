/**
 * The write-back end to end through the real client stack: stored offline session ->
 * unauthenticated.admin(shop) -> @shopify/shopify-api -> fetch rewrite -> local fake
 * Admin endpoint executing the documents against the 2026-07 schema.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { useTestDatabaseForApp } from "../helpers/app";
import { storeOfflineSession } from "../helpers/admin";
import type { TestDatabase } from "../helpers/db";
import {
  startShopifyAdmin as startFakeAdminApi,
  variantRecord as fakeVariant,
  type RunningShopifyAdmin as FakeAdminApi,
} from "../../shopify-admin/index";
import type { AdminGraphqlClient } from "../../app/shopify/admin-graphql.server";

const SHOP = "atlas-beauty.myshopify.com";

let db: TestDatabase;
let api: FakeAdminApi;
let admin: AdminGraphqlClient;
// App modules read DATABASE_URL when first imported: loaded after the test database.
let wb: typeof import("../../app/shopify/write-back.server");
let gql: typeof import("../../app/shopify/admin-graphql.server");
let docs: typeof import("../../app/shopify/documents");
let errors: typeof import("../../app/shopify/errors");

beforeAll(async () => {
  db = await useTestDatabaseForApp();
  api = await startFakeAdminApi();
  await api.installFetchRewrite();
  const app = await import("../../app/shopify.server");
  await storeOfflineSession(app.sessionStorage, SHOP);
  ({ admin } = await app.unauthenticated.admin(SHOP));
  wb = await import("../../app/shopify/write-back.server");
  gql = await import("../../app/shopify/admin-graphql.server");
  docs = await import("../../app/shopify/documents");
  errors = await import("../../app/shopify/errors");
});

afterAll(async () => {
  await api?.close();
  await db?.cleanup();
});

beforeEach(() => {
  api.state.throttleNext = 0;
  api.state.http429Next = 0;
  api.state.userErrorsNext = {};
});

const mutationsSince = (from: number) =>
  api.requests
    .slice(from)
    .map((r) => r.operationName)
    .filter((name) => name !== "OrderWriteBackState" && name !== "OrderWriteBackHead");

describe("write-back of a lead's progress to its Shopify order", () => {
  it("tags and fulfils when the parcel ships, then marks paid and retags on delivery, then does nothing", async () => {
    const order = api.addOrder({
      lines: [
        { sku: "ARGAN-50", quantity: 2 },
        { sku: "SAVON-NOIR", quantity: 1 },
      ],
      tags: ["vip"],
    });
    const shipped = {
      leadRef: "LD-1001",
      confirmationStatus: "confirmed",
      shippingStatus: "shipped",
      hasAnomalies: false,
      trackingNumber: "CTM123456MA",
      done: wb.NOTHING_WRITTEN_BACK,
    };

    // Shipped: read, plan, execute
    const current = await wb.fetchOrderWriteBackState(admin, order.id);
    const steps = wb.planWriteBack(shipped, wb.DEFAULT_WRITE_BACK_SETTINGS, current);
    const outcome = await wb.executeWriteBack(admin, order.id, steps);

    expect(order.tags).toEqual(["vip", "cod:lead:LD-1001", "cod:confirmed", "cod:shipped"]);
    expect(order.fulfillments).toHaveLength(1);
    expect(order.fulfillments[0]).toMatchObject({
      trackingInfo: [{ number: "CTM123456MA", company: "COD platform", url: null }],
      notifyCustomer: false,
      fulfillmentOrderIds: [order.fulfillmentOrders[0].id],
    });
    expect(order.fulfillments[0].lineItems.map((l) => l.quantity)).toEqual([2, 1]);
    expect(order.fulfillmentOrders[0].status).toBe("CLOSED");
    expect(order.displayFinancialStatus).toBe("PENDING");
    expect(outcome).toMatchObject({
      tagsAdded: ["cod:lead:LD-1001", "cod:confirmed", "cod:shipped"],
      fulfillmentIds: [order.fulfillments[0].id],
    });

    // Delivered: the whole run in one call
    const delivered = { ...shipped, shippingStatus: "delivered", done: wb.recordWriteBack(shipped.done, outcome) };
    const run = await wb.writeBackOrder(admin, order.id, delivered, wb.DEFAULT_WRITE_BACK_SETTINGS);
    expect(run.steps.map((s) => s.kind)).toEqual(["tagsAdd", "tagsRemove", "markAsPaid"]);
    expect(order.tags).toEqual(["vip", "cod:lead:LD-1001", "cod:confirmed", "cod:delivered"]);
    expect(order.displayFinancialStatus).toBe("PAID");
    expect(order.fulfillments).toHaveLength(1);
    expect(run.done).toEqual({
      tags: ["cod:lead:LD-1001", "cod:confirmed", "cod:delivered"],
      fulfilled: true,
      paid: true,
      cancelled: false,
      fulfillmentIds: [order.fulfillments[0].id],
    });

    // Again with the recorded outcome: only the read
    const before = api.requests.length;
    const again = await wb.writeBackOrder(
      admin,
      order.id,
      { ...delivered, done: run.done },
      wb.DEFAULT_WRITE_BACK_SETTINGS,
    );
    expect(again.steps).toEqual([]);
    expect(mutationsSince(before)).toEqual([]);

    // Every call went to the fake as the shop, with the stored session's token, in 2026-07
    expect(new Set(api.requests.map((r) => `${r.shop} ${r.accessToken} ${r.apiVersion}`))).toEqual(
      new Set([`${SHOP} shpat_test_${SHOP} 2026-07`]),
    );
    expect(api.refused).toEqual([]);
  });

  it("reads the order's fulfilment orders only when the plan may fulfil: otherwise its head, for 1 point asked instead of hundreds", async () => {
    const order = api.addOrder({ lines: [{ sku: "ARGAN-50", quantity: 1 }] });
    const confirmed = {
      leadRef: "LD-1002",
      confirmationStatus: "confirmed",
      shippingStatus: "pending",
      hasAnomalies: false,
      trackingNumber: null,
      done: wb.NOTHING_WRITTEN_BACK,
    };
    let before = api.requests.length;
    const atConfirmation = await wb.writeBackOrder(admin, order.id, confirmed, wb.DEFAULT_WRITE_BACK_SETTINGS);
    const head = api.requests[before];
    expect(head).toMatchObject({
      operationName: "OrderWriteBackHead",
      requestedQueryCost: 1,
      actualQueryCost: wb.READ_ACTUAL_POINTS.head,
    });
    expect(atConfirmation.steps.map((s) => s.kind)).toEqual(["tagsAdd"]);
    expect(order.tags).toEqual(["cod:lead:LD-1002", "cod:confirmed"]);

    before = api.requests.length;
    const shipped = { ...confirmed, shippingStatus: "shipped", trackingNumber: "CTM9", done: atConfirmation.done };
    const atShipping = await wb.writeBackOrder(admin, order.id, shipped, wb.DEFAULT_WRITE_BACK_SETTINGS);
    const full = api.requests[before];
    expect(full.operationName).toBe("OrderWriteBackState");
    expect(full.requestedQueryCost).toBeGreaterThan(100);
    expect(full.requestedQueryCost).toBe(wb.READ_POINTS.withFulfillmentOrders);
    // Charged what it returned: an order of one line and one fulfilment order.
    expect(full.actualQueryCost).toBeLessThanOrEqual(wb.READ_ACTUAL_POINTS.withFulfillmentOrders);
    expect(atShipping.steps.map((s) => s.kind)).toContain("fulfillmentCreate");
    expect(order.fulfillments).toHaveLength(1);
  });

  it("with paid chosen as the platform's payment: the delivered order stays pending, and is marked paid when the platform pays", async () => {
    const order = api.addOrder();
    const settings = {
      ...wb.DEFAULT_WRITE_BACK_SETTINGS,
      tags: false,
      fulfillment: false,
      markPaidWhen: "paid" as const,
    };
    const delivered = {
      leadRef: "LD-1003",
      confirmationStatus: "confirmed",
      shippingStatus: "delivered",
      hasAnomalies: false,
      trackingNumber: "CTM1",
      done: wb.NOTHING_WRITTEN_BACK,
    };
    const atDelivery = await wb.writeBackOrder(admin, order.id, delivered, settings);
    expect(atDelivery.steps).toEqual([]);
    expect(order.displayFinancialStatus).toBe("PENDING");
    const paidOut = await wb.writeBackOrder(
      admin,
      order.id,
      { ...delivered, shippingStatus: "paid", done: atDelivery.done },
      settings,
    );
    expect(paidOut.steps.map((s) => s.kind)).toEqual(["markAsPaid"]);
    expect(order.displayFinancialStatus).toBe("PAID");
    expect(paidOut.done.paid).toBe(true);
  });

  it("cancels a fake lead's order when the shop turned cancelling on", async () => {
    const order = api.addOrder();
    const fake = {
      leadRef: "LD-1002",
      confirmationStatus: "fake",
      shippingStatus: "pending",
      hasAnomalies: true,
      trackingNumber: null,
      done: wb.NOTHING_WRITTEN_BACK,
    };
    const off = await wb.writeBackOrder(admin, order.id, fake, wb.DEFAULT_WRITE_BACK_SETTINGS);
    expect(off.steps.map((s) => s.kind)).toEqual(["tagsAdd"]);
    expect(order.cancelledAt).toBeNull();

    const run = await wb.writeBackOrder(
      admin,
      order.id,
      { ...fake, done: off.done },
      { ...wb.DEFAULT_WRITE_BACK_SETTINGS, cancel: true },
    );
    expect(order.tags).toEqual(["cod:lead:LD-1002", "cod:fake", "cod:anomaly"]);
    expect(order.cancelledAt).not.toBeNull();
    expect(order.cancellation).toEqual({
      reason: "FRAUD",
      restock: true,
      refund: null,
      refundMethod: { originalPaymentMethodsRefund: false },
      notifyCustomer: false,
      staffNote: "COD Lead Sync: lead LD-1002 fake",
    });
    expect(run.outcome.cancelJobId).toMatch(/^gid:\/\/shopify\/Job\//);
    expect(run.done.cancelled).toBe(true);
  });
});

describe("a batch of write-backs (writeBackOrders)", () => {
  const lead = (leadRef: string, shippingStatus: string | null, done = wb.NOTHING_WRITTEN_BACK) => ({
    leadRef,
    confirmationStatus: "confirmed",
    shippingStatus,
    hasAnomalies: false,
    trackingNumber: shippingStatus ? "CTM77" : null,
    done,
  });

  it("reads the heads of orders that cannot be fulfilled in one request and tags them in one more; an order that may be fulfilled is read and written alone", async () => {
    const [a, b, c] = [api.addOrder({ tags: ["vip"] }), api.addOrder(), api.addOrder()];
    const gone = "gid://shopify/Order/888888";
    const before = api.requests.length;
    const runs = await wb.writeBackOrders(admin, [
      { orderGid: a.id, link: lead("LD-2001", null), settings: wb.DEFAULT_WRITE_BACK_SETTINGS },
      { orderGid: gone, link: lead("LD-2002", null), settings: wb.DEFAULT_WRITE_BACK_SETTINGS },
      { orderGid: b.id, link: lead("LD-2003", null), settings: wb.DEFAULT_WRITE_BACK_SETTINGS },
      { orderGid: c.id, link: lead("LD-2004", "shipped"), settings: wb.DEFAULT_WRITE_BACK_SETTINGS },
    ]);

    expect(api.requests.slice(before).map((r) => r.operationName)).toEqual([
      "OrderWriteBackState",
      "OrderWriteBackHeads",
      "TagsAdd",
      "FulfillmentCreate",
    ]);
    expect(a.tags).toEqual(["vip", "cod:lead:LD-2001", "cod:confirmed"]);
    expect(b.tags).toEqual(["cod:lead:LD-2003", "cod:confirmed"]);
    expect(c.tags).toEqual(["cod:lead:LD-2004", "cod:confirmed", "cod:shipped"]);
    expect(c.fulfillments).toHaveLength(1);
    expect(runs[1]).toEqual({ error: expect.any(errors.ShopifyOrderNotFoundError) });
    expect(runs[0]).toMatchObject({
      steps: [{ kind: "tagsAdd" }],
      done: { tags: ["cod:lead:LD-2001", "cod:confirmed"] },
    });
    expect(runs[3]).toMatchObject({
      done: { fulfilled: true, tags: ["cod:lead:LD-2004", "cod:confirmed", "cod:shipped"] },
    });
  });

  it("moves tags in rounds, adding before removing, and an order Shopify refuses stops alone", async () => {
    const [a, b] = [api.addOrder(), api.addOrder()];
    const settings = { ...wb.DEFAULT_WRITE_BACK_SETTINGS, fulfillment: false, markPaid: false };
    const first = await wb.writeBackOrders(admin, [
      { orderGid: a.id, link: lead("LD-2101", "shipped"), settings },
      { orderGid: b.id, link: lead("LD-2102", "shipped"), settings },
    ]);
    const doneOf = (run: (typeof first)[number]) => ("error" in run ? wb.NOTHING_WRITTEN_BACK : run.done);
    // The first order's removal is refused (the stand-in answers userErrors for the first tagsRemove it runs).
    api.state.userErrorsNext.tagsRemove = [{ field: ["id"], message: "Order is locked." }];
    const before = api.requests.length;
    const second = await wb.writeBackOrders(admin, [
      { orderGid: a.id, link: { ...lead("LD-2101", "delivered"), done: doneOf(first[0]) }, settings },
      { orderGid: b.id, link: { ...lead("LD-2102", "returned"), done: doneOf(first[1]) }, settings },
    ]);

    expect(api.requests.slice(before).map((r) => r.operationName)).toEqual([
      "OrderWriteBackHeads",
      "TagsAdd",
      "TagsRemove",
    ]);
    expect(a.tags).toEqual(["cod:lead:LD-2101", "cod:confirmed", "cod:shipped", "cod:delivered"]);
    expect(b.tags).toEqual(["cod:lead:LD-2102", "cod:confirmed", "cod:returned"]);
    expect(second[0]).toEqual({ error: expect.any(errors.ShopifyUserError) });
    expect(second[1]).toMatchObject({
      steps: [{ kind: "tagsAdd" }, { kind: "tagsRemove" }],
      done: { tags: ["cod:lead:LD-2102", "cod:confirmed", "cod:returned"] },
    });
  });
});

describe("Shopify's refusals and limits", () => {
  it("surfaces a THROTTLED answer as ShopifyThrottledError with the delay from the cost", async () => {
    const order = api.addOrder();
    api.state.throttleNext = 1;
    const error = await wb
      .executeWriteBack(admin, order.id, [{ kind: "tagsAdd", tags: ["cod:confirmed"] }, { kind: "markAsPaid" }])
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(errors.ShopifyThrottledError);
    // mutation cost 10, bucket empty, 100 points/s: 100 ms, rounded up to the 1 s floor
    expect(error).toMatchObject({ operation: "TagsAdd", retryAfterMs: 1000, cost: { requestedQueryCost: 10 } });
    // the run stopped there: nothing changed, the job can simply be rescheduled
    expect(order.tags).toEqual([]);
    expect(order.displayFinancialStatus).toBe("PENDING");

    const outcome = await wb.executeWriteBack(admin, order.id, [{ kind: "tagsAdd", tags: ["cod:confirmed"] }]);
    expect(outcome.tagsAdded).toEqual(["cod:confirmed"]);
  });

  it("surfaces an HTTP 429 as ShopifyThrottledError after Retry-After, without blocking on retries", async () => {
    api.state.http429Next = 1;
    const error = await wb.fetchOrderWriteBackState(admin, api.addOrder().id).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(errors.ShopifyThrottledError);
    expect(error).toMatchObject({ retryAfterMs: 3000 });
  });

  it("surfaces userErrors as a merchant-readable ShopifyUserError", async () => {
    const paid = api.addOrder({ displayFinancialStatus: "PAID" });
    const error = await wb.executeWriteBack(admin, paid.id, [{ kind: "markAsPaid" }]).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(errors.ShopifyUserError);
    expect((error as InstanceType<typeof errors.ShopifyUserError>).message).toBe(
      "Shopify refused to mark the order as paid: Order cannot be marked as paid.",
    );
    expect(error).toMatchObject({ operation: "OrderMarkAsPaid", userErrors: [{ field: ["input", "id"] }] });
  });

  it("stops at a refused fulfilment, keeping the tags already written", async () => {
    const order = api.addOrder();
    api.state.userErrorsNext.fulfillmentCreate = [{ field: ["fulfillment"], message: "Fulfillment order is on hold." }];
    const link = {
      leadRef: "LD-1003",
      confirmationStatus: "confirmed",
      shippingStatus: "delivered",
      hasAnomalies: false,
      trackingNumber: "CTM9",
      done: wb.NOTHING_WRITTEN_BACK,
    };
    const error = await wb
      .writeBackOrder(admin, order.id, link, wb.DEFAULT_WRITE_BACK_SETTINGS)
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(errors.ShopifyUserError);
    expect((error as Error).message).toBe("Shopify refused to create the fulfilment: Fulfillment order is on hold.");
    expect(order.tags).toEqual(["cod:lead:LD-1003", "cod:confirmed", "cod:delivered"]);
    expect(order.displayFinancialStatus).toBe("PENDING");

    // the next run plans only what is missing
    const run = await wb.writeBackOrder(admin, order.id, link, wb.DEFAULT_WRITE_BACK_SETTINGS);
    expect(run.steps.map((s) => s.kind)).toEqual(["fulfillmentCreate", "markAsPaid"]);
    expect(order.displayFinancialStatus).toBe("PAID");
  });

  it("reports a document the schema rejects as ShopifyGraphqlError", async () => {
    const error = await gql
      .runAdminGraphql(admin, `query Broken($id: ID!) { order(id: $id) { financialStatus } }`, {
        id: "gid://shopify/Order/1",
      })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(errors.ShopifyGraphqlError);
    expect((error as Error).message).toContain('Cannot query field "financialStatus" on type "Order"');
  });

  it("reports an order Shopify does not have", async () => {
    const error = await wb.fetchOrderWriteBackState(admin, "gid://shopify/Order/999999").catch((e: unknown) => e);
    expect(error).toBeInstanceOf(errors.ShopifyOrderNotFoundError);
  });

  it("lets no call leave the machine", async () => {
    const { abstractFetch } = await import("@shopify/shopify-api/runtime");
    await expect(abstractFetch("https://example.com/")).rejects.toThrow(/network is not allowed/);
    expect(api.refused).toEqual(["https://example.com/"]);
    api.refused.length = 0;
  });
});

describe("the fake serves the backfill and SKU mapping documents", () => {
  it("pages orders with the fields the mapping reads", async () => {
    const before = Object.keys(api.state.orders).length;
    for (let i = 0; i < 4; i++) api.addOrder();
    type Page = {
      orders: {
        nodes: { id: string; currentTotalPriceSet: { shopMoney: { amount: string } } }[];
        pageInfo: { hasNextPage: boolean; endCursor: string };
      };
    };
    const ids: string[] = [];
    let after: string | null = null;
    for (;;) {
      const page: Page = await gql.runAdminGraphql<Page>(admin, docs.ORDERS_PAGE, { first: 3, after });
      ids.push(...page.orders.nodes.map((o) => o.id));
      if (!page.orders.pageInfo.hasNextPage) break;
      after = page.orders.pageInfo.endCursor;
    }
    expect(ids).toHaveLength(before + 4);
    const first: Page = await gql.runAdminGraphql<Page>(admin, docs.ORDERS_PAGE, { first: 1 });
    expect(first.orders.nodes[0].currentTotalPriceSet.shopMoney.amount).toBe("398.00");
    expect(new Set(ids).size).toBe(ids.length);
  });

  it("refuses a page whose requested cost exceeds Shopify's limit", async () => {
    const error = await gql.runAdminGraphql(admin, docs.ORDERS_PAGE, { first: 10 }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(errors.ShopifyGraphqlError);
    expect(error).toMatchObject({ codes: ["MAX_COST_EXCEEDED"] });
  });

  it("searches product variants by SKU", async () => {
    api.state.productVariants.push(
      fakeVariant({ id: 1, sku: "ARGAN-50", title: "50 ml", productId: 1, productTitle: "Argan oil" }),
      fakeVariant({ id: 2, sku: "ARGAN-100", title: "100 ml", productId: 1, productTitle: "Argan oil" }),
    );
    type Page = { productVariants: { nodes: { sku: string; displayName: string; product: { title: string } }[] } };
    const page = await gql.runAdminGraphql<Page>(admin, docs.PRODUCT_VARIANTS_PAGE, {
      first: 50,
      query: "sku:ARGAN-100",
    });
    expect(page.productVariants.nodes).toEqual([
      {
        id: "gid://shopify/ProductVariant/2",
        sku: "ARGAN-100",
        title: "100 ml",
        displayName: "Argan oil - 100 ml",
        product: { id: "gid://shopify/Product/1", title: "Argan oil" },
      },
    ]);
  });
});
