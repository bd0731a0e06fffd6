/**
 * The order as the write-back plan sees it, flattened from the ORDER_WRITE_BACK_STATE
 * answer (pure).
 */

export interface FulfillmentOrderState {
  id: string;
  /** FulfillmentOrderStatus: OPEN, IN_PROGRESS, CLOSED, ON_HOLD, ... */
  status: string;
  /** FulfillmentOrderAction values, e.g. CREATE_FULFILLMENT. */
  supportedActions: string[];
  /** Assigned location; one fulfillmentCreate may only span a single location. */
  locationId: string | null;
  lineItems: { id: string; remainingQuantity: number }[];
}

export interface OrderWriteBackState {
  id: string;
  tags: string[];
  /** OrderDisplayFinancialStatus: PENDING, PAID, ... (null on some legacy orders). */
  displayFinancialStatus: string | null;
  canMarkAsPaid: boolean;
  cancelledAt: string | null;
  fulfillmentOrders: FulfillmentOrderState[];
}

/** `data` of ORDER_WRITE_BACK_STATE (or ORDER_WRITE_BACK_HEAD: no fulfilment orders asked, none seen). */
export interface OrderWriteBackStateData {
  order: {
    id: string;
    tags: string[];
    displayFinancialStatus: string | null;
    canMarkAsPaid: boolean;
    cancelledAt: string | null;
    fulfillmentOrders?: {
      nodes: {
        id: string;
        status: string;
        supportedActions: { action: string }[];
        assignedLocation: { location: { id: string } | null } | null;
        lineItems: { nodes: { id: string; remainingQuantity: number }[] };
      }[];
    };
  } | null;
}

export function orderWriteBackState(data: OrderWriteBackStateData): OrderWriteBackState | null {
  const order = data.order;
  if (!order) return null;
  return {
    id: order.id,
    tags: order.tags,
    displayFinancialStatus: order.displayFinancialStatus,
    canMarkAsPaid: order.canMarkAsPaid,
    cancelledAt: order.cancelledAt,
    fulfillmentOrders: (order.fulfillmentOrders?.nodes ?? []).map((fo) => ({
      id: fo.id,
      status: fo.status,
      supportedActions: fo.supportedActions.map((a) => a.action),
      locationId: fo.assignedLocation?.location?.id ?? null,
      lineItems: fo.lineItems.nodes.map((li) => ({ id: li.id, remainingQuantity: li.remainingQuantity })),
    })),
  };
}
