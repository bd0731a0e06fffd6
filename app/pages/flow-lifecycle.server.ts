/**
 * Flow's trigger lifecycle callback (POST /flow/lifecycle): whether the shop has an
 * enabled workflow using one of our triggers; a trigger no workflow uses is not sent.
 *
 * Shopify documents the body (flow_trigger_definition_id, has_enabled_flow, shop_id,
 * shopify_domain, and timestamp: when the notification was created, a newer one taking
 * precedence), signed with the app's secret in X-Shopify-Hmac-Sha256. It carries no
 * delivery id and no signed time header, so the body's own timestamp bounds a replay: it
 * is required, and a callback created more than LIFECYCLE_MAX_AGE_MS ago (or dated
 * ahead of this clock by more than the skew allowed) is refused. Flow sends the callback
 * while the merchant turns a workflow on or off and waits five seconds for the answer, so
 * a genuine one is never that old. Within the window, a replay restates what the newest
 * notification already said (older ones are ignored): it changes nothing.
 */
import { z } from "zod";
import type { Db } from "../db.server";
import { lifecyclePayloadSchema, recordTriggerUsage } from "../flow/flow-triggers.server";

export const LIFECYCLE_MAX_AGE_MS = 15 * 60_000;
/** Flow's clock may run ahead of this machine's. */
export const LIFECYCLE_MAX_AHEAD_MS = 5 * 60_000;

const callbackSchema = lifecyclePayloadSchema.extend({ timestamp: z.string().datetime({ offset: true }) });

export interface LifecycleAnswer {
  status: 200 | 400;
  body: { ok: true; handles: string[] } | { error: string };
}

export async function receiveLifecycleCallback(
  db: Db,
  shop: string,
  payload: unknown,
  now: Date = new Date(),
): Promise<LifecycleAnswer> {
  const parsed = callbackSchema.safeParse(payload);
  if (!parsed.success) return { status: 400, body: { error: "not a trigger lifecycle callback" } };
  const age = now.getTime() - Date.parse(parsed.data.timestamp);
  if (age > LIFECYCLE_MAX_AGE_MS || age < -LIFECYCLE_MAX_AHEAD_MS)
    return { status: 400, body: { error: "the callback's timestamp is outside the accepted window (a replay)" } };
  const handles = await recordTriggerUsage(db, shop, parsed.data);
  return { status: 200, body: { ok: true, handles } };
}
