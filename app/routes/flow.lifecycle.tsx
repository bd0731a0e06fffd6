/**
 * POST /flow/lifecycle: Shopify Flow's trigger lifecycle callback (signed like an
 * action: authenticate.flow refuses a wrong signature and finds the shop's offline
 * session). Flow lets the merchant enable a workflow only after a 2xx here, so the
 * answer is immediate; app/pages/flow-lifecycle.server.ts bounds replays.
 */
import type { ActionFunctionArgs } from "@remix-run/node";
import { flowLifecycleAnswer } from "../pages/flow-endpoint.server";
import { authenticate } from "../shopify.server";

export const action = async ({ request }: ActionFunctionArgs) => {
  const { session, payload } = await authenticate.flow(request);
  return flowLifecycleAnswer(session.shop, payload);
};
