/**
 * The one way the app calls the Admin GraphQL API: `admin.graphql` from
 * @shopify/shopify-app-remix, with its failures turned into typed errors.
 *
 * What the client underneath actually does (shopify-api 15 / admin-api-client):
 * - a 200 answer whose body has `errors` (THROTTLED, validation, access denied) is
 *   thrown as `GraphqlQueryError`, whose `body` is `{ data?, extensions?, errors: {
 *   graphQLErrors } }`: the cost information survives there;
 * - an HTTP 429 is retried only when `tries` is given (we never give it: the job queue
 *   reschedules instead of blocking a worker), so it is thrown at once as
 *   `HttpThrottlingError` with `response.retryAfter` in seconds; 5xx and other
 *   statuses are `HttpResponseError`s; no HTTP answer is an `HttpRequestError`;
 * - it has no time limit of its own: every call here is aborted after its policy's
 *   timeout, and an answer over the policy's size is refused before it is parsed again.
 */
import { GraphqlQueryError, HttpRequestError, HttpResponseError, HttpThrottlingError } from "@shopify/shopify-api";
import type { AdminApiContext } from "@shopify/shopify-app-remix/server";
import {
  ShopifyGraphqlError,
  ShopifyNetworkError,
  ShopifyResponseTooLargeError,
  ShopifyThrottledError,
  ShopifyTimeoutError,
  ShopifyUnauthorizedError,
  ShopifyUserError,
  type QueryCost,
  type UserErrorEntry,
} from "./errors";
import { DEFAULT_THROTTLE_RETRY_MS, retryAfterMsFromCost, retryAfterMsFromHeader, throttleWaitMs } from "./throttle";

export { ShopifyGraphqlError, ShopifyThrottledError, ShopifyUserError } from "./errors";

/** The part of the Remix admin context this module uses (also what tests fake). */
export type AdminGraphqlClient = Pick<AdminApiContext, "graphql">;

/** Shopify's Admin API for a shop, from its stored offline session (the worker's entry gives it). */
export type AdminFor = (shop: string) => Promise<AdminGraphqlClient>;

export type GraphqlVariables = Record<string, unknown>;

/** How one call may spend time and memory. */
export interface AdminCallPolicy {
  /** The call is aborted after this long: a typed timeout, never a hanging page or worker. */
  timeoutMs: number;
  /** THROTTLED answers waited out in place (0: thrown at once for the queue to reschedule)... */
  throttleRetries: number;
  /** ...when the wait computed from the answer's cost is at most this long. */
  maxThrottleWaitMs: number;
  /** A larger answer is a ShopifyResponseTooLargeError. */
  maxResponseBytes: number;
}

const MIB = 1024 * 1024;

/** A page load: the merchant is waiting. A short throttle is waited out; a hang ends after 5 s. */
export const PAGE_CALL: AdminCallPolicy = {
  timeoutMs: 5_000,
  throttleRetries: 2,
  maxThrottleWaitMs: 2_000,
  maxResponseBytes: 2 * MIB,
};

/** A background job: it never blocks its worker on a throttle; the queue reschedules it. */
export const JOB_CALL: AdminCallPolicy = {
  timeoutMs: 30_000,
  throttleRetries: 0,
  maxThrottleWaitMs: 0,
  maxResponseBytes: 8 * MIB,
};

interface GraphqlErrorEntry {
  message?: string;
  extensions?: { code?: string; [key: string]: unknown };
}

interface GraphqlBody {
  data?: unknown;
  errors?: GraphqlErrorEntry[];
  extensions?: { cost?: QueryCost };
}

