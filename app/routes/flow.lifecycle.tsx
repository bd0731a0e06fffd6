/**
 * POST /flow/lifecycle: Shopify Flow's trigger lifecycle callback (signed like an
 * action). It says whether the shop has an enabled workflow using one of our
 * triggers; a trigger no workflow uses is not sent. Flow lets the merchant enable a
 * workflow only after a 2xx here, so the answer is immediate.
 */
import type { ActionFunctionArgs } from "@remix-run/node";
import prisma from "../db.server";
import { lifecyclePayloadSchema, recordTriggerUsage } from "../flow/flow-triggers.server";
import { authenticate } from "../shopify.server";

export const action = async ({ request }: ActionFunctionArgs) => {
  const { session, payload } = await authenticate.flow(request);
  const parsed = lifecyclePayloadSchema.safeParse(payload);
  if (!parsed.success) return Response.json({ error: "not a trigger lifecycle callback" }, { status: 400 });
  const handles = await recordTriggerUsage(prisma, session.shop, parsed.data);
  return Response.json({ ok: true, handles });
};
