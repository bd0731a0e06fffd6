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
 *   statuses are `HttpResponseError`s.
 */
import { GraphqlQueryError, HttpResponseError, HttpThrottlingError } from "@shopify/shopify-api";
import type { AdminApiContext } from "@shopify/shopify-app-remix/server";
import {
  ShopifyGraphqlError,
  ShopifyThrottledError,
  ShopifyUserError,
  type QueryCost,
  type UserErrorEntry,
} from "./errors";
import { retryAfterMsFromCost, retryAfterMsFromHeader } from "./throttle";

export { ShopifyGraphqlError, ShopifyThrottledError, ShopifyUserError } from "./errors";

/** The part of the Remix admin context this module uses (also what tests fake). */
export type AdminGraphqlClient = Pick<AdminApiContext, "graphql">;

export type GraphqlVariables = Record<string, unknown>;

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

/** Runs a document and returns its `data`, or throws a ShopifyAdminError subclass. */
export async function runAdminGraphql<TData>(
  admin: AdminGraphqlClient,
  document: string,
  variables: GraphqlVariables = {},
): Promise<TData> {
  const operation = operationName(document);
  let response: Response;
  try {
    response = await admin.graphql(document, { variables });
  } catch (error) {
    throw translateClientError(error, operation);
  }
  const body = (await response.json()) as GraphqlBody;
  if (body.errors?.length) throw errorFromGraphqlErrors(body.errors, body.extensions?.cost, operation);
  if (body.data == null) throw new ShopifyGraphqlError({ operation, messages: ["the answer carried no data"] });
  return body.data as TData;
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
  return new ShopifyGraphqlError({ operation, messages: errors.map((e) => e.message ?? "unknown error"), codes, cause });
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
    return new ShopifyGraphqlError({
      operation,
      messages: [error.response.statusText || error.message],
      status: error.response.code,
      cause: error,
    });
  }
  return error; // network failures and the like: the caller's retry policy applies
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
