/**
 * Resolvers over a ShopState: the queries and mutations the app sends, applied to the
 * state so later queries read the change back. Every other field is served by the
 * default resolver from the records (arrays under a connection field paginate).
 */
import { getNamedType, type GraphQLFieldResolver, type GraphQLResolveInfo, type GraphQLSchema } from "graphql";
import type { FlowRegistry } from "./flow";
import {
  nextId,
  type FulfillmentOrderRecord,
  type FulfillmentRecord,
  type MutationName,
  type OrderRecord,
  type RiskAssessmentRecord,
  type UserError,
} from "./records";
import { matchesOrder, matchesVariant } from "./search";
import { ordersById, type ShopState } from "./store";
import { checkWebPixelSettings } from "./web-pixels";

export interface ResolverContext {
  state: ShopState;
  now: () => number;
  /** the calling shop (null for the fallback state) */
  shop?: string | null;
  flow?: FlowRegistry;
}

type Args = Record<string, unknown>;
type Resolver = (source: unknown, args: Args, context: ResolverContext, info: GraphQLResolveInfo) => unknown;

const cursorOf = (index: number) => Buffer.from(`cursor:${index}`).toString("base64");
const indexOf = (cursor: string) => Number(Buffer.from(cursor, "base64").toString("utf8").replace("cursor:", ""));

/** Forward pagination (first/after) and `reverse`, cursors opaque as Shopify's. */
export function connection(items: readonly unknown[], args: Args) {
  const list = args.reverse === true ? [...items].reverse() : items;
  const after = typeof args.after === "string" ? indexOf(args.after) : NaN;
  const start = Number.isInteger(after) && after >= 0 ? after + 1 : 0;
  const first = typeof args.first === "number" ? args.first : list.length;
  const page = list.slice(start, start + first);
  return {
    nodes: page,
    edges: page.map((node, i) => ({ cursor: cursorOf(start + i), node })),
    pageInfo: {
      hasNextPage: start + page.length < list.length,
      hasPreviousPage: start > 0,
      startCursor: page.length ? cursorOf(start) : null,
      endCursor: page.length ? cursorOf(start + page.length - 1) : null,
    },
  };
}

const sameTag = (a: string, b: string) => a.trim().toLowerCase() === b.trim().toLowerCase();
const splitTags = (tags: unknown) =>
  (Array.isArray(tags) ? tags : [])
    .flatMap((t) => String(t).split(","))
    .map((t) => t.trim())
    .filter(Boolean);

function takeUserErrors(state: ShopState, mutation: MutationName): UserError[] | null {
  const errors = state.userErrorsNext[mutation];
  if (!errors) return null;
  delete state.userErrorsNext[mutation];
  return errors;
}

/** webPixelCreate (id null: one pixel per app and shop) and webPixelUpdate, settings checked against the extension's TOML. */
function webPixelWrite(state: ShopState, args: Args, id: string | null) {
  const forced = takeUserErrors(state, id === null ? "webPixelCreate" : "webPixelUpdate");
  if (forced) return { webPixel: null, userErrors: forced };
  if (id === null && state.webPixel)
    return { webPixel: null, userErrors: [{ field: ["webPixel"], message: "Web pixel is taken.", code: "TAKEN" }] };
  if (id !== null && state.webPixel?.id !== id)
    return { webPixel: null, userErrors: [{ field: ["id"], message: "Web pixel not found.", code: "NOT_FOUND" }] };
  const checked = checkWebPixelSettings((args.webPixel as { settings?: unknown } | undefined)?.settings);
  if ("userErrors" in checked) return { webPixel: null, userErrors: checked.userErrors };
  state.webPixel = { id: id ?? `gid://shopify/WebPixel/${nextId()}`, settings: checked.settings };
  return { webPixel: state.webPixel, userErrors: [] };
}

const orderNotFound = (field: string[]): UserError[] => [{ field, message: "Order does not exist", code: "NOT_FOUND" }];
const iso = (ms: number) => new Date(ms).toISOString();

