import { describe, expect, it } from "vitest";
import {
  operationName,
  runAdminGraphql,
  ShopifyGraphqlError,
  ShopifyThrottledError,
  ShopifyUserError,
  throwIfUserErrors,
  type AdminGraphqlClient,
} from "../../app/shopify/admin-graphql.server";
import { TAGS_ADD } from "../../app/shopify/documents";
import { DEFAULT_THROTTLE_RETRY_MS, retryAfterMsFromCost, retryAfterMsFromHeader } from "../../app/shopify/throttle";

/** An admin client that answers one fixed body, as a client that does not throw would. */
const answering = (body: unknown): AdminGraphqlClient =>
  ({ graphql: async () => new Response(JSON.stringify(body)) }) as unknown as AdminGraphqlClient;

describe("retry delay after THROTTLED", () => {
  const cost = (requestedQueryCost: number, currentlyAvailable: number, restoreRate: number) => ({
    requestedQueryCost,
    throttleStatus: { maximumAvailable: 2000, currentlyAvailable, restoreRate },
  });

  it.each([
    // requested, available, restore rate/s -> ms
    [500, 100, 50, 8000],
    [1000, 0, 100, 10000],
    [12, 0, 100, 1000], // 120 ms needed; never sooner than a second
    [10, 500, 100, 1000], // enough points by now: retry soon
  ])("cost %i with %i available restoring %i/s -> %i ms", (requested, available, rate, ms) => {
    expect(retryAfterMsFromCost(cost(requested, available, rate))).toBe(ms);
  });

  it("falls back to a default without cost information, and reads Retry-After seconds", () => {
    expect(retryAfterMsFromCost(undefined)).toBe(DEFAULT_THROTTLE_RETRY_MS);
    expect(retryAfterMsFromCost({ requestedQueryCost: 10 })).toBe(DEFAULT_THROTTLE_RETRY_MS);
    expect(retryAfterMsFromHeader(2)).toBe(2000);
    expect(retryAfterMsFromHeader(undefined)).toBe(DEFAULT_THROTTLE_RETRY_MS);
  });
});

describe("runAdminGraphql", () => {
  it("returns data", async () => {
    await expect(runAdminGraphql(answering({ data: { tagsAdd: { userErrors: [] } } }), TAGS_ADD)).resolves.toEqual({
      tagsAdd: { userErrors: [] },
    });
  });

  it("turns a THROTTLED answer into ShopifyThrottledError with the delay from the cost", async () => {
    const error = await runAdminGraphql(
      answering({
        errors: [{ message: "Throttled", extensions: { code: "THROTTLED" } }],
        extensions: {
          cost: { requestedQueryCost: 300, throttleStatus: { maximumAvailable: 2000, currentlyAvailable: 100, restoreRate: 100 } },
        },
      }),
      TAGS_ADD,
    ).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ShopifyThrottledError);
    expect(error).toMatchObject({ operation: "TagsAdd", retryAfterMs: 2000, retriable: true });
  });

  it("turns other top-level errors into ShopifyGraphqlError with every message", async () => {
    const error = await runAdminGraphql(
      answering({ errors: [{ message: "Access denied for tagsAdd field.", extensions: { code: "ACCESS_DENIED" } }] }),
      TAGS_ADD,
    ).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ShopifyGraphqlError);
    expect(error).toMatchObject({ codes: ["ACCESS_DENIED"], messages: ["Access denied for tagsAdd field."], retriable: false });
  });

  it("names the operation of a document", () => {
    expect(operationName(TAGS_ADD)).toBe("TagsAdd");
    expect(operationName("{ shop { id } }")).toBe("anonymous operation");
  });
});

describe("throwIfUserErrors", () => {
  it("passes an empty or missing list", () => {
    expect(() => throwIfUserErrors("TagsAdd", "add the order tags", [])).not.toThrow();
    expect(() => throwIfUserErrors("TagsAdd", "add the order tags", null)).not.toThrow();
  });

  it("throws a merchant-readable ShopifyUserError carrying the fields", () => {
    const errors = [
      { field: ["input", "id"], message: "Order cannot be marked as paid." },
      { field: null, message: "Order is archived." },
    ];
    let thrown: unknown;
    try {
      throwIfUserErrors("OrderMarkAsPaid", "mark the order as paid", errors);
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(ShopifyUserError);
    expect((thrown as ShopifyUserError).message).toBe(
      "Shopify refused to mark the order as paid: Order cannot be marked as paid; Order is archived.",
    );
    expect((thrown as ShopifyUserError).userErrors).toEqual(errors);
    expect((thrown as ShopifyUserError).retriable).toBe(false);
  });
});
