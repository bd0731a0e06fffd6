/**
 * Intake of orders/create, orders/updated and orders/cancelled: store the
 * order snapshot and queue the work, inside the webhook's transaction. No
 * mapping and no outbound HTTP here; the worker does that.
 */
import type { Prisma } from "@prisma/client";
import { enqueueJob } from "../queue/jobs.server";
import { externalRefFor } from "../leads/external-ref";
import { acceptsOrderUpdates, isLinkState, isPosted, type LinkState } from "../models/order-link-state";
import { addTimeline } from "../models/timeline.server";

type Tx = Prisma.TransactionClient;

export const POST_LEAD_JOB = "post-lead";
export const postLeadJobKey = (shop: string, orderId: string) => `${POST_LEAD_JOB}:${shop}:${orderId}`;

export class UnreadableOrderError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "UnreadableOrderError";
  }
}

interface OrderHeader {
  orderId: string;
  orderName: string;
  updatedAt: Date | null;
  customerId: string | null;
  cancelledAt: Date | null;
}

function readHeader(payload: Record<string, unknown>): OrderHeader {
  const id = payload.id;
  if ((typeof id !== "number" && typeof id !== "string") || !/^\d+$/.test(String(id))) {
    throw new UnreadableOrderError("the order payload has no numeric id");
  }
  const orderId = String(id);
  const date = (value: unknown) => (typeof value === "string" && !Number.isNaN(Date.parse(value)) ? new Date(value) : null);
  const customer = payload.customer as { id?: unknown } | null | undefined;
  return {
    orderId,
    orderName: typeof payload.name === "string" && payload.name ? payload.name : `#${orderId}`,
    updatedAt: date(payload.updated_at),
    customerId: customer && customer.id != null ? String(customer.id) : null,
    cancelledAt: date(payload.cancelled_at),
  };
}

async function queuePosting(tx: Tx, shop: string, orderId: string, linkId: string) {
  await enqueueJob(tx, { kind: POST_LEAD_JOB, key: postLeadJobKey(shop, orderId), shop, payload: { linkId } });
}

/** orders/create: a new link in `received` and its job; a repeat of a known order changes nothing. */
export async function intakeOrderCreated(tx: Tx, shop: string, payload: Record<string, unknown>): Promise<void> {
  const header = readHeader(payload);
  const existing = await tx.orderLink.findUnique({ where: { shop_orderId: { shop, orderId: header.orderId } } });
  if (existing) {
    // Same order delivered again under another webhook id, or orders/updated won the race:
    // the newest snapshot is kept by intakeOrderUpdated's rules.
    return intakeOrderUpdated(tx, shop, payload);
  }
  const link = await tx.orderLink.create({
    data: {
      shop,
      orderId: header.orderId,
      orderName: header.orderName,
      payload: JSON.stringify(payload),
      payloadAt: header.updatedAt,
      customerId: header.customerId,
      externalRef: externalRefFor({ id: header.orderId, name: header.orderName }) ?? `shopify:${header.orderId}`,
      state: "received",
    },
  });
  await addTimeline(tx, shop, link.id, { kind: "received", message: `Order ${header.orderName} received from Shopify` });
  await queuePosting(tx, shop, header.orderId, link.id);
}

/**
 * orders/updated: an order not yet posted picks up the merchant's corrections
 * (and is mapped again); a posted one keeps its lead. Older snapshots than the
 * stored one are ignored (Shopify does not guarantee delivery order).
 */
export async function intakeOrderUpdated(tx: Tx, shop: string, payload: Record<string, unknown>): Promise<void> {
  const header = readHeader(payload);
  const link = await tx.orderLink.findUnique({ where: { shop_orderId: { shop, orderId: header.orderId } } });
  // An order we never received (placed before install) is not sent because it changed.
  if (!link) return;
  if (link.payloadAt && header.updatedAt && header.updatedAt <= link.payloadAt) return;
  const state = (isLinkState(link.state) ? link.state : "received") as LinkState;
  if (header.cancelledAt) return intakeOrderCancelled(tx, shop, payload);
  if (!acceptsOrderUpdates(state)) {
    // Posted or in flight: keep the snapshot current for display only.
    await tx.orderLink.update({ where: { id: link.id }, data: { payload: JSON.stringify(payload), payloadAt: header.updatedAt } });
    return;
  }
  await tx.orderLink.update({
    where: { id: link.id },
    data: {
      payload: JSON.stringify(payload),
      payloadAt: header.updatedAt,
      orderName: header.orderName,
      customerId: header.customerId,
      state: "received",
      reason: null,
    },
  });
  await addTimeline(tx, shop, link.id, { kind: "updated", message: "Order updated in Shopify: it will be checked again" });
  await queuePosting(tx, shop, header.orderId, link.id);
}

/** orders/cancelled: an unsent order is never sent; a sent one is marked (the API cannot cancel a lead). */
export async function intakeOrderCancelled(tx: Tx, shop: string, payload: Record<string, unknown>): Promise<void> {
  const header = readHeader(payload);
  const link = await tx.orderLink.findUnique({ where: { shop_orderId: { shop, orderId: header.orderId } } });
  if (!link) return;
  const at = header.cancelledAt ?? new Date();
  if (link.cancelledAt) return;
  const state = (isLinkState(link.state) ? link.state : "received") as LinkState;
  if (isPosted(state) || state === "posting") {
    await tx.orderLink.update({ where: { id: link.id }, data: { cancelledAt: at } });
    await addTimeline(tx, shop, link.id, {
      kind: "cancelled",
      message: `Order cancelled in Shopify after its lead ${link.leadRef ?? ""} was sent: cancel the lead in the platform's seller space`.replace("  ", " "),
    });
    return;
  }
  await tx.orderLink.update({ where: { id: link.id }, data: { cancelledAt: at, state: "cancelled", reason: "Cancelled in Shopify before sending" } });
  await addTimeline(tx, shop, link.id, { kind: "cancelled", message: "Order cancelled in Shopify: it will not be sent" });
}
