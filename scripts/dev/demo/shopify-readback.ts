/**
 * What the app wrote back to the demo's Shopify (the Admin API stand-in), read through
 * the stand-in's control API: per order its tags, fulfilments with tracking, payment
 * status and cancellation, for the --json summary and the printed links.
 */
import type { PrismaClient } from "@prisma/client";
import type { OrderView, ShopifyAdminControl } from "../../../shopify-admin/control-client";
import type { FlowTriggerRecord } from "../../../shopify-admin/flow";

export interface ShopifyReadback {
  tags: string[];
  fulfillments: { status: string; tracking_number: string | null; company: string | null }[];
  financial_status: string;
  paid: boolean;
  cancelled: boolean;
}

export function readbackOf(order: OrderView): ShopifyReadback {
  return {
    tags: order.tags,
    fulfillments: order.fulfillments.map((f) => ({
      status: f.status,
      tracking_number: f.trackingInfo[0]?.number ?? null,
      company: f.trackingInfo[0]?.company ?? null,
    })),
    financial_status: order.displayFinancialStatus,
    paid: order.displayFinancialStatus === "PAID",
    cancelled: order.cancelledAt !== null,
  };
}

/** The stand-in's view of each order id (numeric, as the webhooks carry it); absent ids are left out. */
export async function readShopifyOrders(
  control: ShopifyAdminControl,
  shop: string,
  orderIds: readonly string[],
): Promise<Map<string, ShopifyReadback>> {
  const wanted = new Set(orderIds);
  const orders = await control.orders(shop);
  return new Map(
    orders.filter((o) => wanted.has(o.id.split("/").pop()!)).map((o) => [o.id.split("/").pop()!, readbackOf(o)]),
  );
}

/** One line per Flow trigger Shopify received, by order id, oldest first: "lead-status-changed confirmed/shipped". */
export function flowTriggersByOrder(records: readonly FlowTriggerRecord[]): Map<string, string[]> {
  const byOrder = new Map<string, string[]>();
  for (const record of [...records].sort((a, b) => a.id - b.id)) {
    const orderId = String(record.payload.order_id ?? "");
    const p = record.payload;
    const line =
      record.handle === "lead-status-changed"
        ? `${record.handle} ${String(p["Confirmation status"])}/${String(p["Shipping status"])}`
        : record.handle === "order-needs-attention"
          ? `${record.handle} ${String(p["Lead state"])}`
          : record.handle;
    byOrder.set(orderId, [...(byOrder.get(orderId) ?? []), line]);
  }
  return byOrder;
}

/** The Flow triggers the stand-in received for the shop, by order id. */
export async function readFlowTriggers(control: ShopifyAdminControl, shop: string): Promise<Map<string, string[]>> {
  return flowTriggersByOrder((await control.flow(shop)).received);
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * Waits until the shop has no lead event waiting to be told (they queue the
 * write-backs and triggers) and no write-back or Flow trigger job due soon
 * (pending, running or retrying), or the deadline.
 */
export async function waitForWriteBacks(db: PrismaClient, shop: string, deadlineMs: number): Promise<boolean> {
  for (;;) {
    const due =
      (await db.pendingLeadEvent.count({ where: { shop } })) +
      (await db.job.count({
        where: {
          kind: { in: ["write-back", "flow-trigger"] },
          shop,
          state: { in: ["pending", "running", "failed"] },
          runAt: { lte: new Date(Date.now() + 10_000) },
        },
      }));
    if (due === 0) return true;
    if (Date.now() > deadlineMs) return false;
    await sleep(300);
  }
}
