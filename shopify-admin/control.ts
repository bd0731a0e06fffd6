/**
 * The control API under /_control (loopback callers only): load and reset shops,
 * install and uninstall, inject failures, read the calls made and the orders as the
 * app left them, move the clock. Bodies and answers are JSON.
 */
import { z } from "zod";
import type { StandInClock } from "./clock";
import { demoWorld } from "./demo-world";
import { faultInputSchema, type FaultRegistry } from "./faults";
import { flowActionBody, postSignedAsFlow, type FlowRegistry } from "./flow";
import type { InstallationRegistry } from "./installations";
import { orderRecord, variantRecord, type OrderRecord, type ProductRecord, type ProductVariantRecord } from "./records";
import { ordersById, type ShopStore } from "./store";
import type { AppCredentials } from "./token-exchange";
import { cancelOrder, editOrder, orderFromWebhook, restPayloadOf, type WebhookOrderPayload } from "./webhook-orders";
import { deliveryFaultInputSchema, webhookTargetSchema, type WebhookDeliveries } from "./webhooks";

export interface ControlRuntime {
  store: ShopStore;
  faults: FaultRegistry;
  installations: InstallationRegistry;
  clock: StandInClock;
  app: AppCredentials | null;
  flow: FlowRegistry;
  deliveries: WebhookDeliveries;
}

export class ControlError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
  ) {
    super(message);
    this.name = "ControlError";
  }
}

export interface ControlAnswer {
  status: number;
  body: unknown;
}

const SHOP_DOMAIN = /^[a-z0-9][a-z0-9-]*\.myshopify\.com$/;

const lineSchema = z.object({
  sku: z.string().nullable(),
  quantity: z.number().int().positive(),
  title: z.string().optional(),
  variantId: z.string().optional(),
  productId: z.string().optional(),
  price: z.string().optional(),
});
const orderInitSchema = z
  .object({
    id: z.number().int().positive().optional(),
    name: z.string().optional(),
    tags: z.array(z.string()).optional(),
    displayFinancialStatus: z.string().optional(),
    lines: z.array(lineSchema).min(1).optional(),
    fields: z.record(z.unknown()).optional(),
  })
  .strict();
const loadSchema = z
  .object({
    /** "demo": the generated demo world; "empty" (default): nothing */
    world: z.enum(["demo", "empty"]).optional(),
    seed: z.number().int().optional(),
    orderCount: z.number().int().nonnegative().max(5000).optional(),
    /** ISO time the demo world's 60 days end at (default: the stand-in clock) */
    now: z.string().datetime().optional(),
    products: z.array(z.record(z.unknown())).optional(),
    variants: z
      .array(
        z.object({
          id: z.number().int(),
          sku: z.string().nullable(),
          title: z.string(),
          productId: z.number().int().optional(),
          productTitle: z.string().optional(),
        }),
      )
      .optional(),
    orders: z.array(orderInitSchema).optional(),
  })
  .strict();
/** Whether the stand-in sends the event's webhook (false: the order exists, its webhook never comes). */
const deliverSchema = z.boolean().default(true);
const webhookOrderSchema = z
  .object({
    payload: z
      .record(z.unknown())
      .refine(
        (p) => typeof p.id === "number" && Number.isSafeInteger(p.id) && p.id > 0,
        "payload.id must be a positive integer",
      ),
    deliver: deliverSchema,
  })
  .strict();
const cancelSchema = z.object({ reason: z.string().min(1).optional(), deliver: deliverSchema }).strict();
const editSchema = z.object({ changes: z.record(z.unknown()), deliver: deliverSchema }).strict();
const shopFilterSchema = z.object({ shop: z.string().min(1).optional() }).strict();
const installSchema = z
  .object({
    accessToken: z.string().min(1).optional(),
    scopes: z.array(z.string()).optional(),
    expiring: z.boolean().optional(),
  })
  .strict();
const bucketSchema = z.object({ currentlyAvailable: z.number().nonnegative() }).strict();
const clockSchema = z.object({ advance_seconds: z.number().nonnegative() }).strict();
const loopbackUrl = z
  .string()
  .url()
  .refine((u) => ["127.0.0.1", "localhost", "[::1]"].includes(new URL(u).hostname), "the app must listen on loopback");
