/**
 * Failure injection through the control API, by shop or by operation: network refusal
 * (socket destroyed), slow answers, 5xx, THROTTLED and 401; each rule answers its
 * `times` calls and then the shop works again. The call log shows what happened.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import * as documents from "../../app/shopify/documents";
import { shopifyAdminControl, startShopifyAdmin, type RunningShopifyAdmin } from "../../shopify-admin/index";
import { errorsOf, graphql } from "./helpers";

const SHOP = "faults.myshopify.com";
const OTHER = "calm.myshopify.com";
let admin: RunningShopifyAdmin;
let control: ReturnType<typeof shopifyAdminControl>;
let orderId: string;

beforeAll(async () => {
  admin = await startShopifyAdmin({ quiet: true });
  control = shopifyAdminControl(admin.url);
});
afterAll(() => admin?.close());
beforeEach(async () => {
  await control.reset();
  for (const shop of [SHOP, OTHER])
    await control.loadShop(shop, { variants: [{ id: 1, sku: "ARG-OIL-50", title: "50 ml" }] });
  orderId = (await control.addOrder(SHOP, {})).id;
});

const variants = (shop = SHOP) => graphql(admin.url, shop, documents.PRODUCT_VARIANTS_PAGE, { first: 10 });
const state = () => graphql(admin.url, SHOP, documents.ORDER_WRITE_BACK_STATE, { id: orderId });

describe("injected failures", () => {
  it("refuses the connection: the client gets no HTTP answer at all", async () => {
    await control.addFault({ kind: "refuse", shop: SHOP });
    const error = await variants().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TypeError);
    expect(String((error as Error & { cause?: unknown }).cause)).toMatch(/socket|closed|reset|ECONNRESET/i);
    expect((await variants()).status).toBe(200);
    expect((await control.calls({ shop: SHOP }))[0]).toMatchObject({
      operationName: "ProductVariantsPage",
      status: 0,
      fault: "refuse",
    });
  });

  it("answers slowly, then normally", async () => {
    await control.addFault({ kind: "slow", delayMs: 400, operation: "ProductVariantsPage" });
    const started = performance.now();
    const answer = await variants();
    // At least the delay asked for (a slower machine only adds to it)...
    expect(performance.now() - started).toBeGreaterThanOrEqual(390);
    expect(answer.body.errors).toBeUndefined();
    // ...once: the rule is spent, so the next call has no delay to wait.
    expect(await control.faults()).toEqual([]);
    expect((await variants()).status).toBe(200);
  });

  it("answers a 5xx with the status asked for, as many times as asked", async () => {
    await control.addFault({ kind: "http_error", status: 502, shop: SHOP, times: 2 });
    expect([(await variants()).status, (await state()).status, (await state()).status]).toEqual([502, 502, 200]);
    const answer = await (async () => {
      await control.addFault({ kind: "http_error", shop: SHOP });
      return variants();
    })();
    expect([answer.status, answer.body]).toEqual([503, { errors: "Service Unavailable" }]);
  });

  it("throttles one operation only, with the cost of an empty bucket", async () => {
    await control.addFault({ kind: "throttled", operation: "OrderWriteBackState", times: null });
    for (let i = 0; i < 2; i++) {
      const answer = await state();
      expect(errorsOf(answer)[0].extensions?.code).toBe("THROTTLED");
      expect(answer.body.extensions!.cost).toMatchObject({
        actualQueryCost: null,
        throttleStatus: { currentlyAvailable: 0, restoreRate: 100 },
      });
    }
    expect((await variants()).body.errors).toBeUndefined();
    const [rule] = await control.faults();
    expect(rule).toMatchObject({ kind: "throttled", remaining: null, hits: 2 });
    await control.clearFaults();
    expect((await state()).body.errors).toBeUndefined();
  });

  it("refuses the token of one shop with a 401, leaving the other shop alone", async () => {
    await control.addFault({ kind: "unauthorized", shop: SHOP });
    const answer = await variants();
    expect([answer.status, answer.body]).toEqual([
      401,
      { errors: "[API] Invalid API key or access token (unrecognized login or wrong password)" },
    ]);
    expect((await variants(OTHER)).status).toBe(200);
  });

  it("validates fault rules", async () => {
    const error = await control.addFault({ kind: "explode" as never }).catch((e: unknown) => e);
    expect(error).toMatchObject({ status: 422, body: { error: { code: "validation_error", field: "kind" } } });
  });

  it("logs every call with its operation, variables, cost and time", async () => {
    await variants();
    await graphql(admin.url, SHOP, documents.TAGS_ADD, { id: orderId, tags: ["cod:confirmed"] });
    const calls = await control.calls({ shop: SHOP });
    expect(calls.map((c) => [c.operationName, c.status, c.requestedQueryCost, c.actualQueryCost])).toEqual([
      ["ProductVariantsPage", 200, expect.any(Number), expect.any(Number)],
      ["TagsAdd", 200, 10, 10],
    ]);
    expect(calls[1]).toMatchObject({
      variables: { id: orderId, tags: ["cod:confirmed"] },
      accessToken: "shpat_test",
      apiVersion: "2026-07",
      at: expect.any(String),
    });
    expect(await control.calls({ operation: "TagsAdd", since: calls[0].id })).toHaveLength(1);
  });
});
