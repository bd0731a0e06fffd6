/**
 * A local stand-in for Shopify's Admin GraphQL endpoint: documents are parsed,
 * validated and executed against the real Admin schema (SDL in test/fixtures/), with
 * resolvers backed by an in-memory `state` that tests set up and assert on.
 *
 * Like Shopify it answers 200 with `errors` for syntax/validation errors, THROTTLED and
 * MAX_COST_EXCEEDED, and puts `extensions.cost` on every answer. Fields with no data in
 * `state` resolve to null; mutations the app does not use are not implemented.
 *
 * installFetchRewrite() points @shopify/shopify-api's fetch at this server (DESIGN §4).
 */
import { readFileSync } from "node:fs";
import type { ServerResponse } from "node:http";
import {
  buildSchema,
  execute,
  getNamedType,
  GraphQLError,
  isCompositeType,
  isObjectType,
  isInterfaceType,
  Kind,
  parse,
  validate,
  type DocumentNode,
  type ExecutionResult,
  type GraphQLCompositeType,
  type GraphQLFieldResolver,
  type GraphQLResolveInfo,
  type GraphQLSchema,
  type OperationDefinitionNode,
  type SelectionSetNode,
} from "graphql";
import { startLoopbackServer } from "./loopback-server";

export const ADMIN_SCHEMA_PATH = new URL("../fixtures/admin-2026-07.schema.graphql", import.meta.url).pathname;
export const FAKE_API_VERSION = "2026-07";
/** Shopify's single-query ceiling. */
export const MAX_QUERY_COST = 1000;
const BUCKET = { maximumAvailable: 2000, restoreRate: 100 };
/** Set by the fetch rewrite: the shop the client meant to call. */
const SHOP_HEADER = "x-fake-shop-domain";

// buildSchema takes a second or two on the 3.8 MB SDL: once per test file (module).
const schemas = new Map<string, GraphQLSchema>();
export function loadAdminSchema(path = ADMIN_SCHEMA_PATH): GraphQLSchema {
  let schema = schemas.get(path);
  if (!schema) {
    schema = buildSchema(readFileSync(path, "utf8"));
    schemas.set(path, schema);
  }
  return schema;
}

// ---------------------------------------------------------------- state

export interface FakeUserError {
  field: string[] | null;
  message: string;
  code?: string;
}

export interface FakeFulfillmentOrderLineItem {
  __typename: "FulfillmentOrderLineItem";
  id: string;
  totalQuantity: number;
  remainingQuantity: number;
  sku: string | null;
}

export interface FakeFulfillmentOrder {
  __typename: "FulfillmentOrder";
  id: string;
  /** FulfillmentOrderStatus */
  status: string;
  supportedActions: { action: string }[];
  assignedLocation: { location: { __typename: "Location"; id: string; name: string } | null; name: string };
  lineItems: FakeFulfillmentOrderLineItem[];
}

export interface FakeFulfillment {
  __typename: "Fulfillment";
  id: string;
  status: string;
  trackingInfo: { number: string | null; company: string | null; url: string | null }[];
  notifyCustomer: boolean;
  fulfillmentOrderIds: string[];
  lineItems: { fulfillmentOrderLineItemId: string; quantity: number }[];
}

export interface FakeCancellation {
  reason: string;
  restock: boolean;
  refund: boolean | null;
  refundMethod: unknown;
  notifyCustomer: boolean;
  staffNote: string | null;
}

export interface FakeOrder {
  __typename: "Order";
  id: string;
  name: string;
  tags: string[];
  /** OrderDisplayFinancialStatus */
  displayFinancialStatus: string;
  canMarkAsPaid: boolean;
  cancelledAt: string | null;
  cancellation: FakeCancellation | null;
  fulfillmentOrders: FakeFulfillmentOrder[];
  fulfillments: FakeFulfillment[];
  lineItems: Record<string, unknown>[];
  /** Any other Order field, served as is. */
  [field: string]: unknown;
}

export interface FakeProductVariant {
  __typename: "ProductVariant";
  id: string;
  sku: string | null;
  title: string;
  displayName: string;
  product: { __typename: "Product"; id: string; title: string };
}

