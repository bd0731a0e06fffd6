import { Prisma } from "@prisma/client";
import type { Db } from "../db.server";

export type TransactionClient = Prisma.TransactionClient;

export interface WebhookDeliveryKey {
  /** The topic and X-Shopify-Event-Id when present (stable across retries and subscriptions), else X-Shopify-Webhook-Id. */
  id: string;
  shop: string;
  topic: string;
  /** X-Shopify-Triggered-At, when sent. */
  triggeredAt?: Date | null;
}

/**
 * Runs `work` exactly once per delivery: the delivery row and the work commit in
 * one transaction, so a redelivery after a crash re-runs the work and a
 * redelivery after success is recognised and skipped.
 */
export async function processWebhookOnce(
  db: Db,
  delivery: WebhookDeliveryKey,
  work: (tx: TransactionClient) => Promise<unknown>,
): Promise<"processed" | "duplicate"> {
  try {
    // Generous waits: under a burst, transactions queue for the pool's connections.
    await db.$transaction(
      async (tx) => {
        await tx.webhookDelivery.create({ data: delivery });
        await work(tx);
      },
      { maxWait: 10_000, timeout: 20_000 },
    );
    return "processed";
  } catch (error) {
    if (isUniqueViolation(error)) return "duplicate";
    throw error;
  }
}

export function isUniqueViolation(error: unknown): boolean {
  return error instanceof Prisma.PrismaClientKnownRequestError && error.code === "P2002";
}
