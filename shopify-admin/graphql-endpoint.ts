/**
 * One Admin GraphQL call, checked in Shopify's order: access token (401), injected
 * faults, document syntax and validation against the schema (200 with `errors`), the
 * single-query cost limit (MAX_COST_EXCEEDED), the shop's leaky bucket (THROTTLED),
 * then execution. Every answer that reaches GraphQL carries `extensions.cost`.
 */
import {
  execute,
  GraphQLError,
  parse,
  validate,
  type DocumentNode,
  type GraphQLFieldResolver,
  type GraphQLSchema,
} from "graphql";
import type { StandInClock } from "./clock";
import { actualQueryCost, estimateQueryCost, MAX_QUERY_COST, operationOf } from "./cost";
import type { FaultRegistry, FaultRule } from "./faults";
import { INVALID_TOKEN_MESSAGE, shopifyError } from "./graphql-errors";
import type { InstallationRegistry } from "./installations";
import type { ResolverContext } from "./resolvers";
import type { FlowRegistry } from "./flow";
import { API_VERSION } from "./schema";
import type { ShopStore } from "./store";

export interface GraphqlRuntime {
  schema: GraphQLSchema;
  store: ShopStore;
  faults: FaultRegistry;
  installations: InstallationRegistry;
  clock: StandInClock;
  fieldResolver: GraphQLFieldResolver<unknown, ResolverContext>;
  flow: FlowRegistry;
}

export interface GraphqlRequest {
  shop: string | null;
  apiVersion: string;
  accessToken: string | null;
  body: string;
}

export type GraphqlAnswer =
  | { kind: "answer"; status: number; body: unknown; headers?: Record<string, string>; delayMs: number }
  | { kind: "refuse"; delayMs: number };

const THROTTLED_DOC = "https://shopify.dev/api/usage/rate-limits";

interface CheckedDocument {
  document: DocumentNode | null;
  syntaxError: GraphQLError | null;
  validationErrors: readonly GraphQLError[];
}

/**
 * A client sends the same few documents over and over: each is parsed and validated once per schema.
 * Validating against the Admin schema lists its thousands of type names each time (KnownTypeNamesRule),
 * which was a fifth of the stand-in's CPU under a soak, time the benchmarks' shared cores took from the app.
 */
const checked = new WeakMap<GraphQLSchema, Map<string, CheckedDocument>>();
const CHECKED_PER_SCHEMA = 500;

function checkedDocument(schema: GraphQLSchema, query: string): CheckedDocument {
  let known = checked.get(schema);
  if (!known) checked.set(schema, (known = new Map()));
  const hit = known.get(query);
  if (hit) return hit;
  let result: CheckedDocument;
  try {
    const document = parse(query);
    result = { document, syntaxError: null, validationErrors: validate(schema, document) };
  } catch (error) {
    const syntaxError = error instanceof GraphQLError ? error : new GraphQLError(String(error));
    result = { document: null, syntaxError, validationErrors: [] };
  }
  if (known.size >= CHECKED_PER_SCHEMA) known.delete(known.keys().next().value!);
  known.set(query, result);
  return result;
}