export function operationName(document: string): string {
  return /\b(?:query|mutation)\s+([A-Za-z_][A-Za-z0-9_]*)/.exec(document)?.[1] ?? "anonymous operation";
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Runs a document and returns its `data`, or throws a ShopifyAdminError subclass. */
export async function runAdminGraphql<TData>(
  admin: AdminGraphqlClient,
  document: string,
  variables: GraphqlVariables = {},
  policy: AdminCallPolicy = JOB_CALL,
): Promise<TData> {
  return (await runAdminGraphqlWithCost<TData>(admin, document, variables, policy)).data;
}

/** runAdminGraphql, with the cost Shopify reported (what the call spent, what the bucket holds now). */
export async function runAdminGraphqlWithCost<TData>(
  admin: AdminGraphqlClient,
  document: string,
  variables: GraphqlVariables = {},
  policy: AdminCallPolicy = JOB_CALL,
): Promise<{ data: TData; cost: QueryCost | undefined }> {
  const operation = operationName(document);
  for (let attempt = 0; ; attempt++) {
    try {
      return await callOnce<TData>(admin, document, variables, operation, policy);
    } catch (error) {
      // The bucket refills at a known rate: a short deficit is cheaper to wait out than to show.
      const wait =
        error instanceof ShopifyThrottledError && attempt < policy.throttleRetries ? throttleWaitMs(error.cost) : null;
      if (wait === null || wait > policy.maxThrottleWaitMs) throw error;
      await sleep(wait);
    }
  }
}

async function callOnce<TData>(
  admin: AdminGraphqlClient,
  document: string,
  variables: GraphqlVariables,
  operation: string,
  policy: AdminCallPolicy,
): Promise<{ data: TData; cost: QueryCost | undefined }> {
  const controller = new AbortController();
  let timer: ReturnType<typeof setTimeout> | undefined;
  // The signal aborts the request; the race also ends the wait if a fetch ignores it.
  const timedOut = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      controller.abort();
      reject(new ShopifyTimeoutError({ operation, timeoutMs: policy.timeoutMs }));
    }, policy.timeoutMs);
  });
  try {
    let response: Response;
    try {
      response = await Promise.race([admin.graphql(document, { variables, signal: controller.signal }), timedOut]);
    } catch (error) {
      if (error instanceof ShopifyTimeoutError) throw error;
      if (controller.signal.aborted)
        throw new ShopifyTimeoutError({ operation, timeoutMs: policy.timeoutMs, cause: error });
      throw translateClientError(error, operation);
    }
    const text = await Promise.race([response.text(), timedOut]);
    const bytes = Buffer.byteLength(text);
    if (bytes > policy.maxResponseBytes)
      throw new ShopifyResponseTooLargeError({ operation, bytes, limitBytes: policy.maxResponseBytes });
    let body: GraphqlBody;
    try {
      body = JSON.parse(text) as GraphqlBody;
    } catch (error) {
      throw new ShopifyGraphqlError({ operation, messages: ["the answer is not JSON"], cause: error });
    }
    if (body.errors?.length) throw errorFromGraphqlErrors(body.errors, body.extensions?.cost, operation);
    if (body.data == null) throw new ShopifyGraphqlError({ operation, messages: ["the answer carried no data"] });
    return { data: body.data as TData, cost: body.extensions?.cost };
  } finally {
    clearTimeout(timer);
    // Nobody waits on the timer's promise once the call settled.
    timedOut.catch(() => {});
  }
}

/** A top-level `errors` list as Shopify sends it -> throttled or other GraphQL error. */
export function errorFromGraphqlErrors(
  errors: GraphqlErrorEntry[],
  cost: QueryCost | undefined,
  operation: string,
  cause?: unknown,
): ShopifyThrottledError | ShopifyGraphqlError {
  const codes = errors.map((e) => e.extensions?.code).filter((c): c is string => typeof c === "string");
  if (codes.includes("THROTTLED")) {
    return new ShopifyThrottledError({ operation, retryAfterMs: retryAfterMsFromCost(cost), cost, cause });
  }
  return new ShopifyGraphqlError({
    operation,
    messages: errors.map((e) => e.message ?? "unknown error"),
    codes,
    cause,
  });
}

function translateClientError(error: unknown, operation: string): unknown {
  if (error instanceof GraphqlQueryError) {
    const body = error.body as { errors?: { graphQLErrors?: GraphqlErrorEntry[] }; extensions?: { cost?: QueryCost } };
    const graphQLErrors = body?.errors?.graphQLErrors ?? [{ message: error.message }];
    return errorFromGraphqlErrors(graphQLErrors, body?.extensions?.cost, operation, error);
  }
  if (error instanceof HttpThrottlingError) {
    return new ShopifyThrottledError({
      operation,
      retryAfterMs: retryAfterMsFromHeader(error.response.retryAfter),
      cause: error,
    });
  }
  if (error instanceof HttpResponseError) {
    if (error.response.code === 401) return new ShopifyUnauthorizedError({ operation, cause: error });
    return new ShopifyGraphqlError({
      operation,
      messages: [error.response.statusText || error.message],
      status: error.response.code,
      cause: error,
    });
  }
  if (error instanceof Response) return errorFromThrownResponse(error, operation);
  if (error instanceof HttpRequestError) return new ShopifyNetworkError({ operation, cause: error });
  return error; // a bug, not Shopify: the caller's own handling applies
}

/**
 * Inside authenticate.admin, the Remix package turns every HTTP error of a call into a
 * thrown Response with the upstream status (Retry-After dropped). On a 401 it first
 * forgets the access token, then throws a redirect to the session-token bounce page
 * (document request) or a bare 401 (fetch): both mean "re-authorize", and the next
 * request exchanges a new token, so a retry recovers.
 */
function errorFromThrownResponse(response: Response, operation: string): unknown {
  const { status } = response;
  if (status === 401 || (status >= 300 && status < 400))
    return new ShopifyUnauthorizedError({ operation, cause: response });
  if (status === 429)
    return new ShopifyThrottledError({ operation, retryAfterMs: DEFAULT_THROTTLE_RETRY_MS, cause: response });
  return new ShopifyGraphqlError({
    operation,
    messages: [response.statusText || `HTTP ${status}`],
    status,
    cause: response,
  });
}

/**
 * Throws a ShopifyUserError when a mutation payload carries userErrors.
 * `action` completes "Shopify refused to …" for the merchant, e.g. "add the order tags".
 */
export function throwIfUserErrors(
  operation: string,
  action: string,
  userErrors: readonly UserErrorEntry[] | null | undefined,
): void {
  if (userErrors && userErrors.length > 0) {
    throw new ShopifyUserError({ operation, action, userErrors: [...userErrors] });
  }
}