function fulfillmentCreate({ state, now }: ResolverContext, args: Args) {
  const forced = takeUserErrors(state, "fulfillmentCreate");
  if (forced) return { fulfillment: null, userErrors: forced };
  const input = args.fulfillment as {
    lineItemsByFulfillmentOrder: {
      fulfillmentOrderId: string;
      fulfillmentOrderLineItems?: { id: string; quantity: number }[] | null;
    }[];
    trackingInfo?: { number?: string | null; company?: string | null; url?: string | null } | null;
    notifyCustomer?: boolean | null;
  };
  const fail = (message: string, field: string[] = ["fulfillment"]) => ({
    fulfillment: null,
    userErrors: [{ field, message }],
  });
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
    return fail("Fulfillment order does not exist.", [
      "fulfillment",
      "lineItemsByFulfillmentOrder",
      String(missing),
      "fulfillmentOrderId",
    ]);
  }
  const groups = found.filter((f): f is NonNullable<typeof f> => f !== null);
  if (new Set(groups.map((g) => g.order.id)).size > 1)
    return fail("All fulfillment orders must belong to the same order.");
  if (new Set(groups.map((g) => g.fo.assignedLocation.location?.id)).size > 1) {
    return fail("All fulfillment orders must be assigned to the same location.");
  }
  const planned: { fo: FulfillmentOrderRecord; lineId: string; quantity: number }[] = [];
  for (const { fo, group } of groups) {
    if (
      !["OPEN", "IN_PROGRESS"].includes(fo.status) ||
      !fo.supportedActions.some((a) => a.action === "CREATE_FULFILLMENT")
    ) {
      return fail(`Fulfillment order ${fo.id} has an unfulfillable status= ${fo.status.toLowerCase()}.`);
    }
    const requested =
      group.fulfillmentOrderLineItems ?? fo.lineItems.map((li) => ({ id: li.id, quantity: li.remainingQuantity }));
    for (const { id, quantity } of requested) {
      const line = fo.lineItems.find((li) => li.id === id);
      if (!line || quantity < 1 || quantity > line.remainingQuantity) {
        return fail("Invalid fulfillment order line item quantity requested.");
      }
      planned.push({ fo, lineId: id, quantity });
    }
  }
  for (const { fo, lineId, quantity } of planned)
    fo.lineItems.find((li) => li.id === lineId)!.remainingQuantity -= quantity;
  for (const { fo } of groups)
    fo.status = fo.lineItems.every((li) => li.remainingQuantity === 0) ? "CLOSED" : "IN_PROGRESS";
  const order = groups[0].order;
  const tracking = input.trackingInfo;
  const fulfillment: FulfillmentRecord = {
    __typename: "Fulfillment",
    id: `gid://shopify/Fulfillment/${nextId()}`,
    status: "SUCCESS",
    createdAt: iso(now()),
    trackingInfo: tracking
      ? [{ number: tracking.number ?? null, company: tracking.company ?? null, url: tracking.url ?? null }]
      : [],
    notifyCustomer: input.notifyCustomer ?? false,
    fulfillmentOrderIds: groups.map((g) => g.fo.id),
    lineItems: planned.map((p) => ({ fulfillmentOrderLineItemId: p.lineId, quantity: p.quantity })),
  };
  order.fulfillments.push(fulfillment);
  order.displayFulfillmentStatus = order.fulfillmentOrders.every((fo) => fo.status === "CLOSED")
    ? "FULFILLED"
    : "PARTIALLY_FULFILLED";
  order.updatedAt = iso(now());
  return { fulfillment, userErrors: [] };
}

function orderCancel({ state, now }: ResolverContext, args: Args) {
  const fail = (errors: UserError[]) => ({ job: null, orderCancelUserErrors: errors, userErrors: errors });
  const forced = takeUserErrors(state, "orderCancel");
  if (forced) return fail(forced);
  const order = state.orders[String(args.orderId)];
  if (!order) return fail(orderNotFound(["orderId"]));
  if (order.cancelledAt) {
    return fail([
      { field: ["orderId"], message: "Cannot cancel an order that has already been canceled.", code: "INVALID" },
    ]);
  }
  order.cancelledAt = iso(now());
  order.updatedAt = order.cancelledAt;
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
  return {
    job: { __typename: "Job", id: `gid://shopify/Job/${nextId()}`, done: false },
    orderCancelUserErrors: [],
    userErrors: [],
  };
}

function tagsChange(kind: "tagsAdd" | "tagsRemove"): Resolver {
  return (_s, args, { state, now }) => {
    const forced = takeUserErrors(state, kind);
    if (forced) return { node: null, userErrors: forced };
    const order = state.orders[String(args.id)];
    if (!order) return { node: null, userErrors: orderNotFound(["id"]) };
    const tags = splitTags(args.tags);
    if (kind === "tagsAdd") {
      for (const tag of tags) if (!order.tags.some((t) => sameTag(t, tag))) order.tags.push(tag);
    } else {
      order.tags = order.tags.filter((t) => !tags.some((r) => sameTag(r, t)));
    }
    order.updatedAt = iso(now());
    return { node: order, userErrors: [] };
  };
}