export type FakeMutation = "tagsAdd" | "tagsRemove" | "fulfillmentCreate" | "orderMarkAsPaid" | "orderCancel";

export interface FakeAdminState {
  orders: Record<string, FakeOrder>;
  productVariants: FakeProductVariant[];
  /** The next N GraphQL calls answer THROTTLED (HTTP 200), as Shopify does. */
  throttleNext: number;
  /** The next N calls answer HTTP 429 with Retry-After: 3 (seconds). */
  http429Next: number;
  /** The next call of that mutation answers these userErrors and changes nothing. */
  userErrorsNext: Partial<Record<FakeMutation, FakeUserError[]>>;
}

export interface FakeAdminRequest {
  shop: string | null;
  accessToken: string | null;
  apiVersion: string;
  operationName: string | null;
  query: string;
  variables: Record<string, unknown>;
}

let sequence = 1000;
const nextId = () => ++sequence;

export interface FakeOrderInit {
  id?: number;
  name?: string;
  tags?: string[];
  displayFinancialStatus?: string;
  canMarkAsPaid?: boolean;
  lines?: { sku: string; quantity: number; title?: string }[];
  /** Defaults to one OPEN, merchant-managed fulfillment order holding every line. */
  fulfillmentOrders?: FakeFulfillmentOrder[];
  fields?: Record<string, unknown>;
}

/** A typical storefront COD order in MAD, with what ORDERS_PAGE and the write-back read. */
export function fakeOrder(init: FakeOrderInit = {}): FakeOrder {
  const number = init.id ?? nextId();
  const lines = init.lines ?? [{ sku: "ARGAN-50", quantity: 2, title: "Argan oil 50 ml" }];
  const lineItems = lines.map((line, i) => ({
    __typename: "LineItem",
    id: `gid://shopify/LineItem/${number}${i}`,
    sku: line.sku,
    name: line.title ?? line.sku,
    title: line.title ?? line.sku,
    quantity: line.quantity,
    currentQuantity: line.quantity,
    requiresShipping: true,
    isGiftCard: false,
    variant: { __typename: "ProductVariant", id: `gid://shopify/ProductVariant/${number}${i}`, sku: line.sku },
    product: { __typename: "Product", id: `gid://shopify/Product/${number}${i}` },
  }));
  const address = {
    firstName: "Salma",
    lastName: "Bennani",
    name: "Salma Bennani",
    address1: "12 Rue Ibn Batouta",
    address2: null,
    city: "Casablanca",
    province: null,
    zip: "20000",
    countryCodeV2: "MA",
    phone: "+212612345678",
  };
  const money = { amount: "398.00", currencyCode: "MAD" };
  return {
    __typename: "Order",
    id: `gid://shopify/Order/${number}`,
    name: init.name ?? `#${number}`,
    tags: init.tags ?? [],
    displayFinancialStatus: init.displayFinancialStatus ?? "PENDING",
    canMarkAsPaid: init.canMarkAsPaid ?? (init.displayFinancialStatus ?? "PENDING") !== "PAID",
    cancelledAt: null,
    cancellation: null,
    fulfillmentOrders: init.fulfillmentOrders ?? [
      fakeFulfillmentOrder({ lines: lineItems.map((li) => ({ sku: li.sku, quantity: li.quantity })) }),
    ],
    fulfillments: [],
    lineItems,
    phone: "+212612345678",
    email: null,
    currencyCode: "MAD",
    presentmentCurrencyCode: "MAD",
    currentTotalPriceSet: { shopMoney: money, presentmentMoney: money },
    paymentGatewayNames: ["Cash on Delivery (COD)"],
    test: false,
    createdAt: "2026-07-01T10:00:00Z",
    updatedAt: "2026-07-01T10:00:00Z",
    customer: {
      __typename: "Customer",
      id: `gid://shopify/Customer/${number}`,
      firstName: "Salma",
      lastName: "Bennani",
      defaultPhoneNumber: { phoneNumber: "+212612345678" },
    },
    shippingAddress: address,
    billingAddress: address,
    ...init.fields,
  };
}

