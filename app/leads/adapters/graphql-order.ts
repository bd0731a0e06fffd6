/**
 * An Admin GraphQL `Order` (2026-07) as a `ShopOrder`, for backfill. `LEAD_ORDER_FIELDS`
 * is the fragment that selects exactly what the mapper reads; it is validated against
 * Shopify's schema in the tests.
 */
import type { Money, ShopAddress, ShopLineItem, ShopOrder } from "../types";
import { MAX_GATEWAYS, MAX_LINE_ITEMS, MAX_TAGS } from "../field-limits";
import { cappedList, compact, count, flag, idDigits, list, obj, text } from "./read";

const ADDRESS_FIELDS = "firstName lastName name address1 address2 city province zip countryCodeV2 phone";

export const LEAD_ORDER_FIELDS = `
fragment LeadOrderFields on Order {
  id
  legacyResourceId
  name
  createdAt
  email
  phone
  currencyCode
  presentmentCurrencyCode
  currentTotalPriceSet { shopMoney { amount currencyCode } presentmentMoney { amount currencyCode } }
  totalOutstandingSet { shopMoney { amount currencyCode } }
  displayFinancialStatus
  paymentGatewayNames
  test
  cancelledAt
  tags
  note
  customer { firstName lastName defaultPhoneNumber { phoneNumber } defaultEmailAddress { emailAddress } }
  shippingAddress { ${ADDRESS_FIELDS} }
  billingAddress { ${ADDRESS_FIELDS} }
  lineItems(first: 250) {
    nodes {
      id
      sku
      name
      title
      variantTitle
      quantity
      currentQuantity
      requiresShipping
      isGiftCard
      variant { id sku }
      product { id }
    }
  }
}
`;

function address(value: unknown): ShopAddress | undefined {
  const a = obj(value);
  if (!a) return undefined;
  return compact({
    firstName: text(a.firstName),
    lastName: text(a.lastName),
    name: text(a.name),
    address1: text(a.address1),
    address2: text(a.address2),
    city: text(a.city),
    province: text(a.province),
    zip: text(a.zip),
    countryCode: text(a.countryCodeV2) ?? text(a.countryCode),
    phone: text(a.phone),
  });
}

function money(value: unknown): Money | undefined {
  const m = obj(value);
  const amount = text(m?.amount);
  const currencyCode = text(m?.currencyCode);
  return amount && currencyCode ? { amount, currencyCode } : undefined;
}

function lineItem(value: unknown, index: number): ShopLineItem | undefined {
  const l = obj(value);
  if (!l) return undefined;
  const variant = obj(l.variant);
  return compact({
    id: idDigits(l.id) ?? String(index),
    variantId: idDigits(variant?.id),
    productId: idDigits(obj(l.product)?.id),
    sku: text(l.sku) ?? text(variant?.sku),
    name: text(l.name),
    title: text(l.title),
    variantTitle: text(l.variantTitle),
    quantity: count(l.currentQuantity) ?? count(l.quantity) ?? 0,
    requiresShipping: flag(l.requiresShipping, true),
    giftCard: flag(l.isGiftCard, false),
  });
}

/** Line items from a connection read with `nodes` or with `edges { node }`. */
function lineNodes(connection: unknown): unknown[] {
  const c = obj(connection);
  if (!c) return list(connection);
  if (Array.isArray(c.nodes)) return c.nodes;
  return list(c.edges).map((e) => obj(e)?.node);
}

export function fromGraphqlOrder(node: unknown): ShopOrder {
  const o = obj(node) ?? {};
  const totals = obj(o.currentTotalPriceSet);
  const customer = obj(o.customer);
  const lines = cappedList(lineNodes(o.lineItems), MAX_LINE_ITEMS);
  return compact({
    id: idDigits(o.legacyResourceId) ?? idDigits(o.id) ?? "",
    name: text(o.name) ?? "",
    createdAt: text(o.createdAt),
    email: text(o.email),
    phone: text(o.phone),
    currency: text(o.currencyCode),
    presentmentCurrency: text(o.presentmentCurrencyCode),
    currentTotal: money(totals?.shopMoney),
    currentTotalPresentment: money(totals?.presentmentMoney),
    totalOutstanding: money(obj(o.totalOutstandingSet)?.shopMoney),
    financialStatus: text(o.displayFinancialStatus)?.toLowerCase(),
    paymentGatewayNames: list(o.paymentGatewayNames)
      .slice(0, MAX_GATEWAYS)
      .map(text)
      .filter((g): g is string => g !== undefined),
    test: flag(o.test, false),
    cancelledAt: text(o.cancelledAt),
    customer: customer
      ? compact({
          firstName: text(customer.firstName),
          lastName: text(customer.lastName),
          phone: text(customer.phone) ?? text(obj(customer.defaultPhoneNumber)?.phoneNumber),
          email: text(customer.email) ?? text(obj(customer.defaultEmailAddress)?.emailAddress),
        })
      : undefined,
    shippingAddress: address(o.shippingAddress),
    billingAddress: address(o.billingAddress),
    lineItems: lines.items.map(lineItem).filter((l): l is ShopLineItem => l !== undefined),
    lineItemCount: lines.items.length < lines.length ? lines.length : undefined,
    tags: list(o.tags)
      .slice(0, MAX_TAGS)
      .map(text)
      .filter((t): t is string => t !== undefined),
    note: text(o.note),
  });
}
