/**
 * Typed helper for the control API, for tests, the demo and scripts:
 *   const control = shopifyAdminControl(admin.url);
 *   await control.loadShop("demo.myshopify.com", { world: "demo" });
 *   await control.addFault({ kind: "refuse", operation: "ProductVariantsPage" });
 */
import type { FaultInput, FaultRule } from "./faults";
import type { FlowCallResult, FlowDefinitions, FlowTriggerRecord } from "./flow";
import type { CallRecord } from "./store";
import type { DeliveryFaultInput, DeliveryFaultRule, DeliveryRecord } from "./webhooks";

export class ShopifyAdminControlError extends Error {
  constructor(
    readonly status: number,
    readonly body: unknown,
    what: string,
  ) {
    super(`shopify-admin control ${what} answered ${status}: ${JSON.stringify(body)}`);
    this.name = "ShopifyAdminControlError";
  }
}

export interface ShopSummary {
  shop: string;
  loaded: boolean;
  installed: boolean;
  products: number;
  variants: number;
  orders: number;
  bucket: { maximumAvailable: number; currentlyAvailable: number; restoreRate: number };
}

export interface OrderView {
  id: string;
  name: string;
  createdAt: string;
  tags: string[];
  displayFinancialStatus: string;
  displayFulfillmentStatus: string | null;
  canMarkAsPaid: boolean;
  cancelledAt: string | null;
  fulfillmentOrders: {
    id: string;
    status: string;
    lineItems: { id: string; sku: string | null; totalQuantity: number; remainingQuantity: number }[];
  }[];
  fulfillments: {
    id: string;
    status: string;
    trackingInfo: { number: string | null; company: string | null; url: string | null }[];
  }[];
  lineItems: { id: string; sku: string | null; quantity: number; title: string }[];
  /** Every risk assessment apps created on the order, oldest first. */
  riskAssessments?: { riskLevel: string; facts: { description: string; sentiment: string }[]; createdAt: string }[];
}

export interface LoadShopInput {
  world?: "demo" | "empty";
  seed?: number;
  orderCount?: number;
  now?: string;
  variants?: { id: number; sku: string | null; title: string; productId?: number; productTitle?: string }[];
  orders?: {
    id?: number;
    name?: string;
    tags?: string[];
    displayFinancialStatus?: string;
    lines?: { sku: string | null; quantity: number; title?: string }[];
    fields?: Record<string, unknown>;
  }[];
}

