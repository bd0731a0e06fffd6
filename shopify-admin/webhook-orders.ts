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

export interface WebhookOrderPayload {
  id: number;
  name?: string;
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
    tags: (payload.tags ?? "").split(",").map((t) => t.trim()).filter(Boolean),
    displayFinancialStatus: financial,
    lines,
    fields: {
      createdAt: payload.created_at ?? new Date().toISOString(),
      updatedAt: payload.updated_at ?? payload.created_at ?? new Date().toISOString(),
      test: payload.test ?? false,
      currencyCode: money.currencyCode,
      paymentGatewayNames: payload.payment_gateway_names ?? [],
      currentTotalPriceSet: { shopMoney: money, presentmentMoney: money },
    },
  });
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
    fo.status === "CLOSED" ? fo : fulfillmentOrderRecord({ status: "CLOSED", actions: [], lines: fo.lineItems.map((li) => ({ sku: li.sku, quantity: li.totalQuantity, remaining: 0 })) }),
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
