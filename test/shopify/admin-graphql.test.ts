import { describe, expect, it, vi } from "vitest";
import {
  JOB_CALL,
  operationName,
  PAGE_CALL,
  runAdminGraphql,
  ShopifyGraphqlError,
  ShopifyThrottledError,
  ShopifyUserError,
  throwIfUserErrors,
  type AdminCallPolicy,
  type AdminGraphqlClient,
} from "../../app/shopify/admin-graphql.server";
import {
  ShopifyNetworkError,
  ShopifyResponseTooLargeError,
  ShopifyTimeoutError,
  ShopifyUnauthorizedError,
} from "../../app/shopify/errors";
import { parseShopifyFailureKind, shopifyFailureOf } from "../../app/shopify/failure";
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
          cost: {
            requestedQueryCost: 300,
            throttleStatus: { maximumAvailable: 2000, currentlyAvailable: 100, restoreRate: 100 },
          },
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
    expect(error).toMatchObject({
      codes: ["ACCESS_DENIED"],
      messages: ["Access denied for tagsAdd field."],
      retriable: false,
    });
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

describe("runAdminGraphql: time, size and throttle limits", () => {
  const policy = (overrides: Partial<AdminCallPolicy> = {}): AdminCallPolicy => ({ ...PAGE_CALL, ...overrides });
  const throttledBody = (requested: number, available: number) => ({
    errors: [{ message: "Throttled", extensions: { code: "THROTTLED" } }],
    extensions: {
      cost: {
        requestedQueryCost: requested,
        throttleStatus: { maximumAvailable: 2000, currentlyAvailable: available, restoreRate: 100 },
      },
    },
  });
  /** Answers each call with the next body of the list (the last one repeats), recording when it was called. */
  const sequence = (...bodies: unknown[]) => {
    const calls: number[] = [];
    const client = {
      graphql: async () => {
        calls.push(performance.now());
        return new Response(JSON.stringify(bodies[Math.min(calls.length - 1, bodies.length - 1)]));
      },
    } as unknown as AdminGraphqlClient;
    return { client, calls };
  };

  it("aborts a call that does not answer in time: a typed timeout, and the request's signal is aborted", async () => {
    let signal: AbortSignal | undefined;
    const hanging = {
      graphql: (_document: string, options?: { signal?: AbortSignal }) => {
        signal = options?.signal;
        return new Promise<Response>(() => {});
      },
    } as unknown as AdminGraphqlClient;
    // The call never answers: only the timeout can end it.
    const error = await runAdminGraphql(hanging, TAGS_ADD, {}, policy({ timeoutMs: 150 })).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ShopifyTimeoutError);
    expect(error).toMatchObject({ operation: "TagsAdd", timeoutMs: 150, retriable: true });
    expect(signal?.aborted).toBe(true);
  });

  it("refuses an answer over the size limit", async () => {
    const huge = { data: { tagsAdd: { userErrors: [], padding: "x".repeat(5_000) } } };
    const error = await runAdminGraphql(answering(huge), TAGS_ADD, {}, policy({ maxResponseBytes: 4_096 })).catch(
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(ShopifyResponseTooLargeError);
    expect(error).toMatchObject({ limitBytes: 4_096, retriable: false });
    expect((error as ShopifyResponseTooLargeError).bytes).toBeGreaterThan(5_000);
  });

  it("on a page, waits out a short throttle for (requested - available) / restore rate, then answers", async () => {
    // 130 points asked, 100 available, 100 restored a second: 300 ms, on the clock the call waits on
    // (faked here: the wait is counted, not timed).
    vi.useFakeTimers();
    try {
      const { client, calls } = sequence(throttledBody(130, 100), { data: { ok: true } });
      const answer = runAdminGraphql(client, TAGS_ADD, {}, PAGE_CALL);
      await vi.advanceTimersByTimeAsync(299);
      expect(calls).toHaveLength(1);
      await vi.advanceTimersByTimeAsync(1);
      await expect(answer).resolves.toEqual({ ok: true });
      expect(calls).toHaveLength(2);
    } finally {
      vi.useRealTimers();
    }
  });

  it("on a page, gives up after two waits, or at once when the wait would be long", async () => {
    const short = sequence(throttledBody(10, 5));
    await expect(runAdminGraphql(short.client, TAGS_ADD, {}, PAGE_CALL)).rejects.toBeInstanceOf(ShopifyThrottledError);
    expect(short.calls).toHaveLength(3);

    // 500 points missing at 100/s: 5 s, longer than a page waits.
    const long = sequence(throttledBody(600, 100), { data: { ok: true } });
    const error = await runAdminGraphql(long.client, TAGS_ADD, {}, PAGE_CALL).catch((e: unknown) => e);
    expect(error).toMatchObject({ retryAfterMs: 5_000 });
    expect(long.calls).toHaveLength(1);
  });

  it("in a job, never waits: the throttle is thrown for the queue to reschedule", async () => {
    const { client, calls } = sequence(throttledBody(130, 100), { data: { ok: true } });
    await expect(runAdminGraphql(client, TAGS_ADD, {}, JOB_CALL)).rejects.toBeInstanceOf(ShopifyThrottledError);
    await expect(runAdminGraphql(client, TAGS_ADD)).resolves.toEqual({ ok: true }); // JOB_CALL is the default
    expect(calls).toHaveLength(2);
  });

  it("reads the responses the Remix package throws inside authenticate.admin: 401 or its bounce redirect, 429, 5xx", async () => {
    const throwing = (response: Response) =>
      ({ graphql: async () => Promise.reject(response) }) as unknown as AdminGraphqlClient;
    const run = (response: Response) => runAdminGraphql(throwing(response), TAGS_ADD).catch((e: unknown) => e);
    expect(await run(new Response(null, { status: 401 }))).toBeInstanceOf(ShopifyUnauthorizedError);
    expect(await run(new Response(null, { status: 302, headers: { Location: "/auth/session-token" } }))).toBeInstanceOf(
      ShopifyUnauthorizedError,
    );
    expect(await run(new Response("{}", { status: 429 }))).toBeInstanceOf(ShopifyThrottledError);
    expect(await run(new Response("{}", { status: 503 }))).toMatchObject({ status: 503, retriable: true });
    expect(await run(new Response("{}", { status: 503 }))).toBeInstanceOf(ShopifyGraphqlError);
  });
});

describe("what a page tells the merchant", () => {
  it.each([
    [new ShopifyTimeoutError({ operation: "X", timeoutMs: 5 }), "timeout", null],
    [new ShopifyNetworkError({ operation: "X" }), "network", null],
    [new ShopifyUnauthorizedError({ operation: "X" }), "unauthorized", null],
    [new ShopifyThrottledError({ operation: "X", retryAfterMs: 2_500 }), "throttled", 3],
    [new ShopifyGraphqlError({ operation: "X", messages: ["Service Unavailable"], status: 503 }), "unavailable", null],
    [
      new ShopifyGraphqlError({ operation: "X", messages: ["Field 'x' doesn't exist"], codes: ["undefinedField"] }),
      "error",
      null,
    ],
    [new ShopifyResponseTooLargeError({ operation: "X", bytes: 10, limitBytes: 5 }), "too_large", null],
  ])("%s -> %s", (error, kind, seconds) => {
    expect(shopifyFailureOf(error)).toEqual({ kind, retryAfterSeconds: seconds });
  });

  it("reads a stored kind back, and nothing else", () => {
    expect(parseShopifyFailureKind("network")).toBe("network");
    expect(parseShopifyFailureKind("Shopify could not be reached")).toBeNull();
    expect(parseShopifyFailureKind(null)).toBeNull();
  });
});