const flowActionSchema = z
  .object({
    url: loopbackUrl,
    shop: z.string().min(1),
    handle: z.string().min(1),
    properties: z.record(z.unknown()),
    action_run_id: z.string().min(1).optional(),
  })
  .strict();
const flowLifecycleSchema = z
  .object({ url: loopbackUrl, shop: z.string().min(1), handle: z.string().min(1), has_enabled_flow: z.boolean() })
  .strict();

function parseJson(text: string): unknown {
  if (!text.trim()) return {};
  try {
    return JSON.parse(text);
  } catch {
    throw new ControlError(400, "invalid_body", "The body is not valid JSON.");
  }
}

function shopParam(raw: string): string {
  const shop = decodeURIComponent(raw).toLowerCase();
  if (!SHOP_DOMAIN.test(shop)) throw new ControlError(422, "invalid_shop", `${shop} is not a *.myshopify.com domain.`);
  return shop;
}

/** What the stand-in knows of an order, for tests and the demo's read-back. */
export function orderView(order: OrderRecord) {
  return {
    id: order.id,
    name: order.name,
    createdAt: order.createdAt,
    tags: order.tags,
    displayFinancialStatus: order.displayFinancialStatus,
    displayFulfillmentStatus: order.displayFulfillmentStatus ?? null,
    canMarkAsPaid: order.canMarkAsPaid,
    cancelledAt: order.cancelledAt,
    cancellation: order.cancellation,
    fulfillmentOrders: order.fulfillmentOrders.map((fo) => ({
      id: fo.id,
      status: fo.status,
      lineItems: fo.lineItems.map((li) => ({
        id: li.id,
        sku: li.sku,
        totalQuantity: li.totalQuantity,
        remainingQuantity: li.remainingQuantity,
      })),
    })),
    fulfillments: order.fulfillments,
    lineItems: order.lineItems.map((li) => ({ id: li.id, sku: li.sku, quantity: li.quantity, title: li.title })),
    riskAssessments: (order.riskAssessments ?? []).map((a) => ({
      riskLevel: a.riskLevel,
      facts: a.facts.map((f) => ({ description: f.description, sentiment: f.sentiment })),
      createdAt: a.createdAt,
    })),
  };
}

function shopSummary(rt: ControlRuntime, shop: string) {
  const state = rt.store.stateFor(shop);
  const installation = rt.installations.get(shop);
  return {
    shop,
    loaded: rt.store.isLoaded(shop),
    installed: rt.installations.isInstalled(shop),
    installation,
    products: state.products.length,
    variants: state.productVariants.length,
    orders: Object.keys(state.orders).length,
    bucket: rt.store.bucket(shop).status(rt.clock.now()),
  };
}

function worldFrom(rt: ControlRuntime, body: z.infer<typeof loadSchema>) {
  if (body.world === "demo") {
    return demoWorld({
      nowMs: body.now ? Date.parse(body.now) : rt.clock.now(),
      seed: body.seed,
      orders: body.orderCount,
    });
  }
  const variants: ProductVariantRecord[] = (body.variants ?? []).map((v) => variantRecord(v));
  return {
    products: (body.products ?? []) as unknown as ProductRecord[],
    productVariants: variants,
    orders: (body.orders ?? []).map((o) => orderRecord(o)),
  };
}