export function shopifyAdminControl(baseUrl: string) {
  async function call<T>(method: string, path: string, body?: unknown): Promise<T> {
    const response = await fetch(`${baseUrl}/_control${path}`, {
      method,
      headers: body === undefined ? {} : { "content-type": "application/json" },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const parsed = (await response.json()) as unknown;
    if (!response.ok) throw new ShopifyAdminControlError(response.status, parsed, `${method} ${path}`);
    return parsed as T;
  }
  const shopPath = (shop: string) => `/shops/${encodeURIComponent(shop)}`;
  return {
    reset: () => call<{ reset: true }>("POST", "/reset"),
    loadShop: (shop: string, input: LoadShopInput = {}) => call<ShopSummary>("PUT", shopPath(shop), input),
    removeShop: (shop: string) => call<{ removed: boolean }>("DELETE", shopPath(shop)),
    shop: (shop: string) => call<ShopSummary>("GET", shopPath(shop)),
    install: (shop: string, input: { accessToken?: string; scopes?: string[]; expiring?: boolean } = {}) =>
      call<{ shop: string; accessToken: string; refreshToken: string | null }>(
        "POST",
        `${shopPath(shop)}/install`,
        input,
      ),
    uninstall: (shop: string) =>
      call<{ shop: string; uninstalled: boolean }>("POST", `${shopPath(shop)}/uninstall`, {}),
    setBucket: (shop: string, currentlyAvailable: number) =>
      call<ShopSummary["bucket"]>("PUT", `${shopPath(shop)}/bucket`, { currentlyAvailable }),
    orders: async (shop: string) => (await call<{ orders: OrderView[] }>("GET", `${shopPath(shop)}/orders`)).orders,
    order: (shop: string, id: string) => call<OrderView>("GET", `${shopPath(shop)}/orders/${encodeURIComponent(id)}`),
    addOrder: (shop: string, order: NonNullable<LoadShopInput["orders"]>[number]) =>
      call<OrderView>("POST", `${shopPath(shop)}/orders`, order),
    addFault: (fault: FaultInput) => call<FaultRule>("POST", "/faults", fault),
    faults: async () => (await call<{ faults: FaultRule[] }>("GET", "/faults")).faults,
    clearFaults: (shop?: string) =>
      call<{ cleared: true }>("DELETE", `/faults${shop ? `?shop=${encodeURIComponent(shop)}` : ""}`),
    calls: async (filter: { shop?: string; operation?: string; since?: number } = {}) => {
      const query = new URLSearchParams(
        Object.entries(filter)
          .filter(([, v]) => v !== undefined)
          .map(([k, v]) => [k, String(v)]),
      );
      return (await call<{ calls: CallRecord[] }>("GET", `/calls${query.size ? `?${query}` : ""}`)).calls;
    },
    clearCalls: () => call<{ cleared: true }>("DELETE", "/calls"),
    /** Where the stand-in sends webhooks: the app's base URL (deliveries go to URL/webhooks/<topic>). */
    setWebhookTarget: (url: string, secret?: string) =>
      call<{ url: string }>("PUT", "/webhooks", secret ? { url, secret } : { url }),
    /** A storefront order from its orders/create payload: in Shopify at once, its webhook sent unless `deliver` is false. */
    placeOrder: (shop: string, payload: Record<string, unknown>, options: { deliver?: boolean } = {}) =>
      call<{ order: OrderView; deliveries: DeliveryRecord[] }>("POST", `${shopPath(shop)}/webhook-orders`, {
        payload,
        ...options,
      }),
    cancelOrder: (shop: string, id: string, options: { reason?: string; deliver?: boolean } = {}) =>
      call<{ order: OrderView; deliveries: DeliveryRecord[] }>(
        "POST",
        `${shopPath(shop)}/orders/${encodeURIComponent(id)}/cancel`,
        options,
      ),
    editOrder: (shop: string, id: string, changes: Record<string, unknown>, options: { deliver?: boolean } = {}) =>
      call<{ order: OrderView; deliveries: DeliveryRecord[] }>(
        "POST",
        `${shopPath(shop)}/orders/${encodeURIComponent(id)}/edit`,
        { changes, ...options },
      ),
    deliveries: async (filter: { shop?: string; topic?: string; orderId?: string } = {}) => {
      const query = new URLSearchParams(
        Object.entries(filter)
          .filter(([, v]) => v !== undefined)
          .map(([k, v]) => [k, String(v)]),
      );
      return (await call<{ deliveries: DeliveryRecord[] }>("GET", `/deliveries${query.size ? `?${query}` : ""}`))
        .deliveries;
    },
    addDeliveryFault: (fault: DeliveryFaultInput) => call<DeliveryFaultRule>("POST", "/delivery-faults", fault),
    clearDeliveryFaults: (shop?: string) =>
      call<{ cleared: true }>("DELETE", `/delivery-faults${shop ? `?shop=${encodeURIComponent(shop)}` : ""}`),
    /** Held deliveries sent now (late: their Triggered-At is the event's). */
    releaseDeliveries: async (shop?: string) =>
      (await call<{ deliveries: DeliveryRecord[] }>("POST", "/deliveries/release", shop ? { shop } : {})).deliveries,
    /** Deliveries the app did not acknowledge, sent again as Shopify's retries would. */
    redeliver: async (shop?: string) =>
      (await call<{ deliveries: DeliveryRecord[] }>("POST", "/deliveries/redeliver", shop ? { shop } : {})).deliveries,
    advanceClock: (seconds: number) => call<{ now: string }>("POST", "/clock", { advance_seconds: seconds }),
    /** Flow: the app's declared triggers and actions, and the triggers received (for one shop). */
    flow: (shop?: string) =>
      call<FlowDefinitions & { received: FlowTriggerRecord[] }>(
        "GET",
        `/flow${shop ? `?shop=${encodeURIComponent(shop)}` : ""}`,
      ),
    /** Runs an action step as Flow does: POST to the app's runtime URL, signed with its secret. */
    runFlowAction: (input: {
      url: string;
      shop: string;
      handle: string;
      properties: Record<string, unknown>;
      action_run_id?: string;
    }) => call<{ request: Record<string, unknown>; response: FlowCallResult }>("POST", "/flow/actions", input),
    /** Flow's trigger lifecycle callback: a workflow using `handle` was enabled or disabled. */
    flowLifecycle: (input: { url: string; shop: string; handle: string; has_enabled_flow: boolean }) =>
      call<{ request: Record<string, unknown>; response: FlowCallResult }>("POST", "/flow/lifecycle", input),
  };
}

export type ShopifyAdminControl = ReturnType<typeof shopifyAdminControl>;
