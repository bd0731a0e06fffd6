/**
 * An Admin GraphQL `Order` node (ORDERS_PAGE or LEAD_ORDER_FIELDS) rewritten in the
 * REST shape of the orders/create webhook. Backfilled orders are stored as
 * OrderLink.payload in that shape, so the pipeline, the order pages and the
 * compliance code read every link the same way (`fromWebhookOrder`).
 *
 * Pure. The invariant, pinned by a test: fromWebhookOrder(convert(n)) equals
 * fromGraphqlOrder(n).
 */
import { idDigits, list, obj, text, type Json } from "../../leads/adapters/read";

/** Absent in GraphQL -> absent here (null), so the webhook reader sees nothing either. */
const orNull = (value: unknown) => (value === undefined ? null : value);

function restAddress(value: unknown): Json | null {
  const a = obj(value);
  if (!a) return null;
  return {
    first_name: orNull(a.firstName),
    last_name: orNull(a.lastName),
    name: orNull(a.name),
    address1: orNull(a.address1),
    address2: orNull(a.address2),
    city: orNull(a.city),
    province: orNull(a.province),
    zip: orNull(a.zip),
    country_code: orNull(a.countryCodeV2 ?? a.countryCode),
    phone: orNull(a.phone),
  };
}

function restMoney(value: unknown): Json | null {
  const m = obj(value);
  if (!m) return null;
  return { amount: orNull(m.amount), currency_code: orNull(m.currencyCode) };
}

/** A numeric id as Shopify's REST payloads carry it; digits kept as a string beyond 2^53. */
function restId(value: unknown): number | string | null {
  const digits = idDigits(value);
  if (!digits) return null;
  const n = Number(digits);
  return Number.isSafeInteger(n) ? n : digits;
}

function lineNodes(connection: unknown): unknown[] {
  const c = obj(connection);
  if (!c) return list(connection);
  if (Array.isArray(c.nodes)) return c.nodes;
  return list(c.edges).map((e) => obj(e)?.node);
}

function restLineItem(value: unknown): Json | null {
  const l = obj(value);
  if (!l) return null;
  const variant = obj(l.variant);
  return {
    id: restId(l.id),
    admin_graphql_api_id: orNull(l.id),
    variant_id: restId(variant?.id),
    product_id: restId(obj(l.product)?.id),
    // The webhook carries the variant's SKU on the line; GraphQL may leave line.sku empty.
    sku: text(l.sku) ?? text(variant?.sku) ?? null,
    name: orNull(l.name),
    title: orNull(l.title),
    variant_title: orNull(l.variantTitle),
    quantity: orNull(l.quantity),
    current_quantity: orNull(l.currentQuantity),
    requires_shipping: orNull(l.requiresShipping),
    gift_card: orNull(l.isGiftCard),
  };
}

/** The GraphQL order as an orders/create webhook body (the fields the app reads). */
export function graphqlOrderToWebhookShape(node: unknown): Json {
  const o = obj(node) ?? {};
  const totals = obj(o.currentTotalPriceSet);
  const shopTotal = obj(totals?.shopMoney);
  const customer = obj(o.customer);
  const status = text(o.displayFinancialStatus);
  return {
    id: restId(o.legacyResourceId ?? o.id),
    admin_graphql_api_id: orNull(o.id),
    name: orNull(o.name),
    created_at: orNull(o.createdAt),
    updated_at: orNull(o.updatedAt),
    email: orNull(o.email),
    phone: orNull(o.phone),
    currency: orNull(o.currencyCode),
    presentment_currency: orNull(o.presentmentCurrencyCode),
    current_total_price: orNull(shopTotal?.amount),
    current_total_price_set: totals
      ? { shop_money: restMoney(totals.shopMoney), presentment_money: restMoney(totals.presentmentMoney) }
      : null,
    total_outstanding: orNull(obj(obj(o.totalOutstandingSet)?.shopMoney)?.amount),
    financial_status: status ? status.toLowerCase() : null,
    payment_gateway_names: list(o.paymentGatewayNames).filter((g) => typeof g === "string"),
    test: typeof o.test === "boolean" ? o.test : false,
    cancelled_at: orNull(o.cancelledAt),
    customer: customer
      ? {
          id: restId(customer.id),
          first_name: orNull(customer.firstName),
          last_name: orNull(customer.lastName),
          phone: text(customer.phone) ?? text(obj(customer.defaultPhoneNumber)?.phoneNumber) ?? null,
          email: text(customer.email) ?? text(obj(customer.defaultEmailAddress)?.emailAddress) ?? null,
        }
      : null,
    shipping_address: restAddress(o.shippingAddress),
    billing_address: restAddress(o.billingAddress),
    line_items: lineNodes(o.lineItems)
      .map(restLineItem)
      .filter((l): l is Json => l !== null),
    // REST joins tags with ", "; a Shopify tag never contains a comma.
    tags: list(o.tags)
      .filter((t): t is string => typeof t === "string")
      .join(", "),
    note: orNull(o.note),
  };
}