export function fakeFulfillmentOrder(init: {
  status?: string;
  actions?: string[];
  locationId?: string;
  lines: { sku: string | null; quantity: number; remaining?: number }[];
}): FakeFulfillmentOrder {
  const locationId = init.locationId ?? "gid://shopify/Location/1";
  return {
    __typename: "FulfillmentOrder",
    id: `gid://shopify/FulfillmentOrder/${nextId()}`,
    status: init.status ?? "OPEN",
    supportedActions: (init.actions ?? ["CREATE_FULFILLMENT", "HOLD", "MOVE"]).map((action) => ({ action })),
    assignedLocation: { location: { __typename: "Location", id: locationId, name: "Entrepôt Casablanca" }, name: "Entrepôt Casablanca" },
    lineItems: init.lines.map((line) => ({
      __typename: "FulfillmentOrderLineItem",
      id: `gid://shopify/FulfillmentOrderLineItem/${nextId()}`,
      totalQuantity: line.quantity,
      remainingQuantity: line.remaining ?? line.quantity,
      sku: line.sku,
    })),
  };
}

export function fakeVariant(init: { id: number; sku: string | null; title: string; productId?: number; productTitle?: string }): FakeProductVariant {
  const productTitle = init.productTitle ?? "Product";
  return {
    __typename: "ProductVariant",
    id: `gid://shopify/ProductVariant/${init.id}`,
    sku: init.sku,
    title: init.title,
    displayName: `${productTitle} - ${init.title}`,
    product: { __typename: "Product", id: `gid://shopify/Product/${init.productId ?? init.id}`, title: productTitle },
  };
}

// ---------------------------------------------------------------- cost

/**
 * Shopify's published rules, approximately: objects 1, scalars and enums 0,
 * connections 2 + first x (cost of the selection), mutations 10.
 */
export function estimateQueryCost(schema: GraphQLSchema, document: DocumentNode, variables: Record<string, unknown> = {}): number {
  const operation = document.definitions.find((d): d is OperationDefinitionNode => d.kind === Kind.OPERATION_DEFINITION);
  if (!operation) return 1;
  if (operation.operation === "mutation") return 10;
  return Math.max(1, selectionCost(schema, schema.getQueryType()!, operation.selectionSet, variables));
}

function selectionCost(
  schema: GraphQLSchema,
  parent: GraphQLCompositeType,
  set: SelectionSetNode,
  variables: Record<string, unknown>,
): number {
  let total = 0;
  for (const selection of set.selections) {
    if (selection.kind === Kind.INLINE_FRAGMENT) {
      const onType = selection.typeCondition ? schema.getType(selection.typeCondition.name.value) : parent;
      if (onType && isCompositeType(onType)) total += selectionCost(schema, onType, selection.selectionSet, variables);
      continue;
    }
    if (selection.kind !== Kind.FIELD || !selection.selectionSet) continue;
    if (!isObjectType(parent) && !isInterfaceType(parent)) continue;
    const field = parent.getFields()[selection.name.value];
    const type = field && getNamedType(field.type);
    if (!type || !isCompositeType(type)) continue;
    const inner = selectionCost(schema, type, selection.selectionSet, variables);
    const firstArg = selection.arguments?.find((a) => a.name.value === "first" || a.name.value === "last");
    let first: number | undefined;
    if (firstArg?.value.kind === Kind.INT) first = Number(firstArg.value.value);
    if (firstArg?.value.kind === Kind.VARIABLE) first = Number(variables[firstArg.value.name.value] ?? 0);
    total += type.name.endsWith("Connection") ? 2 + (first ?? 0) * inner : 1 + inner;
  }
  return total;
}

// ---------------------------------------------------------------- resolvers

type Args = Record<string, unknown>;
type Resolver = (source: unknown, args: Args, state: FakeAdminState, info: GraphQLResolveInfo) => unknown;

const cursorOf = (index: number) => Buffer.from(`cursor:${index}`).toString("base64");
const indexOf = (cursor: string) => Number(Buffer.from(cursor, "base64").toString("utf8").replace("cursor:", ""));

