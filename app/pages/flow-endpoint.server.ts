/**
 * What Shopify Flow's two calls get, once the route has authenticated them (authenticate.flow
 * checks the signature and finds the shop): the "Send order to the COD platform" action, its
 * body read again exactly, and the trigger lifecycle callback. Never cached.
 */
import prisma from "../db.server";
import { MAX_WEBHOOK_VALUES } from "../http/body-limit.server";
import { MAX_JSON_DEPTH } from "../http/json-depth";
import { readWebhookJson } from "../http/webhook-json";
import { runFlowSendOrder } from "./flow-send-order.server";
import { receiveLifecycleCallback } from "./flow-lifecycle.server";

const answered = (answer: { status: number; body: unknown }) =>
  Response.json(answer.body, { status: answer.status, headers: { "Cache-Control": "no-store" } });

/** rawBody: the request's own text; authenticate.flow reads it with JSON.parse, which rounds a 64-bit order id. */
export async function flowSendOrderAnswer(shop: string, rawBody: string): Promise<Response> {
  const payload = readWebhookJson(rawBody, { maxDepth: MAX_JSON_DEPTH, maxValues: MAX_WEBHOOK_VALUES });
  return answered(await runFlowSendOrder(prisma, shop, payload.ok ? payload.value : null));
}

export async function flowLifecycleAnswer(shop: string, payload: unknown): Promise<Response> {
  return answered(await receiveLifecycleCallback(prisma, shop, payload));
}
