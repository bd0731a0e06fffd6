/**
 * What a shop holds, in the shape the Admin API serves it: each record carries its
 * `__typename` and the field names of the schema, so the default resolver serves it
 * as is (arrays under a connection field become connections). Builders give a typical
 * Moroccan storefront COD order in MAD, with what ORDERS_PAGE and the write-back read.
 */

export interface UserError {
  field: string[] | null;
  message: string;
  code?: string;
}

export interface FulfillmentOrderLineItemRecord {
  __typename: "FulfillmentOrderLineItem";
  id: string;
  totalQuantity: number;
  remainingQuantity: number;
  sku: string | null;
}

export interface FulfillmentOrderRecord {
  __typename: "FulfillmentOrder";
  id: string;
  /** FulfillmentOrderStatus */
  status: string;
  supportedActions: { action: string }[];
  assignedLocation: { location: { __typename: "Location"; id: string; name: string } | null; name: string };
  lineItems: FulfillmentOrderLineItemRecord[];
}

export interface FulfillmentRecord {
  __typename: "Fulfillment";
  id: string;
  status: string;
  createdAt: string;
  trackingInfo: { number: string | null; company: string | null; url: string | null }[];
  notifyCustomer: boolean;
  fulfillmentOrderIds: string[];
  lineItems: { fulfillmentOrderLineItemId: string; quantity: number }[];
}

export interface CancellationRecord {
  reason: string;
  restock: boolean;
  refund: boolean | null;
  refundMethod: unknown;
  notifyCustomer: boolean;
  staffNote: string | null;
}

export interface OrderRecord {
  __typename: "Order";
  id: string;
  name: string;
  tags: string[];
  /** OrderDisplayFinancialStatus */
  displayFinancialStatus: string;
  canMarkAsPaid: boolean;
  cancelledAt: string | null;
  cancellation: CancellationRecord | null;
  fulfillmentOrders: FulfillmentOrderRecord[];
  fulfillments: FulfillmentRecord[];
  lineItems: Record<string, unknown>[];
  createdAt: string;
  /** Every assessment apps created, oldest first (the risk summary serves the latest per app). */
  riskAssessments?: RiskAssessmentRecord[];
  /** Any other Order field, served as is. */
  [field: string]: unknown;
}

export interface ProductVariantRecord {
  __typename: "ProductVariant";
  id: string;
  sku: string | null;
  title: string;
  displayName: string;
  price?: string;
  product: { __typename: "Product"; id: string; title: string; status?: string };
}

export interface ProductRecord {
  __typename: "Product";
  id: string;
  title: string;
  handle: string;
  /** ProductStatus: ACTIVE, ARCHIVED, DRAFT */
  status: string;
  productType: string;
  tags: string[];
  variants: ProductVariantRecord[];
  createdAt: string;
}

export type MutationName =
  | "tagsAdd"
  | "tagsRemove"
  | "fulfillmentCreate"
  | "orderMarkAsPaid"
  | "orderCancel"
  | "webPixelCreate"
  | "webPixelUpdate"
  | "orderRiskAssessmentCreate";

/** An app's risk assessment of an order (orderRiskAssessmentCreate), as the order's risk summary serves it. */
export interface RiskAssessmentRecord {
  __typename: "OrderRiskAssessment";
  /** RiskAssessmentResult */
  riskLevel: string;
  /** RiskFactSentiment and the description, truncated to 256 characters as Shopify does. */
  facts: { __typename: "RiskFact"; description: string; sentiment: string }[];
  provider: { __typename: "App"; id: string; title: string; apiKey: string };
  /** When it was created, on the stand-in's clock (the order page lists them). */
  createdAt: string;
}

export const legacyId = (gid: string) => Number(gid.split("/").pop());

let sequence = 1000;
/** Ids for records built without one: increasing, so lists sorted by id keep insertion order. */
export const nextId = () => ++sequence;

export interface OrderLineInit {
  sku: string | null;
  quantity: number;
  title?: string;
  variantId?: string;
  productId?: string;
  price?: string;
}

export interface OrderInit {
  id?: number;
  name?: string;
  tags?: string[];
  displayFinancialStatus?: string;
  canMarkAsPaid?: boolean;
  lines?: OrderLineInit[];
  /** Defaults to one OPEN, merchant-managed fulfillment order holding every line. */
  fulfillmentOrders?: FulfillmentOrderRecord[];
  fields?: Record<string, unknown>;
}

/** A typical storefront COD order in MAD. */
export function orderRecord(init: OrderInit = {}): OrderRecord {
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
    variant: {
      __typename: "ProductVariant",
      id: line.variantId ?? `gid://shopify/ProductVariant/${number}${i}`,
      sku: line.sku,
    },
    product: { __typename: "Product", id: line.productId ?? `gid://shopify/Product/${number}${i}` },
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
  const status = init.displayFinancialStatus ?? "PENDING";
  return {
    __typename: "Order",
    id: `gid://shopify/Order/${number}`,
    legacyResourceId: String(number),
    name: init.name ?? `#${number}`,
    tags: init.tags ?? [],
    displayFinancialStatus: status,
    displayFulfillmentStatus: "UNFULFILLED",
    canMarkAsPaid: init.canMarkAsPaid ?? !["PAID", "REFUNDED", "VOIDED"].includes(status),
    cancelledAt: null,
    cancellation: null,
    fulfillmentOrders: init.fulfillmentOrders ?? [
      fulfillmentOrderRecord({ lines: lineItems.map((li) => ({ sku: li.sku, quantity: li.quantity })) }),
    ],
    fulfillments: [],
    lineItems,
    phone: "+212612345678",
    email: null,
    note: null,
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
      defaultEmailAddress: null,
    },
    shippingAddress: address,
    billingAddress: address,
    ...init.fields,
  };
}

export function fulfillmentOrderRecord(init: {
  status?: string;
  actions?: string[];
  locationId?: string;
  lines: { sku: string | null; quantity: number; remaining?: number }[];
}): FulfillmentOrderRecord {
  const locationId = init.locationId ?? "gid://shopify/Location/1";
  return {
    __typename: "FulfillmentOrder",
    id: `gid://shopify/FulfillmentOrder/${nextId()}`,
    status: init.status ?? "OPEN",
    supportedActions: (init.actions ?? ["CREATE_FULFILLMENT", "HOLD", "MOVE"]).map((action) => ({ action })),
    assignedLocation: {
      location: { __typename: "Location", id: locationId, name: "Entrepôt Casablanca" },
      name: "Entrepôt Casablanca",
    },
    lineItems: init.lines.map((line) => ({
      __typename: "FulfillmentOrderLineItem",
      id: `gid://shopify/FulfillmentOrderLineItem/${nextId()}`,
      totalQuantity: line.quantity,
      remainingQuantity: line.remaining ?? line.quantity,
      sku: line.sku,
    })),
  };
}

export function variantRecord(init: {
  id: number;
  sku: string | null;
  title: string;
  productId?: number;
  productTitle?: string;
  price?: string;
  productStatus?: string;
}): ProductVariantRecord {
  const productTitle = init.productTitle ?? "Product";
  return {
    __typename: "ProductVariant",
    id: `gid://shopify/ProductVariant/${init.id}`,
    sku: init.sku,
    title: init.title,
    displayName: `${productTitle} - ${init.title}`,
    ...(init.price ? { price: init.price } : {}),
    product: {
      __typename: "Product",
      id: `gid://shopify/Product/${init.productId ?? init.id}`,
      title: productTitle,
      ...(init.productStatus ? { status: init.productStatus } : {}),
    },
  };
}
