/**
 * The Flow action "Send order to the COD platform" (extensions/flow-send-order): the
 * same sending as the order page's Send (held, refused or failed orders, queued for
 * the worker, recorded on the timeline), answered within Flow's time limit because
 * it only queues.
 *
 * What Flow reads from the answer: 200 is success (also for a retried run whose
 * order is already queued or sent: the action is idempotent); a 4xx is a failure
 * Flow shows the merchant with our message, not retried; a 5xx is retried by Flow.
 */
import { z } from "zod";
import type { Db } from "../db.server";
import { OrderActionError, resendOrder } from "../sync/order-actions.server";
import { isLinkState, type LinkState } from "../models/order-link-state";
import { parseOrderIdParam, sendLabelFor } from "./order-status-view.server";

export const FLOW_SEND_ORDER_HANDLE = "send-order-to-cod";

export const flowActionPayloadSchema = z.object({
  shopify_domain: z.string().min(1),
  action_run_id: z.string().min(1),
  handle: z.string().optional(),
  properties: z.object({ order_id: z.union([z.number().int().positive(), z.string().min(1)]) }).passthrough(),
});

export interface FlowActionAnswer {
  status: 200 | 400 | 404 | 422;
  body: { ok: boolean; message: string; state?: LinkState; leadRef?: string | null };
}

/** States in which the order already is on its way: a (re)run of the action changes nothing. */
const ON_ITS_WAY: readonly LinkState[] = ["received", "posting", "retrying"];
const SENT: readonly LinkState[] = ["created", "damaged"];

export async function runFlowSendOrder(db: Db, shop: string, body: unknown): Promise<FlowActionAnswer> {
  const parsed = flowActionPayloadSchema.safeParse(body);
  if (!parsed.success)
    return { status: 400, body: { ok: false, message: "The action's payload has no order (properties.order_id)." } };
  const orderId = parseOrderIdParam(String(parsed.data.properties.order_id));
  if (!orderId) return { status: 400, body: { ok: false, message: "The order id is not a Shopify order id." } };

  const link = await db.orderLink.findUnique({ where: { shop_orderId: { shop, orderId } } });
  if (!link) {
    return {
      status: 404,
      body: {
        ok: false,
        message:
          "COD Lead Sync has not received this order: orders placed before the app was installed are imported from Backfill.",
      },
    };
  }
  const state: LinkState = isLinkState(link.state) ? link.state : "received";
  const answer = (
    status: FlowActionAnswer["status"],
    ok: boolean,
    message: string,
    s = state,
    leadRef = link.leadRef,
  ): FlowActionAnswer => ({
    status,
    body: { ok, message, state: s, leadRef },
  });
  if (link.cancelledAt) return answer(422, false, "The order was cancelled in Shopify: it is not sent.");
  if (SENT.includes(state)) return answer(200, true, `Already sent: lead ${link.leadRef ?? ""}`.trim());
  if (ON_ITS_WAY.includes(state)) return answer(200, true, "Already queued to be sent.");
  if (!sendLabelFor(state, false)) {
    return answer(
      422,
      false,
      link.reason ? `This order is not sent: ${link.reason}` : `This order cannot be sent while it is ${state}.`,
    );
  }
  try {
    const updated = await resendOrder(db, shop, link.id, { by: "Shopify Flow" });
    return answer(
      200,
      true,
      "Queued to be sent to the COD platform.",
      isLinkState(updated.state) ? updated.state : "received",
      updated.leadRef,
    );
  } catch (error) {
    if (error instanceof OrderActionError) return answer(error.status === 404 ? 404 : 422, false, error.message);
    throw error;
  }
}
