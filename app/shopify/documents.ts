/**
 * Every Admin GraphQL document the app sends (API version 2026-07). Each export is a
 * string; test/shopify/documents.test.ts validates every export of this module against
 * the real Admin schema, so a new document here is checked without further work.
 */

/** The order's fields every write-back read plans with (ORDER_WRITE_BACK_STATE, _HEAD and _HEADS). */
const ORDER_HEAD_FIELDS = "id tags displayFinancialStatus canMarkAsPaid cancelledAt";

/**
 * What the write-back plan needs to know about an order before touching it.
 * 10 fulfillment orders x 50 lines keeps the requested cost near 560 points; 20 x 50
 * would exceed Shopify's 1000-point single-query limit (MAX_COST_EXCEEDED).
 */
export const ORDER_WRITE_BACK_STATE = `#graphql
  query OrderWriteBackState($id: ID!) {
    order(id: $id) {
      ${ORDER_HEAD_FIELDS}
      fulfillmentOrders(first: 10) {
        nodes {
          id
          status
          supportedActions {
            action
          }
          assignedLocation {
            location {
              id
            }
          }
          lineItems(first: 50) {
            nodes {
              id
              remainingQuantity
            }
          }
        }
      }
    }
  }
`;

/**
 * The order without its fulfilment orders, for a write-back that plans no
 * fulfilment (tags, paid, cancel): Shopify asks for 1 point before running it,
 * against ORDER_WRITE_BACK_STATE's 563, which a busy shop's bucket rarely holds.
 */
export const ORDER_WRITE_BACK_HEAD = `#graphql
  query OrderWriteBackHead($id: ID!) {
    order(id: $id) {
      ${ORDER_HEAD_FIELDS}
    }
  }
`;

/** ORDER_WRITE_BACK_HEAD for several orders in one read (a batch of write-backs): a null node is an order gone. */
export const ORDER_WRITE_BACK_HEADS = `#graphql
  query OrderWriteBackHeads($ids: [ID!]!) {
    nodes(ids: $ids) {
      ... on Order {
        ${ORDER_HEAD_FIELDS}
      }
    }
  }
`;

export const TAGS_ADD = `#graphql
  mutation TagsAdd($id: ID!, $tags: [String!]!) {
    tagsAdd(id: $id, tags: $tags) {
      node {
        id
      }
      userErrors {
        field
        message
      }
    }
  }
`;

export const TAGS_REMOVE = `#graphql
  mutation TagsRemove($id: ID!, $tags: [String!]!) {
    tagsRemove(id: $id, tags: $tags) {
      node {
        id
      }
      userErrors {
        field
        message
      }
    }
  }
`;

export const FULFILLMENT_CREATE = `#graphql
  mutation FulfillmentCreate($fulfillment: FulfillmentInput!, $message: String) {
    fulfillmentCreate(fulfillment: $fulfillment, message: $message) {
      fulfillment {
        id
        status
        trackingInfo {
          number
          company
          url
        }
      }
      userErrors {
        field
        message
      }
    }
  }
`;

export const ORDER_MARK_AS_PAID = `#graphql
  mutation OrderMarkAsPaid($input: OrderMarkAsPaidInput!) {
    orderMarkAsPaid(input: $input) {
      order {
        id
        displayFinancialStatus
      }
      userErrors {
        field
        message
      }
    }
  }
`;

// refundMethod replaces the deprecated `refund` flag; the job runs asynchronously, so
// the order's cancelledAt may still be null right after this answers.
export const ORDER_CANCEL = `#graphql
  mutation OrderCancel(
    $orderId: ID!
    $reason: OrderCancelReason!
    $restock: Boolean!
    $refundMethod: OrderCancelRefundMethodInput
    $notifyCustomer: Boolean
    $staffNote: String
  ) {
    orderCancel(
      orderId: $orderId
      reason: $reason
      restock: $restock
      refundMethod: $refundMethod
      notifyCustomer: $notifyCustomer
      staffNote: $staffNote
    ) {
      job {
        id
        done
      }
      orderCancelUserErrors {
        field
        message
        code
      }
    }
  }
`;

// Customer.phone is deprecated in 2026-07: defaultPhoneNumber.phoneNumber replaces it.
const MAILING_ADDRESS_FIELDS = `
  firstName
  lastName
  name
  address1
  address2
  city
  province
  zip
  countryCodeV2
  phone
`;

/** Everything the order -> lead mapping reads of an order (lineItems(first: 100): about 310 requested points). */
const ORDER_LEAD_FIELDS = `
  id
  name
  phone
  email
  currencyCode
  presentmentCurrencyCode
  currentTotalPriceSet {
    shopMoney {
      amount
      currencyCode
    }
    presentmentMoney {
      amount
      currencyCode
    }
  }
  displayFinancialStatus
  paymentGatewayNames
  test
  cancelledAt
  createdAt
  updatedAt
  tags
  customer {
    id
    firstName
    lastName
    defaultPhoneNumber {
      phoneNumber
    }
  }
  shippingAddress {${MAILING_ADDRESS_FIELDS}}
  billingAddress {${MAILING_ADDRESS_FIELDS}}
  lineItems(first: 100) {
    nodes {
      id
      sku
      name
      title
      quantity
      currentQuantity
      requiresShipping
      isGiftCard
      variant {
        id
        sku
      }
      product {
        id
      }
    }
  }
`;

