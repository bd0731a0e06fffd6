/**
 * Orders the demo (or a test) sends to the app as REST webhook payloads, mirrored into a
 * shop's state so the Admin API serves the same order: created just before its
 * orders/create webhook, cancelled before its orders/cancelled one, as on Shopify. The
 * variants of its lines join the shop's catalogue when missing (an unknown SKU then shows
 * in the app's Products tab, ready to be mapped).
 */
import { fulfillmentOrderRecord, orderRecord, variantRecord, type OrderRecord } from "./records";
import type { ShopState } from "./store";

interface PayloadLine {
  sku?: string | null;
  quantity?: number;
  title?: string;
  variant_title?: string | null;
  variant_id?: number | null;
  product_id?: number | null;
  price?: string;
}

interface PayloadAddress {
  first_name?: string | null;
  last_name?: string | null;
  name?: string | null;
  address1?: string | null;
  address2?: string | null;
  city?: string | null;
  province?: string | null;
  zip?: string | null;
  country_code?: string | null;
  phone?: string | null;
}

export interface WebhookOrderPayload {
  id: number;
  name?: string;
  email?: string | null;
  phone?: string | null;
  note?: string | null;
  customer?: {
    id?: number | null;
    first_name?: string | null;
    last_name?: string | null;
    phone?: string | null;
    email?: string | null;
  } | null;
  shipping_address?: PayloadAddress | null;
  billing_address?: PayloadAddress | null;
  created_at?: string;
  updated_at?: string;
  cancelled_at?: string | null;
  cancel_reason?: string | null;
  financial_status?: string | null;
  tags?: string;
  test?: boolean;
  currency?: string;
  payment_gateway_names?: string[];
  total_price?: string;
  line_items?: PayloadLine[];
}

const gid = (type: string, id: number | null | undefined) => (id ? `gid://shopify/${type}/${id}` : undefined);

function graphqlAddress(address: PayloadAddress | null | undefined) {
  if (!address) return null;
  return {
    firstName: address.first_name ?? null,
    lastName: address.last_name ?? null,
    name: address.name ?? ([address.first_name, address.last_name].filter(Boolean).join(" ") || null),
    address1: address.address1 ?? null,
    address2: address.address2 ?? null,
    city: address.city ?? null,
    province: address.province ?? null,
    zip: address.zip ?? null,
    countryCodeV2: address.country_code ?? null,
    phone: address.phone ?? null,
  };
}

/** The payload's customer and addresses as the Admin API serves them (only those it carries). */
function contactFields(payload: WebhookOrderPayload): Record<string, unknown> {
  const fields: Record<string, unknown> = {};
  if ("email" in payload) fields.email = payload.email ?? null;
  if ("phone" in payload) fields.phone = payload.phone ?? null;
  if ("note" in payload) fields.note = payload.note ?? null;
  if ("shipping_address" in payload) fields.shippingAddress = graphqlAddress(payload.shipping_address);
  if ("billing_address" in payload) fields.billingAddress = graphqlAddress(payload.billing_address);
  if ("customer" in payload) {
    const c = payload.customer;
    fields.customer = c
      ? {
          __typename: "Customer",
          id: gid("Customer", c.id) ?? `gid://shopify/Customer/${payload.id}`,
          firstName: c.first_name ?? null,
          lastName: c.last_name ?? null,
          defaultPhoneNumber: c.phone ? { phoneNumber: c.phone } : null,
          defaultEmailAddress: c.email ? { emailAddress: c.email } : null,
        }
      : null;
  }
  return fields;
}