function orderMarkAsPaid(_s: unknown, args: Args, { state, now }: ResolverContext) {
  const forced = takeUserErrors(state, "orderMarkAsPaid");
  if (forced) return { order: null, userErrors: forced };
  const order = state.orders[String((args.input as { id: string }).id)];
  if (!order) return { order: null, userErrors: orderNotFound(["input", "id"]) };
  if (!order.canMarkAsPaid)
    return { order, userErrors: [{ field: ["input", "id"], message: "Order cannot be marked as paid." }] };
  order.displayFinancialStatus = "PAID";
  order.canMarkAsPaid = false;
  const total = (order.currentTotalPriceSet as { shopMoney?: { currencyCode?: string } } | undefined)?.shopMoney;
  if (order.totalOutstandingSet)
    order.totalOutstandingSet = { shopMoney: { amount: "0.00", currencyCode: total?.currencyCode ?? "MAD" } };
  order.updatedAt = iso(now());
  return { order, userErrors: [] };
}

/** Shopify answers TOO_MANY_FACTS above this many facts (the market review's reading of the docs). */
export const MAX_RISK_FACTS = 20;
const RISK_LEVELS = new Set(["HIGH", "MEDIUM", "LOW", "NONE", "PENDING"]);
/** The stand-in serves one app: the one whose token calls it. */
const PROVIDER: RiskAssessmentRecord["provider"] = {
  __typename: "App",
  id: "gid://shopify/App/1",
  title: "COD Lead Sync",
  apiKey: "app",
};

function orderRiskAssessmentCreate(_s: unknown, args: Args, { state, now }: ResolverContext) {
  const fail = (field: string[], message: string, code: string) => ({
    orderRiskAssessment: null,
    userErrors: [{ field, message, code }],
  });
  const forced = takeUserErrors(state, "orderRiskAssessmentCreate");
  if (forced) return { orderRiskAssessment: null, userErrors: forced };
  const input = args.orderRiskAssessmentInput as {
    orderId: string;
    riskLevel: string;
    facts: { description: string; sentiment: string }[];
  };
  const order = state.orders[String(input.orderId)];
  if (!order) return fail(["orderRiskAssessmentInput", "orderId"], "Order does not exist", "NOT_FOUND");
  if (order.displayFulfillmentStatus === "FULFILLED")
    return fail(
      ["orderRiskAssessmentInput", "orderId"],
      "The order is marked as fulfilled and can no longer accept new risk assessments.",
      "ORDER_ALREADY_FULFILLED",
    );
  if (input.facts.length > MAX_RISK_FACTS)
    return fail(["orderRiskAssessmentInput", "facts"], "Too many facts were provided.", "TOO_MANY_FACTS");
  if (!RISK_LEVELS.has(input.riskLevel))
    return fail(["orderRiskAssessmentInput", "riskLevel"], "Risk level is invalid.", "INVALID");
  const assessment: RiskAssessmentRecord = {
    __typename: "OrderRiskAssessment",
    riskLevel: input.riskLevel,
    facts: input.facts.map((f) => ({
      __typename: "RiskFact",
      description: f.description.slice(0, 256),
      sentiment: f.sentiment,
    })),
    provider: PROVIDER,
    createdAt: iso(now()),
  };
  (order.riskAssessments ??= []).push(assessment);
  order.updatedAt = iso(now());
  return { orderRiskAssessment: assessment, userErrors: [] };
}

/** The order's risk summary: each app's latest assessment, and a recommendation from the worst level. */
export function riskSummaryOf(order: OrderRecord) {
  const latest = new Map<string, RiskAssessmentRecord>();
  for (const a of order.riskAssessments ?? []) latest.set(a.provider.id, a);
  const assessments = [...latest.values()];
  const levels = new Set(assessments.map((a) => a.riskLevel));
  const recommendation =
    levels.has("HIGH") || levels.has("MEDIUM") ? "INVESTIGATE" : levels.has("LOW") ? "ACCEPT" : "NONE";
  return { __typename: "OrderRiskSummary", assessments, recommendation };
}

const nodeById = (state: ShopState, id: string): unknown =>
  state.orders[id] ??
  state.products.find((p) => p.id === id) ??
  state.productVariants.find((v) => v.id === id) ??
  Object.values(state.orders)
    .flatMap((o) => o.fulfillmentOrders)
    .find((fo) => fo.id === id) ??
  null;

/** OrderSortKeys the stand-in sorts by (others keep the id order); ties are broken by id, as Shopify does. */
const ORDER_SORT_FIELDS: Record<string, "createdAt" | "updatedAt" | "processedAt"> = {
  CREATED_AT: "createdAt",
  UPDATED_AT: "updatedAt",
  PROCESSED_AT: "processedAt",
};

