/**
 * POST /flow/lifecycle: Shopify Flow's trigger lifecycle callback (signed like an
 * action: authenticate.flow refuses a wrong signature and finds the shop's offline
 * session). Flow lets the merchant enable a workflow only after a 2xx here, so the
 * answer is immediate; app/pages/flow-lifecycle.server.ts bounds replays.
 */
import type { ActionFunctionArgs } from "@remix-run/node";
import prisma from "../db.server";
import { receiveLifecycleCallback } from "../pages/flow-lifecycle.server";
import { authenticate } from "../shopify.server";

export const action = async ({ request }: ActionFunctionArgs) => {
  const { session, payload } = await authenticate.flow(request);
  const answer = await receiveLifecycleCallback(prisma, session.shop, payload);
  return Response.json(answer.body, { status: answer.status, headers: { "Cache-Control": "no-store" } });
};
