/**
 * The order page's live view of the order in Shopify (payment, fulfilment, tags), so
 * the merchant sees whether the write-back landed. A failed call is part of the answer:
 * the page shows it with a retry and everything else it knows.
 */
import { PAGE_CALL, runAdminGraphql, type AdminCallPolicy, type AdminGraphqlClient } from "./admin-graphql.server";
import { ORDER_SHOPIFY_STATUS } from "./documents";
import { ShopifyAdminError } from "./errors";
import { shopifyFailureOf, type ShopifyFailure } from "./failure";

export interface ShopifyOrderStatus {
  name: string;
  /** OrderDisplayFinancialStatus, e.g. "PENDING", "PAID"; null when Shopify has none. */
  financialStatus: string | null;
  /** OrderDisplayFulfillmentStatus, e.g. "UNFULFILLED". */
  fulfillmentStatus: string;
  cancelledAt: string | null;
  tags: string[];
}

export type ShopifyOrderStatusResult =
  { ok: true; order: ShopifyOrderStatus | null } | { ok: false; failure: ShopifyFailure };

interface OrderShopifyStatusData {
  order: {
    name: string;
    displayFinancialStatus: string | null;
    displayFulfillmentStatus: string;
    cancelledAt: string | null;
    tags: string[];
  } | null;
}

/** orderId: Shopify's numeric id (as OrderLink stores it). order null: Shopify has no such order (deleted). */
export async function loadShopifyOrderStatus(
  admin: AdminGraphqlClient,
  orderId: string,
  policy: AdminCallPolicy = PAGE_CALL,
): Promise<ShopifyOrderStatusResult> {
  let data: OrderShopifyStatusData;
  try {
    data = await runAdminGraphql<OrderShopifyStatusData>(
      admin,
      ORDER_SHOPIFY_STATUS,
      { id: `gid://shopify/Order/${orderId}` },
      policy,
    );
  } catch (error) {
    if (error instanceof ShopifyAdminError) return { ok: false, failure: shopifyFailureOf(error) };
    throw error;
  }
  const order = data.order;
  if (!order) return { ok: true, order: null };
  return {
    ok: true,
    order: {
      name: order.name,
      financialStatus: order.displayFinancialStatus,
      fulfillmentStatus: order.displayFulfillmentStatus,
      cancelledAt: order.cancelledAt,
      tags: order.tags,
    },
  };
}
