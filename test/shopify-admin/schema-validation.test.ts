/**
 * Every document is validated against the real 2026-07 schema before it runs; the
 * errors come back as Shopify sends them: HTTP 200, `errors` with message, locations
 * and an extensions.code, no data, and the cost information.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as documents from "../../app/shopify/documents";
import { startShopifyAdmin, type RunningShopifyAdmin } from "../../shopify-admin/index";
import { errorsOf, graphql } from "./helpers";

const SHOP = "schema-shop.myshopify.com";
let admin: RunningShopifyAdmin;

beforeAll(async () => {
  admin = await startShopifyAdmin({ quiet: true });
  admin.shop(SHOP);
});
afterAll(() => admin?.close());

describe("validation against the Admin schema", () => {
  it("refuses an unknown field, naming it as Shopify does", async () => {
    const answer = await graphql(admin.url, SHOP, `query Q($id: ID!) { order(id: $id) { id financialStatus } }`, {
      id: "gid://shopify/Order/1",
    });
    expect(answer.status).toBe(200);
    expect(answer.body.data).toBeUndefined();
    expect(errorsOf(answer)).toEqual([
      {
        message: 'Cannot query field "financialStatus" on type "Order".',
        locations: [{ line: 1, column: 41 }],
        extensions: { code: "undefinedField", typeName: "Order", fieldName: "financialStatus" },
      },
    ]);
    expect(answer.body.extensions?.cost).toMatchObject({
      actualQueryCost: null,
      throttleStatus: { maximumAvailable: 2000, restoreRate: 100 },
    });
  });

  it("GIVEN a document sent again WHEN it comes THEN the same errors, and a valid one runs with each call's own variables", async () => {
    const invalid = `query Q($id: ID!) { order(id: $id) { id financialStatus } }`;
    const first = errorsOf(await graphql(admin.url, SHOP, invalid, { id: "gid://shopify/Order/1" }));
    const again = errorsOf(await graphql(admin.url, SHOP, invalid, { id: "gid://shopify/Order/2" }));
    expect(again).toEqual(first);
    expect(first).toHaveLength(1);
    const order = admin.addOrder({}, SHOP);
    const tagged = await graphql(admin.url, SHOP, documents.TAGS_ADD, { id: order.id, tags: ["first"] });
    const missing = await graphql(admin.url, SHOP, documents.TAGS_ADD, { id: order.id });
    expect(tagged.body.data).toBeDefined();
    expect(missing.body.data).toBeUndefined();
    expect(errorsOf(missing)[0]).toMatchObject({ message: expect.stringContaining('"$tags"') });
    expect(order.tags).toEqual(["first"]);
  });

  it("refuses an argument of the wrong type", async () => {
    const answer = await graphql(admin.url, SHOP, `{ orders(first: "ten") { nodes { id } } }`);
    expect(errorsOf(answer)).toHaveLength(1);
    expect(errorsOf(answer)[0]).toMatchObject({
      message: expect.stringContaining("Int cannot represent"),
      extensions: { code: "argumentLiteralsIncompatible" },
    });
  });

  it("refuses an argument the field does not take", async () => {
    const answer = await graphql(admin.url, SHOP, `{ orders(first: 1, sortBy: ID) { nodes { id } } }`);
    expect(errorsOf(answer)[0]).toMatchObject({ extensions: { code: "argumentNotAccepted", argumentName: "sortBy" } });
  });

  it("refuses a mutation without its required input", async () => {
    const answer = await graphql(admin.url, SHOP, `mutation { orderMarkAsPaid { userErrors { message } } }`);
    expect(errorsOf(answer)[0]).toMatchObject({
      extensions: { code: "missingRequiredArguments", name: "orderMarkAsPaid", arguments: "input" },
    });
  });

  it("refuses a variable of the wrong type and a required variable not given, changing nothing", async () => {
    const order = admin.addOrder({}, SHOP);
    const mismatch = await graphql(
      admin.url,
      SHOP,
      `mutation M($id: String!) { tagsAdd(id: $id, tags: ["x"]) { node { id } } }`,
      { id: order.id },
    );
    expect(errorsOf(mismatch)[0]).toMatchObject({ extensions: { code: "variableMismatch", variableName: "id" } });
    const missing = await graphql(admin.url, SHOP, documents.TAGS_ADD, { id: order.id });
    expect(errorsOf(missing)[0]).toMatchObject({
      message: expect.stringContaining('"$tags"'),
      extensions: { code: "INVALID_VARIABLE" },
    });
    expect(missing.body.data).toBeUndefined();
    expect(order.tags).toEqual([]);
  });

  it("answers a syntax error with its location", async () => {
    const answer = await graphql(admin.url, SHOP, `{ orders(first: 1) { nodes { id }`);
    expect(errorsOf(answer)[0]).toMatchObject({
      message: expect.stringMatching(/^Syntax Error/),
      locations: [expect.any(Object)],
      extensions: { code: "parseError" },
    });
  });

  it("runs every document of the app without errors", async () => {
    const order = admin.addOrder({}, SHOP);
    const fo = order.fulfillmentOrders[0];
    const cases: [string, Record<string, unknown>][] = [
      [documents.ORDER_WRITE_BACK_STATE, { id: order.id }],
      [documents.TAGS_ADD, { id: order.id, tags: ["a"] }],
      [documents.TAGS_REMOVE, { id: order.id, tags: ["a"] }],
      [documents.FULFILLMENT_CREATE, { fulfillment: { lineItemsByFulfillmentOrder: [{ fulfillmentOrderId: fo.id }] } }],
      [documents.ORDER_MARK_AS_PAID, { input: { id: order.id } }],
      [documents.ORDER_CANCEL, { orderId: order.id, reason: "CUSTOMER", restock: true }],
      [documents.ORDERS_PAGE, { first: 3 }],
      [documents.PRODUCT_VARIANTS_PAGE, { first: 50 }],
    ];
    for (const [document, variables] of cases) {
      const answer = await graphql(admin.url, SHOP, document, variables);
      expect({ document: document.slice(0, 60), errors: answer.body.errors }).toEqual({
        document: document.slice(0, 60),
        errors: undefined,
      });
      expect(answer.body.data).toBeTruthy();
    }
  });
});
