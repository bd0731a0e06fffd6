/**
 * Shared intake for Shopify webhooks: verify (a wrong HMAC is answered 401,
 * a missing header 400, before anything is read or stored), then store once
 * per delivery.
 */
import prisma from "../db.server";
import { createGroupCommit } from "../db/group-commit";
import { processWebhookOnce, type TransactionClient } from "../models/webhook-delivery.server";
import {
  orderCreatedInserts,
  orderCreatedRows,
  ordersOfAnotherShop,
  UnreadableOrderError,
  type OrderCreatedRows,
} from "../sync/order-intake.server";
import { storedTopic, verifyShopifyWebhook, type VerifiedWebhook } from "./verify.server";
import { recordOrdersStored } from "../runtime/metrics.server";
import { log } from "../runtime/logger.server";

const deliveryOf = (webhook: VerifiedWebhook) => ({
  // X-Shopify-Event-Id is the same for every delivery of one event (retries, several
  // subscriptions): a repeat is recognised. Scoped by topic, so two topics raised by one
  // change can never pass for each other.
  id: webhook.eventId ? `${storedTopic(webhook.topic)}:${webhook.eventId}` : webhook.webhookId,
  shop: webhook.shop,
  topic: webhook.topic,
  triggeredAt: webhook.triggeredAt ?? null,
});

/** A verified payload we cannot read: say what is wrong; nothing was stored. */
function unreadable(error: unknown): Response {
  if (error instanceof UnreadableOrderError) return new Response(error.message, { status: 422 });
  throw error;
}

/** The committed groups' rows refused as another shop's order (each webhook reads its own). */
const anotherShops = new WeakSet<OrderCreatedRows>();

/**
 * orders/create, the busiest topic (a flash sale sends hundreds a second): its
 * rows are inserts that do nothing when the row exists, so the webhooks that
 * arrive while a commit runs are stored together in the next one. A webhook is
 * answered 200 only once its own rows are committed.
 */
const commitOrdersCreated = createGroupCommit<OrderCreatedRows>(
  async (rows) => {
    const refused = await ordersOfAnotherShop(prisma, rows);
    for (const row of refused) anotherShops.add(row);
    const stored = rows.filter((row) => !refused.has(row));
    if (stored.length === 0) return;
    const [deliveries, orders] = await prisma.$transaction(orderCreatedInserts(prisma, stored));
    recordOrdersStored(stored.length, deliveries, orders);
  },
  // 12 bound values per order row: far under PostgreSQL's limit. A failed group is retried
  // webhook by webhook so one bad order cannot fail the others.
  { maxItems: 100 },
);

export async function receiveOrderCreated(request: Request): Promise<Response> {
  const webhook = await verifyShopifyWebhook(request, "orders/create");
  let rows: OrderCreatedRows;
  try {
    rows = orderCreatedRows(deliveryOf(webhook), webhook.payload);
  } catch (error) {
    return unreadable(error);
  }
  await commitOrdersCreated(rows);
  if (anotherShops.has(rows)) {
    // Logged without the payload: it holds another shop's customer.
    log.warn("webhook refused: orders/create for an order another shop holds (a replayed body)", {
      shop: webhook.shop,
      orderId: rows.link.orderId,
    });
    return new Response("the order belongs to another shop", { status: 400 });
  }
  return new Response(null, { status: 200 });
}

/** `topic`: the route's own topic ("app/uninstalled"); a delivery of another topic is refused. */
export async function receiveWebhook(
  request: Request,
  topic: string,
  handle: (tx: TransactionClient, webhook: VerifiedWebhook) => Promise<unknown>,
): Promise<Response> {
  const webhook = await verifyShopifyWebhook(request, topic);
  try {
    await processWebhookOnce(prisma, deliveryOf(webhook), (tx) => handle(tx, webhook));
  } catch (error) {
    return unreadable(error);
  }
  // A duplicate is acknowledged too: Shopify must stop redelivering it.
  return new Response(null, { status: 200 });
}