/** The order as the Admin API would serve it after Shopify sent this payload. */
export function orderFromWebhook(payload: WebhookOrderPayload): OrderRecord {
  const lines = (payload.line_items ?? []).map((line) => ({
    sku: line.sku ?? null,
    quantity: line.quantity ?? 1,
    title: line.title ?? line.sku ?? "Item",
    variantId: gid("ProductVariant", line.variant_id),
    productId: gid("Product", line.product_id),
    price: line.price,
  }));
  const financial = (payload.financial_status ?? "pending").toUpperCase();
  const money = { amount: payload.total_price ?? "0.00", currencyCode: payload.currency ?? "MAD" };
  const order = orderRecord({
    id: payload.id,
    name: payload.name,
    tags: (payload.tags ?? "")
      .split(",")
      .map((t) => t.trim())
      .filter(Boolean),
    displayFinancialStatus: financial,
    lines,
    fields: {
      createdAt: payload.created_at ?? new Date().toISOString(),
      updatedAt: payload.updated_at ?? payload.created_at ?? new Date().toISOString(),
      test: payload.test ?? false,
      currencyCode: money.currencyCode,
      paymentGatewayNames: payload.payment_gateway_names ?? [],
      currentTotalPriceSet: { shopMoney: money, presentmentMoney: money },
      ...contactFields(payload),
    },
  });
  // Kept for the webhooks the stand-in sends about this order later (cancelled, updated); not in the schema.
  order.restPayload = payload;
  if (payload.cancelled_at) cancelOrder(order, payload.cancelled_at, payload.cancel_reason ?? "other");
  return order;
}

/** Cancelled in the Shopify admin: what orderCancel leaves, without a refund. */
export function cancelOrder(order: OrderRecord, at: string, reason: string): void {
  order.cancelledAt = at;
  order.updatedAt = at;
  order.cancelReason = reason.toUpperCase();
  order.canMarkAsPaid = false;
  if (order.displayFinancialStatus === "PENDING") order.displayFinancialStatus = "VOIDED";
  order.fulfillmentOrders = order.fulfillmentOrders.map((fo) =>
    fo.status === "CLOSED"
      ? fo
      : fulfillmentOrderRecord({
          status: "CLOSED",
          actions: [],
          lines: fo.lineItems.map((li) => ({ sku: li.sku, quantity: li.totalQuantity, remaining: 0 })),
        }),
  );
}

/**
 * Mirrors one webhook into the shop's state: orders/create adds the order (and any
 * missing variant), orders/cancelled cancels it. Other topics change nothing.
 */
export function applyWebhookOrder(state: ShopState, topic: string, payload: WebhookOrderPayload): OrderRecord | null {
  const id = `gid://shopify/Order/${payload.id}`;
  if (topic === "orders/create") {
    addMissingVariants(state, payload.line_items ?? []);
    const order = orderFromWebhook(payload);
    state.orders[id] = order;
    return order;
  }
  const order = state.orders[id];
  if (topic === "orders/cancelled" && order && !order.cancelledAt) {
    cancelOrder(order, payload.cancelled_at ?? new Date().toISOString(), payload.cancel_reason ?? "other");
  }
  return order ?? null;
}

function addMissingVariants(state: ShopState, lines: readonly PayloadLine[]): void {
  const known = new Set(state.productVariants.map((v) => v.id));
  for (const line of lines) {
    if (!line.variant_id || known.has(`gid://shopify/ProductVariant/${line.variant_id}`)) continue;
    state.productVariants.push(
      variantRecord({
        id: line.variant_id,
        sku: line.sku ?? null,
        title: line.variant_title || "Default Title",
        productId: line.product_id ?? undefined,
        productTitle: line.title ?? "Product",
        price: line.price,
        productStatus: "ACTIVE",
      }),
    );
    known.add(`gid://shopify/ProductVariant/${line.variant_id}`);
  }
}

/** The REST payload of an order the stand-in made from one; a minimal one for the others. */
export function restPayloadOf(order: OrderRecord): Record<string, unknown> {
  if (order.restPayload && typeof order.restPayload === "object")
    return { ...(order.restPayload as Record<string, unknown>) };
  return {
    id: Number(order.id.split("/").pop()),
    name: order.name,
    created_at: order.createdAt,
    updated_at: order.updatedAt ?? order.createdAt,
    cancelled_at: order.cancelledAt,
    financial_status: order.displayFinancialStatus.toLowerCase(),
    tags: order.tags.join(", "),
  };
}

/**
 * An edit in the Shopify admin: `changes` (REST fields: phone, shipping_address, note...)
 * merged into the order's payload and its Admin API record, updated now. Returns the
 * orders/updated payload.
 */
export function editOrder(order: OrderRecord, changes: Record<string, unknown>, at: string): Record<string, unknown> {
  const payload = { ...restPayloadOf(order), ...changes, updated_at: at };
  Object.assign(order, contactFields(payload as unknown as WebhookOrderPayload));
  if (typeof changes.note === "string" || changes.note === null) order.note = changes.note;
  order.updatedAt = at;
  order.restPayload = payload;
  return payload;
}