export async function answerControl(
  rt: ControlRuntime,
  method: string,
  path: string,
  search: URLSearchParams,
  text: string,
): Promise<ControlAnswer> {
  const parts = path
    .replace(/^\/_control\/?/, "")
    .split("/")
    .filter(Boolean);
  const route = `${method} ${parts.map((p, i) => (i % 2 === 1 && ["shops", "orders", "faults"].includes(parts[i - 1]) ? ":" : p)).join("/")}`;
  const ok = (body: unknown, status = 200): ControlAnswer => ({ status, body });
  const body = () => parseJson(text);

  const orderOf = (shop: string, rawId: string) => {
    const id = decodeURIComponent(rawId);
    const state = rt.store.stateFor(shop);
    const order = state.orders[id] ?? state.orders[`gid://shopify/Order/${id}`];
    if (!order) throw new ControlError(404, "not_found", `No order ${id} in ${shop}.`);
    return order;
  };
  const nowIso = () => new Date(rt.clock.now()).toISOString();

  switch (route) {
    case "POST reset":
      rt.store.reset();
      rt.deliveries.reset();
      rt.faults.clear();
      rt.installations.reset();
      rt.flow.reset();
      return ok({ reset: true });
    case "GET shops":
      return ok({
        shops: [...new Set([...rt.store.loadedDomains(), ...rt.installations.list().map((i) => i.shop)])].map((s) =>
          shopSummary(rt, s),
        ),
      });
    case "GET shops/:":
      return ok(shopSummary(rt, shopParam(parts[1])));
    case "PUT shops/:":
    case "POST shops/:/load": {
      const shop = shopParam(parts[1]);
      rt.store.load(shop, worldFrom(rt, loadSchema.parse(body())));
      return ok(shopSummary(rt, shop));
    }
    case "DELETE shops/:": {
      const shop = shopParam(parts[1]);
      rt.store.remove(shop);
      rt.faults.clear(shop);
      return ok({ removed: true });
    }
    case "POST shops/:/install": {
      // A shop installed without the token exchange, with a known token (tests that store a session row).
      const shop = shopParam(parts[1]);
      const input = installSchema.parse(body());
      rt.installations.install(shop, input.scopes ?? rt.app?.scopes ?? [], rt.clock.now());
      const { access, refresh } = rt.installations.issue({
        shop,
        kind: "offline",
        expiring: input.expiring ?? false,
        nowMs: rt.clock.now(),
        token: input.accessToken,
      });
      return ok({
        shop,
        accessToken: access.token,
        refreshToken: refresh?.token ?? null,
        expiresAt: access.expiresAt && new Date(access.expiresAt).toISOString(),
      });
    }
    case "POST shops/:/uninstall": {
      const shop = shopParam(parts[1]);
      return ok({ shop, uninstalled: rt.installations.uninstall(shop, rt.clock.now()) });
    }
    case "PUT shops/:/bucket": {
      const shop = shopParam(parts[1]);
      rt.store.bucket(shop).drain(rt.clock.now(), bucketSchema.parse(body()).currentlyAvailable);
      return ok(rt.store.bucket(shop).status(rt.clock.now()));
    }
    case "GET shops/:/orders": {
      const shop = shopParam(parts[1]);
      return ok({ orders: ordersById(rt.store.stateFor(shop)).map(orderView) });
    }
    case "POST shops/:/orders": {
      const shop = shopParam(parts[1]);
      const order = rt.store.addOrder(orderInitSchema.parse(body()), shop);
      return ok(orderView(order), 201);
    }
    case "GET shops/:/orders/:": {
      const shop = shopParam(parts[1]);
      return ok(orderView(orderOf(shop, parts[3])));
    }
    case "POST shops/:/webhook-orders": {
      // An order placed on the storefront: it exists in Shopify, then its orders/create is sent (or not).
      const shop = shopParam(parts[1]);
      const input = webhookOrderSchema.parse(body());
      const payload = {
        created_at: nowIso(),
        updated_at: nowIso(),
        ...input.payload,
      } as unknown as WebhookOrderPayload;
      const state = rt.store.stateFor(shop);
      if (state.orders[`gid://shopify/Order/${payload.id}`])
        throw new ControlError(409, "exists", `Order ${payload.id} already exists in ${shop}.`);
      const order = orderFromWebhook(payload);
      state.orders[order.id] = order;
      const deliveries = input.deliver
        ? await rt.deliveries.emit(shop, "orders/create", payload as unknown as Record<string, unknown>)
        : [];
      return ok({ order: orderView(order), deliveries }, 201);
    }
    case "POST shops/:/orders/:/cancel": {
      const shop = shopParam(parts[1]);
      const order = orderOf(shop, parts[3]);
      if (order.cancelledAt)
        throw new ControlError(409, "already_cancelled", `Order ${order.name} is already cancelled.`);
      const input = cancelSchema.parse(body());
      const reason = input.reason ?? "customer";
      cancelOrder(order, nowIso(), reason);
      const payload = {
        ...restPayloadOf(order),
        cancelled_at: order.cancelledAt,
        cancel_reason: reason,
        updated_at: order.updatedAt,
        financial_status: order.displayFinancialStatus.toLowerCase(),
      };
      order.restPayload = payload;
      const deliveries = input.deliver ? await rt.deliveries.emit(shop, "orders/cancelled", payload) : [];
      return ok({ order: orderView(order), deliveries });
    }
    case "POST shops/:/orders/:/edit": {
      // The merchant edits the order in the Shopify admin (a phone, an address): orders/updated.
      const shop = shopParam(parts[1]);
      const order = orderOf(shop, parts[3]);
      const input = editSchema.parse(body());
      const payload = editOrder(order, input.changes, nowIso());
      const deliveries = input.deliver ? await rt.deliveries.emit(shop, "orders/updated", payload) : [];
      return ok({ order: orderView(order), deliveries });
    }
    case "PUT webhooks":
      try {
        return ok(rt.deliveries.setTarget(webhookTargetSchema.parse(body())));
      } catch (error) {
        if (error instanceof z.ZodError) throw error;
        throw new ControlError(409, "no_secret", error instanceof Error ? error.message : String(error));
      }
    case "GET webhooks":
      return ok({ url: rt.deliveries.targetUrl() });
    case "GET deliveries": {
      const shop = search.get("shop");
      const topic = search.get("topic");
      const orderId = search.get("orderId");
      return ok({
        deliveries: rt.deliveries.log.filter(
          (d) => (!shop || d.shop === shop) && (!topic || d.topic === topic) && (!orderId || d.orderId === orderId),
        ),
      });
    }
    case "POST deliveries/release":
      return ok({ deliveries: await rt.deliveries.release(shopFilterSchema.parse(body()).shop) });
    case "POST deliveries/redeliver":
      return ok({ deliveries: await rt.deliveries.redeliver(shopFilterSchema.parse(body()).shop) });
    case "GET delivery-faults":
      return ok({ faults: rt.deliveries.listRules() });
    case "POST delivery-faults":
      return ok(rt.deliveries.addRule(deliveryFaultInputSchema.parse(body())), 201);
    case "DELETE delivery-faults":
      rt.deliveries.clearRules(search.get("shop"));
      return ok({ cleared: true });
    case "GET faults":
      return ok({ faults: rt.faults.list() });
    case "POST faults":
      return ok(rt.faults.add(faultInputSchema.parse(body())), 201);
    case "DELETE faults":
      rt.faults.clear(search.get("shop"));
      return ok({ cleared: true });
    case "DELETE faults/:":
      return ok({ removed: rt.faults.remove(Number(parts[1])) });
    case "GET calls": {
      const shop = search.get("shop");
      const operation = search.get("operation");
      const since = Number(search.get("since") ?? 0);
      return ok({
        calls: rt.store.calls.filter(
          (c) => (!shop || c.shop === shop) && (!operation || c.operationName === operation) && c.id > since,
        ),
      });
    }
    case "DELETE calls":
      rt.store.calls.length = 0;
      return ok({ cleared: true });
    case "GET flow": {
      const shop = search.get("shop");
      return ok({ ...rt.flow.list(), received: rt.flow.received.filter((r) => !shop || r.shop === shop) });
    }
    case "POST flow/actions": {
      // Runs an action step as Flow would: the app's runtime URL, signed with its secret.
      if (!rt.app)
        throw new ControlError(409, "no_app", "Start the stand-in with the app's credentials to sign Flow requests.");
      const input = flowActionSchema.parse(body());
      const sent = flowActionBody({
        shop: input.shop,
        handle: input.handle,
        properties: input.properties,
        actionRunId: input.action_run_id,
      });
      return ok({ request: sent, response: await postSignedAsFlow(input.url, sent, rt.app.apiSecret) });
    }
    case "POST flow/lifecycle": {
      if (!rt.app)
        throw new ControlError(409, "no_app", "Start the stand-in with the app's credentials to sign Flow requests.");
      const input = flowLifecycleSchema.parse(body());
      const sent = {
        flow_trigger_definition_id: input.handle,
        has_enabled_flow: input.has_enabled_flow,
        shop_id: 1,
        shopify_domain: input.shop,
        timestamp: new Date(rt.clock.now()).toISOString(),
      };
      return ok({ request: sent, response: await postSignedAsFlow(input.url, sent, rt.app.apiSecret) });
    }
    case "GET clock":
      return ok({ now: new Date(rt.clock.now()).toISOString() });
    case "POST clock":
      return ok({ now: new Date(rt.clock.advance(clockSchema.parse(body()).advance_seconds)).toISOString() });
    default:
      throw new ControlError(404, "not_found", `No control route ${method} ${path}.`);
  }
}