function connection(items: readonly unknown[], args: Args) {
  const start = typeof args.after === "string" ? indexOf(args.after) + 1 : 0;
  const first = typeof args.first === "number" ? args.first : items.length;
  const page = items.slice(start, start + first);
  return {
    nodes: page,
    edges: page.map((node, i) => ({ cursor: cursorOf(start + i), node })),
    pageInfo: {
      hasNextPage: start + page.length < items.length,
      hasPreviousPage: start > 0,
      startCursor: page.length ? cursorOf(start) : null,
      endCursor: page.length ? cursorOf(start + page.length - 1) : null,
    },
  };
}

/** Search syntax, the part the app uses: `sku:VALUE` exact, other words as substrings. */
function matchesVariantQuery(variant: FakeProductVariant, query: unknown): boolean {
  if (typeof query !== "string" || !query.trim()) return true;
  return query
    .trim()
    .split(/\s+/)
    .every((term) => {
      const [key, value] = term.includes(":") ? term.split(/:(.*)/s) : [null, term];
      const v = value.replace(/^"|"$/g, "").toLowerCase();
      if (key === "sku") return (variant.sku ?? "").toLowerCase() === v;
      return [variant.sku, variant.title, variant.displayName].some((s) => (s ?? "").toLowerCase().includes(v));
    });
}

const sameTag = (a: string, b: string) => a.trim().toLowerCase() === b.trim().toLowerCase();
const splitTags = (tags: unknown) =>
  (Array.isArray(tags) ? tags : [])
    .flatMap((t) => String(t).split(","))
    .map((t) => t.trim())
    .filter(Boolean);

function takeUserErrors(state: FakeAdminState, mutation: FakeMutation): FakeUserError[] | null {
  const errors = state.userErrorsNext[mutation];
  if (!errors) return null;
  delete state.userErrorsNext[mutation];
  return errors;
}

const orderNotFound = (field: string[]): FakeUserError[] => [{ field, message: "Order does not exist", code: "NOT_FOUND" }];

function fulfillmentCreate(state: FakeAdminState, args: Args) {
  const forced = takeUserErrors(state, "fulfillmentCreate");
  if (forced) return { fulfillment: null, userErrors: forced };
  const input = args.fulfillment as {
    lineItemsByFulfillmentOrder: { fulfillmentOrderId: string; fulfillmentOrderLineItems?: { id: string; quantity: number }[] | null }[];
    trackingInfo?: { number?: string | null; company?: string | null; url?: string | null } | null;
    notifyCustomer?: boolean | null;
  };
  const fail = (message: string, field: string[] = ["fulfillment"]) => ({ fulfillment: null, userErrors: [{ field, message }] });
  const found = input.lineItemsByFulfillmentOrder.map((group) => {
    for (const order of Object.values(state.orders)) {
      const fo = order.fulfillmentOrders.find((f) => f.id === group.fulfillmentOrderId);
      if (fo) return { order, fo, group };
    }
    return null;
  });
  if (!found.length) return fail("Line items by fulfillment order must not be empty.");
  const missing = found.findIndex((f) => !f);
  if (missing >= 0) {
    return fail("Fulfillment order does not exist.", ["fulfillment", "lineItemsByFulfillmentOrder", String(missing), "fulfillmentOrderId"]);
  }
  const groups = found.filter((f): f is NonNullable<typeof f> => f !== null);
  if (new Set(groups.map((g) => g.order.id)).size > 1) return fail("All fulfillment orders must belong to the same order.");
  if (new Set(groups.map((g) => g.fo.assignedLocation.location?.id)).size > 1) {
    return fail("All fulfillment orders must be assigned to the same location.");
  }
  const planned: { fo: FakeFulfillmentOrder; lineId: string; quantity: number }[] = [];
  for (const { fo, group } of groups) {
    if (!["OPEN", "IN_PROGRESS"].includes(fo.status) || !fo.supportedActions.some((a) => a.action === "CREATE_FULFILLMENT")) {
      return fail(`Fulfillment order ${fo.id} has an unfulfillable status= ${fo.status.toLowerCase()}.`);
    }
    const requested = group.fulfillmentOrderLineItems ?? fo.lineItems.map((li) => ({ id: li.id, quantity: li.remainingQuantity }));
    for (const { id, quantity } of requested) {
      const line = fo.lineItems.find((li) => li.id === id);
      if (!line || quantity < 1 || quantity > line.remainingQuantity) {
        return fail("Invalid fulfillment order line item quantity requested.");
      }
      planned.push({ fo, lineId: id, quantity });
    }
  }
  for (const { fo, lineId, quantity } of planned) fo.lineItems.find((li) => li.id === lineId)!.remainingQuantity -= quantity;
  for (const { fo } of groups) fo.status = fo.lineItems.every((li) => li.remainingQuantity === 0) ? "CLOSED" : "IN_PROGRESS";
  const order = groups[0].order;
  const tracking = input.trackingInfo;
  const fulfillment: FakeFulfillment = {
    __typename: "Fulfillment",
    id: `gid://shopify/Fulfillment/${nextId()}`,
    status: "SUCCESS",
    trackingInfo: tracking ? [{ number: tracking.number ?? null, company: tracking.company ?? null, url: tracking.url ?? null }] : [],
    notifyCustomer: input.notifyCustomer ?? false,
    fulfillmentOrderIds: groups.map((g) => g.fo.id),
    lineItems: planned.map((p) => ({ fulfillmentOrderLineItemId: p.lineId, quantity: p.quantity })),
  };
  order.fulfillments.push(fulfillment);
  order.displayFulfillmentStatus = order.fulfillmentOrders.every((fo) => fo.status === "CLOSED") ? "FULFILLED" : "PARTIALLY_FULFILLED";
  return { fulfillment, userErrors: [] };
}

