/**
 * Shopify's cost model: requested cost before the run, actual cost after it, a leaky
 * bucket per shop (2000 points, 100 per second) charged the actual cost, THROTTLED
 * with extensions.cost when the requested cost is not available. The clock is injected.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { ORDERS_PAGE } from "../../app/shopify/documents";
import {
  LeakyBucket,
  shopifyAdminControl,
  startShopifyAdmin,
  type RunningShopifyAdmin,
} from "../../shopify-admin/index";
import { errorsOf, graphql } from "./helpers";

describe("LeakyBucket", () => {
  it("refills 100 points a second up to 2000, and never below zero", () => {
    const bucket = new LeakyBucket(0);
    expect(bucket.status(0)).toEqual({ maximumAvailable: 2000, currentlyAvailable: 2000, restoreRate: 100 });
    bucket.charge(1500, 0);
    expect(bucket.currentlyAvailable(0)).toBe(500);
    expect(bucket.canAfford(600, 0)).toBe(false);
    expect(bucket.currentlyAvailable(1000)).toBe(600);
    expect(bucket.canAfford(600, 1000)).toBe(true);
    bucket.charge(5000, 1000);
    expect(bucket.currentlyAvailable(1000)).toBe(0);
    expect(bucket.currentlyAvailable(60_000)).toBe(2000);
  });
});

describe("cost and throttling over HTTP", () => {
  const A = "bucket-a.myshopify.com";
  const B = "bucket-b.myshopify.com";
  let nowMs = Date.parse("2026-08-01T00:00:00Z");
  let admin: RunningShopifyAdmin;
  let control: ReturnType<typeof shopifyAdminControl>;

  beforeAll(async () => {
    admin = await startShopifyAdmin({ quiet: true, now: () => nowMs });
    control = shopifyAdminControl(admin.url);
  });
  afterAll(() => admin?.close());
  beforeEach(async () => {
    await control.reset();
    for (const shop of [A, B]) {
      admin.shop(shop);
      for (let i = 0; i < 3; i++) admin.addOrder({}, shop);
    }
  });

  it("reports requested and actual cost and charges the actual one", async () => {
    const answer = await graphql(admin.url, A, ORDERS_PAGE, { first: 3 });
    const cost = answer.body.extensions!.cost;
    expect(cost.requestedQueryCost).toBeGreaterThan(900);
    expect(cost.actualQueryCost).toBeGreaterThan(0);
    expect(cost.actualQueryCost).toBeLessThan(cost.requestedQueryCost);
    expect(cost.throttleStatus).toEqual({
      maximumAvailable: 2000,
      currentlyAvailable: 2000 - cost.actualQueryCost!,
      restoreRate: 100,
    });
    expect(admin.requests.at(-1)).toMatchObject({
      shop: A,
      operationName: "OrdersPage",
      requestedQueryCost: cost.requestedQueryCost,
      actualQueryCost: cost.actualQueryCost,
    });
  });

  it("answers THROTTLED with the cost when the bucket lacks the requested points, per shop, until it refills", async () => {
    await control.setBucket(A, 500);
    const throttled = await graphql(admin.url, A, ORDERS_PAGE, { first: 3 });
    expect(throttled.status).toBe(200);
    expect(throttled.body.data).toBeUndefined();
    expect(errorsOf(throttled)).toEqual([
      {
        message: "Throttled",
        extensions: { code: "THROTTLED", documentation: "https://shopify.dev/api/usage/rate-limits" },
      },
    ]);
    const requested = throttled.body.extensions!.cost.requestedQueryCost;
    expect(throttled.body.extensions!.cost).toEqual({
      requestedQueryCost: requested,
      actualQueryCost: null,
      throttleStatus: { maximumAvailable: 2000, currentlyAvailable: 500, restoreRate: 100 },
    });
    expect(admin.requests.at(-1)).toMatchObject({ throttled: true, actualQueryCost: null });

    // The other shop's bucket is its own.
    expect(errorsOf(await graphql(admin.url, B, ORDERS_PAGE, { first: 3 }))).toEqual([]);

    // The wait the app computes from the cost is enough, one second less is not.
    const waitMs = ((requested - 500) / 100) * 1000;
    nowMs += waitMs - 1000;
    expect(errorsOf(await graphql(admin.url, A, ORDERS_PAGE, { first: 3 }))[0]?.extensions?.code).toBe("THROTTLED");
    nowMs += 1000;
    const after = await graphql(admin.url, A, ORDERS_PAGE, { first: 3 });
    expect(after.body.errors).toBeUndefined();
    expect((after.body.data!.orders as { nodes: unknown[] }).nodes).toHaveLength(3);
  });

  it("charges each call of a burst its actual cost and throttles the one that does not fit", async () => {
    const query = `{ orders(first: 250) { nodes { id tags } } }`;
    const answers = [];
    for (let i = 0; i < 4; i++) answers.push(await graphql(admin.url, A, query));
    // 250 asked, 3 there: requested 252, actual 5; four calls fit easily and leave 1980 points.
    expect(
      answers.map((a) => [
        a.body.errors,
        a.body.extensions!.cost.requestedQueryCost,
        a.body.extensions!.cost.actualQueryCost,
      ]),
    ).toEqual(Array(4).fill([undefined, 252, 5]));
    expect(answers[3].body.extensions!.cost.throttleStatus.currentlyAvailable).toBe(1980);
    await control.setBucket(A, 251);
    const answer = await graphql(admin.url, A, query);
    expect(answer.body.extensions!.cost).toMatchObject({
      requestedQueryCost: 252,
      actualQueryCost: null,
      throttleStatus: { currentlyAvailable: 251 },
    });
    expect(errorsOf(answer)[0].extensions?.code).toBe("THROTTLED");
  });

  it("refuses a query above the single-query limit whatever the bucket holds", async () => {
    const answer = await graphql(admin.url, A, ORDERS_PAGE, { first: 10 });
    expect(errorsOf(answer)[0]).toMatchObject({ extensions: { code: "MAX_COST_EXCEEDED", maxCost: 1000 } });
  });
});