function sortedOrders(state: ShopState, sortKey: unknown) {
  const byId = ordersById(state);
  const field = typeof sortKey === "string" ? ORDER_SORT_FIELDS[sortKey] : undefined;
  if (!field) return byId;
  const time = (order: (typeof byId)[number]) => Date.parse(String(order[field] ?? order.createdAt)) || 0;
  // Array.prototype.sort is stable: equal times keep the id order.
  return byId.sort((a, b) => time(a) - time(b));
}

/** ordersCount: exact up to `limit` (Shopify's default 10,000), else that many "at least". */
function ordersCount(state: ShopState, args: Args) {
  const count = ordersById(state).filter((o) => matchesOrder(o, args.query)).length;
  const limit = typeof args.limit === "number" ? args.limit : null;
  return limit !== null && count > limit ? { count: limit, precision: "AT_LEAST" } : { count, precision: "EXACT" };
}

export function resolversFor(schema: GraphQLSchema): Record<string, Record<string, Resolver>> {
  return {
    [schema.getQueryType()!.name]: {
      order: (_s, args, { state }) => state.orders[String(args.id)] ?? null,
      orders: (_s, args, { state }) =>
        connection(
          sortedOrders(state, args.sortKey).filter((o) => matchesOrder(o, args.query)),
          args,
        ),
      ordersCount: (_s, args, { state }) => ordersCount(state, args),
      product: (_s, args, { state }) => state.products.find((p) => p.id === String(args.id)) ?? null,
      products: (_s, args, { state }) => connection(state.products, args),
      productVariant: (_s, args, { state }) => state.productVariants.find((v) => v.id === String(args.id)) ?? null,
      productVariants: (_s, args, { state }) =>
        connection(
          state.productVariants.filter((v) => matchesVariant(v, args.query)),
          args,
        ),
      fulfillmentOrder: (_s, args, { state }) => nodeById(state, String(args.id)),
      node: (_s, args, { state }) => nodeById(state, String(args.id)),
      nodes: (_s, args, { state }) =>
        (Array.isArray(args.ids) ? args.ids : []).map((id) => nodeById(state, String(id))),
      // Without an id: the calling app's pixel on the shop.
      webPixel: (_s, args, { state }) =>
        state.webPixel && (args.id == null || String(args.id) === state.webPixel.id) ? state.webPixel : null,
    },
    Order: {
      risk: (source) => riskSummaryOf(source as OrderRecord),
    },
    [schema.getMutationType()!.name]: {
      tagsAdd: tagsChange("tagsAdd"),
      tagsRemove: tagsChange("tagsRemove"),
      fulfillmentCreate: (_s, args, context) => fulfillmentCreate(context, args),
      orderMarkAsPaid,
      orderCancel: (_s, args, context) => orderCancel(context, args),
      orderRiskAssessmentCreate,
      flowTriggerReceive: (_s, args, { flow, shop, now }) => ({
        userErrors: flow ? flow.receive(shop ?? null, args.handle, args.payload, now()) : [],
      }),
      webPixelCreate: (_s, args, { state }) => webPixelWrite(state, args, null),
      webPixelUpdate: (_s, args, { state }) => webPixelWrite(state, args, String(args.id)),
      webPixelDelete: (_s, args, { state }) => {
        if (!state.webPixel || state.webPixel.id !== String(args.id))
          return {
            deletedWebPixelId: null,
            userErrors: [{ field: ["id"], message: "Web pixel not found.", code: "NOT_FOUND" }],
          };
        state.webPixel = null;
        return { deletedWebPixelId: String(args.id), userErrors: [] };
      },
    },
  };
}

/** Explicit resolvers first; otherwise the record's field, arrays under a connection type paginated. */
export function fieldResolverFor(schema: GraphQLSchema): GraphQLFieldResolver<unknown, ResolverContext> {
  const resolvers = resolversFor(schema);
  return (source, args, context, info) => {
    const explicit = resolvers[info.parentType.name]?.[info.fieldName];
    if (explicit) return explicit(source, args, context, info);
    if (source === null || typeof source !== "object") return null;
    const value = (source as Record<string, unknown>)[info.fieldName];
    if (Array.isArray(value) && getNamedType(info.returnType).name.endsWith("Connection"))
      return connection(value, args);
    return value ?? null;
  };
}

/** The mutations the stand-in applies to its state (others resolve to null). */
export const APPLIED_MUTATIONS: readonly MutationName[] = [
  "tagsAdd",
  "tagsRemove",
  "fulfillmentCreate",
  "orderMarkAsPaid",
  "orderCancel",
  "orderRiskAssessmentCreate",
];
