/**
 * The demo's built-in orders as the browser tests place them: a payload re-dated
 * to now, as Shopify would send it today; and a wait that also serves hooks
 * (expect.poll is for tests only).
 */
import { readOrderFiles } from "../../scripts/dev/lib/order-files";
import { BUILT_IN_ORDERS_DIR } from "../../scripts/dev/demo/run-demo";
import type { WebhookOrderPayload } from "../../shopify-admin/index";

export type OrderPayload = WebhookOrderPayload & Record<string, unknown>;

export const BUILT_IN_DELIVERIES = readOrderFiles(BUILT_IN_ORDERS_DIR);

/** A delivery's payload dated now (created, updated, processed). */
export function redated(payload: unknown): OrderPayload {
  const now = new Date().toISOString();
  return { ...(payload as OrderPayload), created_at: now, updated_at: now, processed_at: now };
}

/** The built-in orders/create payload of an order name ("#1019"), dated now. */
export function builtInOrder(name: string): OrderPayload {
  return redated(BUILT_IN_DELIVERIES.find((d) => d.topic === "orders/create" && d.payload.name === name)!.payload);
}

/** Polls until `check` holds, or fails naming what it waited for. */
export async function waitUntil(what: string, check: () => Promise<boolean>, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}