export async function answerGraphql(rt: GraphqlRuntime, request: GraphqlRequest): Promise<GraphqlAnswer> {
  const startedAt = rt.clock.now();
  let payload: { query?: unknown; variables?: unknown; operationName?: unknown };
  try {
    payload = JSON.parse(request.body || "{}");
    if (!payload || typeof payload !== "object") payload = {};
  } catch {
    payload = {};
  }
  const query = typeof payload.query === "string" ? payload.query : "";
  const variables =
    payload.variables && typeof payload.variables === "object" ? (payload.variables as Record<string, unknown>) : {};
  const requestedName = typeof payload.operationName === "string" ? payload.operationName : null;

  const { document, syntaxError, validationErrors } = checkedDocument(rt.schema, query);
  const operationName = requestedName ?? (document ? (operationOf(document)?.name?.value ?? null) : null);
  const state = rt.store.stateFor(request.shop);
  const bucket = rt.store.bucket(request.shop);

  const log = (
    status: number,
    extra: { requested?: number | null; actual?: number | null; throttled?: boolean; fault?: string | null } = {},
  ) =>
    rt.store.recordCall({
      at: new Date(startedAt).toISOString(),
      shop: request.shop,
      accessToken: request.accessToken,
      apiVersion: request.apiVersion,
      operationName,
      query,
      variables,
      status,
      requestedQueryCost: extra.requested ?? null,
      actualQueryCost: extra.actual ?? null,
      throttled: extra.throttled ?? false,
      fault: extra.fault ?? null,
      durationMs: Math.max(0, rt.clock.now() - startedAt),
    });

  if (request.apiVersion !== API_VERSION) {
    return { kind: "answer", status: 404, body: { errors: `Unknown API version ${request.apiVersion}` }, delayMs: 0 };
  }
  if (rt.installations.check(request.shop, request.accessToken, rt.clock.now()) !== "ok") {
    log(401);
    return { kind: "answer", status: 401, body: { errors: INVALID_TOKEN_MESSAGE }, delayMs: 0 };
  }

  const requested = document && !syntaxError ? estimateQueryCost(rt.schema, document, variables, requestedName) : 1;
  const cost = (available: number, actual: number | null) => ({
    requestedQueryCost: requested,
    actualQueryCost: actual,
    throttleStatus: { ...bucket.status(rt.clock.now()), currentlyAvailable: available },
  });

  const { delayMs, rule } = rt.faults.take(request.shop, operationName);
  const silent = rule?.kind === "silent";
  const brokenPages = rule?.kind === "no_cursor" || rule?.kind === "same_cursor" ? rule.kind : null;
  if (rule && !silent && !brokenPages) {
    const answer = faultAnswer(rule, cost(0, null), delayMs);
    log(answer.kind === "refuse" ? 0 : answer.status, {
      fault: rule.kind,
      throttled: rule.kind === "throttled",
      requested,
    });
    return answer;
  }
  const answer = (
    status: number,
    body: unknown,
    extra: Parameters<typeof log>[1] = {},
    headers?: Record<string, string>,
  ): GraphqlAnswer => {
    log(status, silent ? { ...extra, fault: "silent" } : extra);
    return { kind: "answer", status, body, headers, delayMs };
  };

  if (state.http429Next > 0) {
    state.http429Next -= 1;
    const message = "Exceeded 2 calls per second for api client. Reduce request rates to resume uninterrupted service.";
    return answer(429, { errors: message }, { fault: "http429" }, { "retry-after": "3" });
  }
  if (syntaxError || !document) {
    const error = syntaxError ?? new GraphQLError("No query string was present");
    return answer(200, {
      errors: [shopifyError(error)],
      extensions: { cost: cost(bucket.currentlyAvailable(rt.clock.now()), null) },
    });
  }
  if (state.throttleNext > 0) {
    state.throttleNext -= 1;
    return answer(200, throttledBody(cost(0, null)), { throttled: true, requested, fault: "throttleNext" });
  }
  const full = () => cost(bucket.currentlyAvailable(rt.clock.now()), null);
  if (validationErrors.length) {
    return answer(200, { errors: validationErrors.map(shopifyError), extensions: { cost: full() } }, { requested });
  }
  if (requested > MAX_QUERY_COST) {
    return answer(
      200,
      {
        errors: [
          {
            message: `Query cost is ${requested}, which exceeds the single query max cost limit (${MAX_QUERY_COST}).`,
            extensions: { code: "MAX_COST_EXCEEDED", cost: requested, maxCost: MAX_QUERY_COST },
          },
        ],
        extensions: { cost: full() },
      },
      { requested },
    );
  }
  const now = rt.clock.now();
  if (!bucket.canAfford(requested, now)) {
    return answer(200, throttledBody(cost(bucket.currentlyAvailable(now), null)), { throttled: true, requested });
  }
  const result = await execute({
    schema: rt.schema,
    document,
    variableValues: variables,
    operationName: requestedName ?? undefined,
    // A silent fault runs the call on a copy of the shop: its answer says done, nothing changed.
    contextValue: {
      state: silent ? structuredClone(state) : state,
      now: () => rt.clock.now(),
      shop: request.shop,
      flow: rt.flow,
    } satisfies ResolverContext,
    fieldResolver: rt.fieldResolver,
  });
  if (result.data === undefined || result.data === null) {
    // Variables that do not coerce: nothing ran, nothing is charged.
    return answer(
      200,
      { errors: (result.errors ?? []).map(shopifyError), extensions: { cost: full() } },
      { requested },
    );
  }
  const actual = actualQueryCost(rt.schema, document, result.data, requested, requestedName);
  bucket.charge(actual, rt.clock.now());
  if (brokenPages) breakPageInfo(result.data, brokenPages, variables.after);
  return answer(
    200,
    {
      data: result.data,
      ...(result.errors?.length ? { errors: result.errors.map(shopifyError) } : {}),
      extensions: { cost: cost(bucket.currentlyAvailable(rt.clock.now()), actual) },
    },
    { requested, actual },
  );
}

/** Every pageInfo of the answer says a next page exists, with no new cursor (a fault: Shopify never answers so). */
function breakPageInfo(data: unknown, kind: "no_cursor" | "same_cursor", after: unknown): void {
  if (!data || typeof data !== "object") return;
  for (const [key, value] of Object.entries(data)) {
    if (key === "pageInfo" && value && typeof value === "object") {
      const info = value as { hasNextPage?: boolean; endCursor?: string | null };
      info.hasNextPage = true;
      info.endCursor = kind === "no_cursor" ? null : typeof after === "string" ? after : (info.endCursor ?? null);
    } else breakPageInfo(value, kind, after);
  }
}

function throttledBody(cost: unknown) {
  return {
    errors: [{ message: "Throttled", extensions: { code: "THROTTLED", documentation: THROTTLED_DOC } }],
    extensions: { cost },
  };
}

function faultAnswer(rule: FaultRule, emptyCost: unknown, delayMs: number): GraphqlAnswer {
  switch (rule.kind) {
    case "refuse":
      return { kind: "refuse", delayMs };
    case "throttled":
      return { kind: "answer", status: 200, body: throttledBody(emptyCost), delayMs };
    case "unauthorized":
      return { kind: "answer", status: 401, body: { errors: INVALID_TOKEN_MESSAGE }, delayMs };
    default: {
      const text =
        rule.status === 503 ? "Service Unavailable" : rule.status === 502 ? "Bad Gateway" : "Internal Server Error";
      return { kind: "answer", status: rule.status, body: { errors: text }, delayMs };
    }
  }
}