/**
 * Backfill: one page of orders with everything the order -> lead mapping reads.
 * lineItems(first: 100) makes each order cost about 310 requested points: pages of at
 * most 3 orders stay under the 1000-point single-query limit.
 */
export const ORDERS_PAGE = `#graphql
  query OrdersPage($first: Int!, $after: String, $query: String) {
    orders(first: $first, after: $after, query: $query) {
      nodes {${ORDER_LEAD_FIELDS}}
      pageInfo {
        hasNextPage
        endCursor
      }
    }
  }
`;

/** What the reconciliation compares with its own rows: scalars only, 1 requested point an order. */
const ORDER_STATE_FIELDS = `
  id
  name
  createdAt
  updatedAt
  cancelledAt
  displayFinancialStatus
  displayFulfillmentStatus
  tags
`;

/**
 * Reconciliation: the orders updated since the watermark, oldest change first (so a
 * pass resumes from its cursor), 250 a page at about 252 requested points; with the
 * shop's order counts of the sync ledger's two windows.
 */
export const RECONCILE_ORDERS = `#graphql
  query ReconcileOrders($first: Int!, $after: String, $query: String!, $dayQuery: String!, $weekQuery: String!) {
    orders(first: $first, after: $after, query: $query, sortKey: UPDATED_AT) {
      nodes {${ORDER_STATE_FIELDS}}
      pageInfo {
        hasNextPage
        endCursor
      }
    }
    day: ordersCount(query: $dayQuery) {
      count
      precision
    }
    week: ordersCount(query: $weekQuery) {
      count
      precision
    }
  }
`;

/** Reconciliation: orders the app must take in or update, read whole (3 at a time, as ORDERS_PAGE). */
export const RECONCILE_ORDER_DETAILS = `#graphql
  query ReconcileOrderDetails($ids: [ID!]!) {
    nodes(ids: $ids) {
      ... on Order {${ORDER_LEAD_FIELDS}}
    }
  }
`;

/** Reconciliation: the Shopify state of orders the app wrote to since its last pass. */
export const RECONCILE_ORDER_STATES = `#graphql
  query ReconcileOrderStates($ids: [ID!]!) {
    nodes(ids: $ids) {
      ... on Order {${ORDER_STATE_FIELDS}}
    }
  }
`;

/** SKU mapping page: the shop's variants, searchable. */
export const PRODUCT_VARIANTS_PAGE = `#graphql
  query ProductVariantsPage($first: Int!, $after: String, $query: String) {
    productVariants(first: $first, after: $after, query: $query) {
      nodes {
        id
        sku
        title
        displayName
        product {
          id
          title
        }
      }
      pageInfo {
        hasNextPage
        endCursor
      }
    }
  }
`;

/** The order as Shopify shows it now, for the order page (a few points: no connections). */
export const ORDER_SHOPIFY_STATUS = `#graphql
  query OrderShopifyStatus($id: ID!) {
    order(id: $id) {
      id
      name
      displayFinancialStatus
      displayFulfillmentStatus
      cancelledAt
      tags
    }
  }
`;

/** The conversion feed's storefront pixel (extensions/conversion-pixel): registered with its settings. */
export const WEB_PIXEL_CREATE = `#graphql
  mutation WebPixelCreate($webPixel: WebPixelInput!) {
    webPixelCreate(webPixel: $webPixel) {
      webPixel {
        id
        settings
      }
      userErrors {
        code
        field
        message
      }
    }
  }
`;

export const WEB_PIXEL_UPDATE = `#graphql
  mutation WebPixelUpdate($id: ID!, $webPixel: WebPixelInput!) {
    webPixelUpdate(id: $id, webPixel: $webPixel) {
      webPixel {
        id
        settings
      }
      userErrors {
        code
        field
        message
      }
    }
  }
`;

export const WEB_PIXEL_DELETE = `#graphql
  mutation WebPixelDelete($id: ID!) {
    webPixelDelete(id: $id) {
      deletedWebPixelId
      userErrors {
        code
        field
        message
      }
    }
  }
`;

/** The app's pixel on the shop (no id: the calling app's own). */
export const WEB_PIXEL = `#graphql
  query WebPixel {
    webPixel {
      id
      settings
    }
  }
`;

/** The delivery odds on the order's own risk card (level and facts): the risk-assessment job. */
export const ORDER_RISK_ASSESSMENT_CREATE = `#graphql
  mutation OrderRiskAssessmentCreate($input: OrderRiskAssessmentCreateInput!) {
    orderRiskAssessmentCreate(orderRiskAssessmentInput: $input) {
      orderRiskAssessment {
        riskLevel
      }
      userErrors {
        field
        message
        code
      }
    }
  }
`;

/** The order's risk card as Shopify shows it (tests and the demo read the app's assessment back). */
export const ORDER_RISK_SUMMARY = `#graphql
  query OrderRiskSummary($id: ID!) {
    order(id: $id) {
      id
      risk {
        recommendation
        assessments {
          riskLevel
          facts {
            description
            sentiment
          }
          provider {
            title
          }
        }
      }
    }
  }
`;
