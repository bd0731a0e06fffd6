/**
 * POST /flow/actions/send-order: Shopify Flow runs the "Send order to the COD
 * platform" action (extensions/flow-send-order). Flow signs the body with the app's
 * secret: authenticate.flow refuses a wrong or missing signature (400) and finds the
 * shop's offline session.
 */
import type { ActionFunctionArgs } from "@remix-run/node";
import prisma from "../db.server";
import { runFlowSendOrder } from "../pages/flow-send-order.server";
import { authenticate } from "../shopify.server";

export const action = async ({ request }: ActionFunctionArgs) => {
  const { session, payload } = await authenticate.flow(request);
  const answer = await runFlowSendOrder(prisma, session.shop, payload);
  return Response.json(answer.body, { status: answer.status, headers: { "Cache-Control": "no-store" } });
};
