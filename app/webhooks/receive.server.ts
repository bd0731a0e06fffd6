/**
 * Shared intake for Shopify webhooks: verify the HMAC (authenticate.webhook
 * answers 401 itself when it is wrong), then run the handler once per delivery.
 */
import prisma from "../db.server";
import { authenticate } from "../shopify.server";
import type { Prisma } from "@prisma/client";
import { processWebhookOnce, type TransactionClient } from "../models/webhook-delivery.server";
import { UnreadableOrderError } from "./order-intake.server";

export type WebhookContext = Awaited<ReturnType<typeof authenticate.webhook>>;

/**
 * The fast path for the busiest topic: `build` returns writes that are each
 * safe to repeat (insert-or-ignore, the delivery row among them), committed
 * as one batch transaction: no interactive transaction held open per webhook.
 */
export async function receiveWebhookWrites(
  request: Request,
  build: (webhook: WebhookContext, delivery: { id: string; shop: string; topic: string }) => Prisma.PrismaPromise<unknown>[],
): Promise<Response> {
  const webhook = await authenticate.webhook(request);
  const delivery = { id: webhook.eventId || webhook.webhookId, shop: webhook.shop, topic: String(webhook.topic) };
  let writes: Prisma.PrismaPromise<unknown>[];
  try {
    writes = build(webhook, delivery);
  } catch (error) {
    if (error instanceof UnreadableOrderError) return new Response(error.message, { status: 422 });
    throw error;
  }
  await prisma.$transaction(writes);
  return new Response(null, { status: 200 });
}

export async function receiveWebhook(
  request: Request,
  handle: (tx: TransactionClient, webhook: WebhookContext) => Promise<void>,
): Promise<Response> {
  const webhook = await authenticate.webhook(request);
  const id = webhook.eventId || webhook.webhookId;
  try {
    await processWebhookOnce(prisma, { id, shop: webhook.shop, topic: String(webhook.topic) }, (tx) =>
      handle(tx, webhook),
    );
  } catch (error) {
    // A verified payload we cannot read: say what is wrong; nothing was stored.
    if (error instanceof UnreadableOrderError) return new Response(error.message, { status: 422 });
    throw error;
  }
  // A duplicate is acknowledged too: Shopify must stop redelivering it.
  return new Response(null, { status: 200 });
}