function orderCancel(state: FakeAdminState, args: Args) {
  const forced = takeUserErrors(state, "orderCancel");
  if (forced) return { job: null, orderCancelUserErrors: forced, userErrors: forced };
  const order = state.orders[String(args.orderId)];
  const fail = (errors: FakeUserError[]) => ({ job: null, orderCancelUserErrors: errors, userErrors: errors });
  if (!order) return fail(orderNotFound(["orderId"]));
  if (order.cancelledAt) {
    return fail([{ field: ["orderId"], message: "Cannot cancel an order that has already been canceled.", code: "INVALID" }]);
  }
  order.cancelledAt = new Date().toISOString();
  order.cancellation = {
    reason: String(args.reason),
    restock: Boolean(args.restock),
    refund: typeof args.refund === "boolean" ? args.refund : null,
    refundMethod: args.refundMethod ?? null,
    notifyCustomer: Boolean(args.notifyCustomer),
    staffNote: typeof args.staffNote === "string" ? args.staffNote : null,
  };
  order.canMarkAsPaid = false;
  for (const fo of order.fulfillmentOrders) if (fo.status !== "CLOSED") fo.status = "CLOSED";
  return { job: { __typename: "Job", id: `gid://shopify/Job/${nextId()}`, done: false }, orderCancelUserErrors: [], userErrors: [] };
}

function resolversFor(schema: GraphQLSchema): Record<string, Record<string, Resolver>> {
  return {
    [schema.getQueryType()!.name]: {
      order: (_s, args, state) => state.orders[String(args.id)] ?? null,
      orders: (_s, args, state) => connection(Object.values(state.orders), args),
      productVariants: (_s, args, state) =>
        connection(state.productVariants.filter((v) => matchesVariantQuery(v, args.query)), args),
    },
    [schema.getMutationType()!.name]: {
      tagsAdd: (_s, args, state) => {
        const forced = takeUserErrors(state, "tagsAdd");
        if (forced) return { node: null, userErrors: forced };
        const order = state.orders[String(args.id)];
        if (!order) return { node: null, userErrors: orderNotFound(["id"]) };
        for (const tag of splitTags(args.tags)) if (!order.tags.some((t) => sameTag(t, tag))) order.tags.push(tag);
        return { node: order, userErrors: [] };
      },
      tagsRemove: (_s, args, state) => {
        const forced = takeUserErrors(state, "tagsRemove");
        if (forced) return { node: null, userErrors: forced };
        const order = state.orders[String(args.id)];
        if (!order) return { node: null, userErrors: orderNotFound(["id"]) };
        const removed = splitTags(args.tags);
        order.tags = order.tags.filter((t) => !removed.some((r) => sameTag(r, t)));
        return { node: order, userErrors: [] };
      },
      fulfillmentCreate: (_s, args, state) => fulfillmentCreate(state, args),
      orderMarkAsPaid: (_s, args, state) => {
        const forced = takeUserErrors(state, "orderMarkAsPaid");
        if (forced) return { order: null, userErrors: forced };
        const id = String((args.input as { id: string }).id);
        const order = state.orders[id];
        if (!order) return { order: null, userErrors: orderNotFound(["input", "id"]) };
        if (!order.canMarkAsPaid) return { order, userErrors: [{ field: ["input", "id"], message: "Order cannot be marked as paid." }] };
        order.displayFinancialStatus = "PAID";
        order.canMarkAsPaid = false;
        return { order, userErrors: [] };
      },
      orderCancel: (_s, args, state) => orderCancel(state, args),
    },
  };
}

