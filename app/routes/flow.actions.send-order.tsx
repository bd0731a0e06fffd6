/**
 * POST /flow/actions/send-order: Shopify Flow runs the "Send order to the COD
 * platform" action (extensions/flow-send-order). Flow signs the body with the app's
 * secret: authenticate.flow refuses a wrong or missing signature (400) and finds the
 * shop's offline session.
 */
import type { ActionFunctionArgs } from "@remix-run/node";
import prisma from "../db.server";
import { MAX_WEBHOOK_VALUES } from "../http/body-limit.server";
import { MAX_JSON_DEPTH } from "../http/json-depth";
import { readWebhookJson } from "../http/webhook-json";
import { runFlowSendOrder } from "../pages/flow-send-order.server";
import { authenticate } from "../shopify.server";

export const action = async ({ request }: ActionFunctionArgs) => {
  // authenticate.flow reads the body with JSON.parse, which rounds a 64-bit order id: read it again, exactly.
  const copy = request.clone();
  const { session } = await authenticate.flow(request);
  const payload = readWebhookJson(await copy.text(), { maxDepth: MAX_JSON_DEPTH, maxValues: MAX_WEBHOOK_VALUES });
  const answer = await runFlowSendOrder(prisma, session.shop, payload.ok ? payload.value : null);
  return Response.json(answer.body, { status: answer.status, headers: { "Cache-Control": "no-store" } });
};
