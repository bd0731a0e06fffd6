/**
 * Bounds on what customers and merchants type, applied to an order before any
 * parsing: every matcher (phone splitting, city words, fuzzy scores, SKU and id
 * lookups) then works on short strings whatever arrives, and the findings that
 * quote the input stay small. A real name, address line, city, title or SKU is
 * far shorter than the bounds, so normal orders pass through untouched (and
 * uncopied).
 */
import { MAX_PHONE_CHARS } from "./phone";
import type { Money, ShopAddress, ShopLineItem, ShopOrder } from "./types";

/** Names, address lines, city, province, titles, SKUs, gateway names: longer is cut here. */
export const MAX_FIELD_CHARS = 500;
/** Ids (order, line, variant, product), order name, currency and status codes. */
export const MAX_ID_CHARS = 100;
/**
 * Lines to deliver in one order: a cash-on-delivery parcel never holds this many,
 * and the platform states no maximum. An order over it is held with one finding
 * instead of being mapped line by line (20,000 lines stored 15 MB of findings).
 */
export const MAX_LINE_ITEMS = 500;
/** Payment gateway names read from one order. */
export const MAX_GATEWAYS = 20;
/** Tags read from one order (Shopify allows 250). */
export const MAX_TAGS = 250;

const over = (value: unknown, max: number) => typeof value === "string" && value.length > max;

function cut<T extends string | undefined>(value: T, max: number): T {
  return (typeof value === "string" && value.length > max ? value.slice(0, max) : value) as T;
}

/** Over the bound a phone is not a phone: cut one past it, so the parser still refuses it as invalid. */
function cutPhone<T extends string | undefined>(value: T): T {
  return (
    typeof value === "string" && value.length > MAX_PHONE_CHARS ? `${value.slice(0, MAX_PHONE_CHARS)}…` : value
  ) as T;
}

const ADDRESS_TEXT = ["firstName", "lastName", "name", "address1", "address2", "city", "province"] as const;
const LINE_TEXT = ["sku", "name", "title", "variantTitle"] as const;
const LINE_IDS = ["id", "variantId", "productId"] as const;

function addressOver(address: ShopAddress | undefined): boolean {
  if (!address) return false;
  return (
    ADDRESS_TEXT.some((k) => over(address[k], MAX_FIELD_CHARS)) ||
    over(address.zip, MAX_ID_CHARS) ||
    over(address.phone, MAX_PHONE_CHARS)
  );
}

function lineOver(line: ShopLineItem): boolean {
  return LINE_TEXT.some((k) => over(line[k], MAX_FIELD_CHARS)) || LINE_IDS.some((k) => over(line[k], MAX_ID_CHARS));
}

const moneyOver = (money: Money | undefined) =>
  over(money?.amount, MAX_ID_CHARS) || over(money?.currencyCode, MAX_ID_CHARS);

function boundMoney(money: Money | undefined): Money | undefined {
  // Stryker disable next-line LogicalOperator: equivalent, a money bag within its bounds copied is equal to the original
  return money && moneyOver(money)
    ? { ...money, amount: cut(money.amount, MAX_ID_CHARS), currencyCode: cut(money.currencyCode, MAX_ID_CHARS) }
    : money;
}

/** True when some field of the order is over its bound (the common case, false, costs one pass). */
export function orderOverBounds(order: ShopOrder): boolean {
  return (
    over(order.id, MAX_ID_CHARS) ||
    over(order.name, MAX_ID_CHARS) ||
    over(order.phone, MAX_PHONE_CHARS) ||
    over(order.currency, MAX_ID_CHARS) ||
    over(order.financialStatus, MAX_ID_CHARS) ||
    over(order.presentmentCurrency, MAX_ID_CHARS) ||
    moneyOver(order.currentTotal) ||
    moneyOver(order.currentTotalPresentment) ||
    moneyOver(order.totalOutstanding) ||
    over(order.customer?.firstName, MAX_FIELD_CHARS) ||
    over(order.customer?.lastName, MAX_FIELD_CHARS) ||
    over(order.customer?.phone, MAX_PHONE_CHARS) ||
    order.paymentGatewayNames.length > MAX_GATEWAYS ||
    order.paymentGatewayNames.some((g) => over(g, MAX_FIELD_CHARS)) ||
    addressOver(order.shippingAddress) ||
    addressOver(order.billingAddress) ||
    order.lineItems.some(lineOver)
  );
}

function boundAddress(address: ShopAddress | undefined): ShopAddress | undefined {
  if (!addressOver(address)) return address;
  const out: ShopAddress = { ...address };
  for (const k of ADDRESS_TEXT) out[k] = cut(out[k], MAX_FIELD_CHARS);
  out.zip = cut(out.zip, MAX_ID_CHARS);
  out.phone = cutPhone(out.phone);
  return out;
}

function boundLine(line: ShopLineItem): ShopLineItem {
  // Stryker disable next-line ConditionalExpression: equivalent, a line within its bounds copied is equal to the original
  if (!lineOver(line)) return line;
  const out: ShopLineItem = { ...line };
  for (const k of LINE_TEXT) out[k] = cut(out[k], MAX_FIELD_CHARS);
  for (const k of LINE_IDS) out[k] = cut(out[k], MAX_ID_CHARS) as string;
  return out;
}

/** The order with every typed field within its bound; the same object when nothing is over. */
export function boundOrderFields(order: ShopOrder): ShopOrder {
  if (!orderOverBounds(order)) return order;
  return {
    ...order,
    id: cut(order.id, MAX_ID_CHARS),
    name: cut(order.name, MAX_ID_CHARS),
    phone: cutPhone(order.phone),
    currency: cut(order.currency, MAX_ID_CHARS),
    financialStatus: cut(order.financialStatus, MAX_ID_CHARS),
    presentmentCurrency: cut(order.presentmentCurrency, MAX_ID_CHARS),
    currentTotal: boundMoney(order.currentTotal),
    currentTotalPresentment: boundMoney(order.currentTotalPresentment),
    totalOutstanding: boundMoney(order.totalOutstanding),
    ...(order.customer
      ? {
          customer: {
            ...order.customer,
            firstName: cut(order.customer.firstName, MAX_FIELD_CHARS),
            lastName: cut(order.customer.lastName, MAX_FIELD_CHARS),
            phone: cutPhone(order.customer.phone),
          },
        }
      : {}),
    paymentGatewayNames: order.paymentGatewayNames.slice(0, MAX_GATEWAYS).map((g) => cut(g, MAX_FIELD_CHARS)),
    shippingAddress: boundAddress(order.shippingAddress),
    billingAddress: boundAddress(order.billingAddress),
    lineItems: order.lineItems.map(boundLine),
  };
}