// ---------------------------------------------------------------- server

export interface FakeAdminApi {
  url: string;
  state: FakeAdminState;
  requests: FakeAdminRequest[];
  /** URLs the fetch rewrite refused (anything not Shopify and not loopback). */
  refused: string[];
  schema: GraphQLSchema;
  addOrder(init?: FakeOrderInit): FakeOrder;
  /** Routes @shopify/shopify-api's fetch here; undone by close(). */
  installFetchRewrite(): Promise<void>;
  close(): Promise<void>;
}

function send(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) {
  res.writeHead(status, { "content-type": "application/json", ...headers });
  res.end(JSON.stringify(body));
}

export async function startFakeAdminApi(options: { schemaPath?: string } = {}): Promise<FakeAdminApi> {
  const schema = loadAdminSchema(options.schemaPath);
  const resolvers = resolversFor(schema);
  const state: FakeAdminState = { orders: {}, productVariants: [], throttleNext: 0, http429Next: 0, userErrorsNext: {} };
  const requests: FakeAdminRequest[] = [];
  const refused: string[] = [];

  const fieldResolver: GraphQLFieldResolver<unknown, FakeAdminState> = (source, args, context, info) => {
    const explicit = resolvers[info.parentType.name]?.[info.fieldName];
    if (explicit) return explicit(source, args, context, info);
    if (source === null || typeof source !== "object") return null;
    const value = (source as Record<string, unknown>)[info.fieldName];
    if (Array.isArray(value) && getNamedType(info.returnType).name.endsWith("Connection")) return connection(value, args);
    return value ?? null;
  };

  const server = await startLoopbackServer(async (req, body, res) => {
    const match = /^\/admin\/api\/([^/]+)\/graphql\.json$/.exec(new URL(req.url ?? "/", "http://x").pathname);
    if (req.method !== "POST" || !match) return send(res, 404, { errors: "Not Found" });
    if (match[1] !== FAKE_API_VERSION) return send(res, 404, { errors: `Unknown API version ${match[1]}` });
    const accessToken = (req.headers["x-shopify-access-token"] as string | undefined) ?? null;
    if (!accessToken) {
      return send(res, 401, { errors: "[API] Invalid API key or access token (unrecognized login or wrong password)" });
    }
    const { query = "", variables = {}, operationName = null } = JSON.parse(body || "{}") as {
      query?: string;
      variables?: Record<string, unknown> | null;
      operationName?: string | null;
    };
    let document: DocumentNode | null = null;
    let syntaxError: GraphQLError | null = null;
    try {
      document = parse(query);
    } catch (error) {
      syntaxError = error instanceof GraphQLError ? error : new GraphQLError(String(error));
    }
    const operation = document?.definitions.find((d): d is OperationDefinitionNode => d.kind === Kind.OPERATION_DEFINITION);
    requests.push({
      shop: (req.headers[SHOP_HEADER] as string | undefined) ?? null,
      accessToken,
      apiVersion: match[1],
      operationName: operationName ?? operation?.name?.value ?? null,
      query,
      variables: variables ?? {},
    });

    if (state.http429Next > 0) {
      state.http429Next -= 1;
      const message = "Exceeded 2 calls per second for api client. Reduce request rates to resume uninterrupted service.";
      return send(res, 429, { errors: message }, { "retry-after": "3" });
    }
    const requestedQueryCost = document ? estimateQueryCost(schema, document, variables ?? {}) : 1;
    const cost = (available: number, actual: number | null) => ({
      requestedQueryCost,
      actualQueryCost: actual,
      throttleStatus: { ...BUCKET, currentlyAvailable: available },
    });
    if (state.throttleNext > 0) {
      state.throttleNext -= 1;
      return send(res, 200, {
        errors: [{ message: "Throttled", extensions: { code: "THROTTLED", documentation: "https://shopify.dev/api/usage/rate-limits" } }],
        extensions: { cost: cost(0, null) },
      });
    }
    const full = cost(BUCKET.maximumAvailable, null);
    if (syntaxError || !document) {
      return send(res, 200, { errors: [(syntaxError ?? new GraphQLError("No query")).toJSON()], extensions: { cost: full } });
    }
    const validationErrors = validate(schema, document);
    if (validationErrors.length) {
      return send(res, 200, { errors: validationErrors.map((e) => e.toJSON()), extensions: { cost: full } });
    }
    if (requestedQueryCost > MAX_QUERY_COST) {
      return send(res, 200, {
        errors: [
          {
            message: `Query cost is ${requestedQueryCost}, which exceeds the single query max cost limit (${MAX_QUERY_COST}).`,
            extensions: { code: "MAX_COST_EXCEEDED", cost: requestedQueryCost, maxCost: MAX_QUERY_COST },
          },
        ],
        extensions: { cost: full },
      });
    }
    const result: ExecutionResult = await execute({
      schema,
      document,
      variableValues: variables ?? {},
      operationName: operationName ?? undefined,
      contextValue: state,
      fieldResolver,
    });
    const answer = {
      ...(result.data !== undefined ? { data: result.data } : {}),
      ...(result.errors?.length ? { errors: result.errors.map((e) => e.toJSON()) } : {}),
      extensions: { cost: cost(BUCKET.maximumAvailable - requestedQueryCost, requestedQueryCost) },
    };
    return send(res, 200, answer);
  });

  let restoreFetch: (() => void) | null = null;

  return {
    url: server.url,
    state,
    requests,
    refused,
    schema,
    addOrder(init) {
      const order = fakeOrder(init);
      state.orders[order.id] = order;
      return order;
    },
    async installFetchRewrite() {
      if (restoreFetch) return;
      // The Remix package installs its adapter's fetch when first imported: import it
      // first so it cannot overwrite the rewrite afterwards.
      await import("@shopify/shopify-app-remix/adapters/node");
      await import("@shopify/shopify-app-remix/server");
      const runtime = await import("@shopify/shopify-api/runtime");
      const previous = runtime.abstractFetch;
      const realFetch = globalThis.fetch;
      const rewrite = async (input: RequestInfo | URL, init?: RequestInit): Promise<Response> => {
        const request = new Request(input, init);
        const url = new URL(request.url);
        if (url.hostname === "127.0.0.1" || url.hostname === "localhost") return realFetch(input, init);
        if (url.protocol === "https:" && url.hostname.endsWith(".myshopify.com")) {
          const headers = new Headers(request.headers);
          headers.set(SHOP_HEADER, url.hostname);
          const payload = request.method === "GET" || request.method === "HEAD" ? undefined : await request.arrayBuffer();
          const target = `${server.url}${url.pathname}${url.search}`;
          return realFetch(target, { method: request.method, headers, body: payload, signal: request.signal });
        }
        refused.push(url.href);
        throw new Error(`network is not allowed in tests: ${url.href}`);
      };
      runtime.setAbstractFetchFunc(rewrite as typeof fetch);
      restoreFetch = () => runtime.setAbstractFetchFunc(previous);
    },
    async close() {
      restoreFetch?.();
      restoreFetch = null;
      await server.close();
    },
  };
}
