/**
 * The orders/create webhook body (Shopify REST order JSON) as a `ShopOrder`.
 */
import type { Money, ShopAddress, ShopLineItem, ShopOrder } from "../types";
import { MAX_GATEWAYS, MAX_LINE_ITEMS, MAX_TAGS } from "../field-limits";
import { cappedList, compact, count, flag, idDigits, list, obj, text } from "./read";

function address(value: unknown): ShopAddress | undefined {
  const a = obj(value);
  if (!a) return undefined;
  return compact({
    firstName: text(a.first_name),
    lastName: text(a.last_name),
    name: text(a.name),
    address1: text(a.address1),
    address2: text(a.address2),
    city: text(a.city),
    province: text(a.province),
    zip: text(a.zip),
    countryCode: text(a.country_code),
    phone: text(a.phone),
  });
}

function money(value: unknown): Money | undefined {
  const m = obj(value);
  const amount = text(m?.amount);
  const currencyCode = text(m?.currency_code);
  return amount && currencyCode ? { amount, currencyCode } : undefined;
}

function lineItem(value: unknown, index: number): ShopLineItem | undefined {
  const l = obj(value);
  if (!l) return undefined;
  // current_quantity is what is left after edits and removals; older payloads lack it.
  const quantity = count(l.current_quantity) ?? count(l.quantity) ?? 0;
  return compact({
    id: idDigits(l.id) ?? String(index),
    variantId: idDigits(l.variant_id),
    productId: idDigits(l.product_id),
    sku: text(l.sku),
    name: text(l.name),
    title: text(l.title),
    variantTitle: text(l.variant_title),
    quantity,
    requiresShipping: flag(l.requires_shipping, true),
    giftCard: flag(l.gift_card, false),
  });
}

export function fromWebhookOrder(payload: unknown): ShopOrder {
  const o = obj(payload) ?? {};
  const currency = text(o.currency);
  const totalSet = obj(o.current_total_price_set);
  const shopTotal =
    money(totalSet?.shop_money) ??
    ((text(o.current_total_price) ?? text(o.total_price))
      ? { amount: (text(o.current_total_price) ?? text(o.total_price)) as string, currencyCode: currency ?? "" }
      : undefined);
  const outstanding = text(o.total_outstanding);
  // Every list is cut or checked against its cap before its elements are read.
  const gateways = [...list(o.payment_gateway_names).slice(0, MAX_GATEWAYS), o.gateway]
    .map(text)
    .filter((g): g is string => g !== undefined);
  const customer = obj(o.customer);
  const tags = text(o.tags);
  const lines = cappedList(o.line_items, MAX_LINE_ITEMS);
  return compact({
    id: idDigits(o.id) ?? "",
    name: text(o.name) ?? "",
    createdAt: text(o.created_at),
    email: text(o.email),
    phone: text(o.phone),
    currency,
    presentmentCurrency: text(o.presentment_currency),
    currentTotal: shopTotal,
    currentTotalPresentment: money(totalSet?.presentment_money),
    totalOutstanding: outstanding ? { amount: outstanding, currencyCode: currency ?? "" } : undefined,
    financialStatus: text(o.financial_status)?.toLowerCase(),
    paymentGatewayNames: [...new Set(gateways)],
    test: flag(o.test, false),
    cancelledAt: text(o.cancelled_at),
    customer: customer
      ? compact({
          firstName: text(customer.first_name),
          lastName: text(customer.last_name),
          phone: text(customer.phone),
          email: text(customer.email),
        })
      : undefined,
    shippingAddress: address(o.shipping_address),
    billingAddress: address(o.billing_address),
    lineItems: lines.items.map(lineItem).filter((l): l is ShopLineItem => l !== undefined),
    lineItemCount: lines.items.length < lines.length ? lines.length : undefined,
    tags: tags
      ? tags
          .split(",", MAX_TAGS)
          .map((t) => t.trim())
          .filter(Boolean)
      : [],
    note: text(o.note),
  });
}
