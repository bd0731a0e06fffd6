/**
 * Write-back to Shopify, the I/O half: read the order, run the planned steps in order.
 * The plan itself is pure (write-back-plan.ts) and re-exported here.
 *
 * A ShopifyThrottledError or ShopifyUserError stops the run and propagates: the job is
 * rescheduled (throttled) or reported (user error). Steps that succeeded before are not
 * lost: they show in the order's state, which the next run reads and plans against.
 */
import { runAdminGraphql, throwIfUserErrors, type AdminGraphqlClient } from "./admin-graphql.server";
import {
  FULFILLMENT_CREATE,
  ORDER_CANCEL,
  ORDER_MARK_AS_PAID,
  ORDER_WRITE_BACK_HEAD,
  ORDER_WRITE_BACK_HEADS,
  ORDER_WRITE_BACK_STATE,
  TAGS_ADD,
  TAGS_REMOVE,
} from "./documents";
import { ShopifyOrderNotFoundError, type UserErrorEntry } from "./errors";
import { tagsMutationMany, tagsMutationManyVariables } from "./batched-documents";
import { orderWriteBackState, type OrderWriteBackState, type OrderWriteBackStateData } from "./order-write-back-state";
import {
  FULFILL_SHIPPING_STATUSES,
  NO_OUTCOME,
  planWriteBack,
  recordWriteBack,
  type WriteBackDone,
  type WriteBackLink,
  type WriteBackOutcome,
  type WriteBackSettings,
  type WriteBackStep,
} from "./write-back-plan";

export * from "./write-back-plan";
export type { OrderWriteBackState, FulfillmentOrderState } from "./order-write-back-state";

interface UserErrorsPayload {
  userErrors: UserErrorEntry[];
}

/** With its fulfilment orders (`withFulfillmentOrders`, the costly read) or without. */
export async function fetchOrderWriteBackState(
  admin: AdminGraphqlClient,
  orderGid: string,
  withFulfillmentOrders = true,
): Promise<OrderWriteBackState> {
  const data = await runAdminGraphql<OrderWriteBackStateData>(
    admin,
    withFulfillmentOrders ? ORDER_WRITE_BACK_STATE : ORDER_WRITE_BACK_HEAD,
    { id: orderGid },
  );
  const state = orderWriteBackState(data);
  if (!state) throw new ShopifyOrderNotFoundError(orderGid);
  return state;
}

/** Runs the steps in order; returns what Shopify accepted. */
export async function executeWriteBack(
  admin: AdminGraphqlClient,
  orderGid: string,
  steps: readonly WriteBackStep[],
): Promise<WriteBackOutcome> {
  const outcome: WriteBackOutcome = { ...NO_OUTCOME, tagsAdded: [], tagsRemoved: [], fulfillmentIds: [] };
  for (const step of steps) await runStep(admin, orderGid, step, outcome);
  return outcome;
}

async function runStep(admin: AdminGraphqlClient, orderGid: string, step: WriteBackStep, outcome: WriteBackOutcome) {
  switch (step.kind) {
    case "tagsAdd": {
      const data = await runAdminGraphql<{ tagsAdd: UserErrorsPayload | null }>(admin, TAGS_ADD, {
        id: orderGid,
        tags: step.tags,
      });
      throwIfUserErrors("TagsAdd", "add the order tags", data.tagsAdd?.userErrors);
      outcome.tagsAdded.push(...step.tags);
      return;
    }
    case "tagsRemove": {
      const data = await runAdminGraphql<{ tagsRemove: UserErrorsPayload | null }>(admin, TAGS_REMOVE, {
        id: orderGid,
        tags: step.tags,
      });
      throwIfUserErrors("TagsRemove", "remove outdated order tags", data.tagsRemove?.userErrors);
      outcome.tagsRemoved.push(...step.tags);
      return;
    }
    case "fulfillmentCreate": {
      const fulfillment = {
        lineItemsByFulfillmentOrder: step.fulfillmentOrders.map((fo) => ({
          fulfillmentOrderId: fo.fulfillmentOrderId,
          fulfillmentOrderLineItems: fo.lineItems,
        })),
        // The platform's courier tells the customer; Shopify's shipping email would repeat it.
        notifyCustomer: false,
        ...(step.tracking
          ? {
              trackingInfo: {
                number: step.tracking.number,
                company: step.tracking.company,
                ...(step.tracking.url ? { url: step.tracking.url } : {}),
              },
            }
          : {}),
      };
      const data = await runAdminGraphql<{
        fulfillmentCreate: (UserErrorsPayload & { fulfillment: { id: string } | null }) | null;
      }>(admin, FULFILLMENT_CREATE, { fulfillment });
      throwIfUserErrors("FulfillmentCreate", "create the fulfilment", data.fulfillmentCreate?.userErrors);
      const id = data.fulfillmentCreate?.fulfillment?.id;
      if (id) outcome.fulfillmentIds.push(id);
      return;
    }
    case "markAsPaid": {
      const data = await runAdminGraphql<{ orderMarkAsPaid: UserErrorsPayload | null }>(admin, ORDER_MARK_AS_PAID, {
        input: { id: orderGid },
      });
      throwIfUserErrors("OrderMarkAsPaid", "mark the order as paid", data.orderMarkAsPaid?.userErrors);
      outcome.markedPaid = true;
      return;
    }
    case "cancel": {
      const data = await runAdminGraphql<{
        orderCancel: { job: { id: string } | null; orderCancelUserErrors: UserErrorEntry[] } | null;
      }>(admin, ORDER_CANCEL, {
        orderId: orderGid,
        reason: step.reason,
        restock: step.restock,
        refundMethod: { originalPaymentMethodsRefund: step.refund },
        notifyCustomer: step.notifyCustomer,
        staffNote: step.staffNote,
      });
      throwIfUserErrors("OrderCancel", "cancel the order", data.orderCancel?.orderCancelUserErrors);
      outcome.cancelRequested = true;
      outcome.cancelJobId = data.orderCancel?.job?.id ?? null;
      return;
    }
  }
}

export interface WriteBackRun {
  steps: WriteBackStep[];
  outcome: WriteBackOutcome;
  /** The new `done` record to store. */
  done: WriteBackDone;
}

/**
 * The points Shopify asks to be in the shop's bucket before it runs each read
 * (its requested cost, after Shopify's published rules: the fulfilment orders'
 * connections make the first one costly). Mutations ask for 10.
 */
export const READ_POINTS = { withFulfillmentOrders: 563, head: 1 } as const;
/** What each read actually costs an order of a few lines (Shopify charges what was returned). */
export const READ_ACTUAL_POINTS = { withFulfillmentOrders: 12, head: 1 } as const;
export const MUTATION_POINTS = 10;

/** Whether the plan may fulfil, so the read needs the order's fulfilment orders. */
export function mayFulfil(
  link: Pick<WriteBackLink, "shippingStatus" | "done">,
  settings: Pick<WriteBackSettings, "fulfillment">,
): boolean {
  return (
    settings.fulfillment &&
    !link.done.fulfilled &&
    link.shippingStatus !== null &&
    FULFILL_SHIPPING_STATUSES.has(link.shippingStatus)
  );
}

/** Read the order, plan, execute: the whole write-back of one lead. */
export async function writeBackOrder(
  admin: AdminGraphqlClient,
  orderGid: string,
  link: WriteBackLink,
  settings: WriteBackSettings,
): Promise<WriteBackRun> {
  const [run] = await writeBackOrders(admin, [{ orderGid, link, settings }]);
  if ("error" in run) throw run.error;
  return run;
}

/** One order of a batch of write-backs. */
export interface WriteBackItem {
  orderGid: string;
  link: WriteBackLink;
  settings: WriteBackSettings;
}

/**
 * writeBackOrder for several orders of one shop, in few requests: the heads of
 * those that cannot be fulfilled in one read (those that may be, with their
 * costly fulfilment orders, one by one), then the steps in rounds, each
 * order's next step per round, its tag changes in one request per kind and the
 * rarer steps one by one. Each order's run, or the error that stopped it (its
 * steps already done show in the order's state the next run reads).
 */
export async function writeBackOrders(
  admin: AdminGraphqlClient,
  items: readonly WriteBackItem[],
): Promise<(WriteBackRun | { error: unknown })[]> {
  const states = await readWriteBackStates(admin, items);
  const plans = items.map((item, i) => {
    const state = states[i];
    return "error" in state
      ? state
      : {
          steps: planWriteBack(item.link, item.settings, state),
          outcome: { ...NO_OUTCOME, tagsAdded: [], tagsRemoved: [], fulfillmentIds: [] },
        };
  });
  for (let round = 0; ; round++) {
    const due = plans.flatMap((plan, i) =>
      "error" in plan || round >= plan.steps.length ? [] : [{ i, step: plan.steps[round], outcome: plan.outcome }],
    );
    if (due.length === 0) break;
    const failed = await runRound(
      admin,
      due.map((d) => ({ ...d, orderGid: items[d.i].orderGid })),
    );
    for (const [i, error] of failed) plans[i] = { error };
  }
  return plans.map((plan, i) =>
    "error" in plan
      ? plan
      : { steps: plan.steps, outcome: plan.outcome, done: recordWriteBack(items[i].link.done, plan.outcome) },
  );
}

async function readWriteBackStates(
  admin: AdminGraphqlClient,
  items: readonly WriteBackItem[],
): Promise<(OrderWriteBackState | { error: unknown })[]> {
  const states: (OrderWriteBackState | { error: unknown })[] = new Array(items.length);
  const heads: number[] = [];
  for (const [i, item] of items.entries()) {
    if (!mayFulfil(item.link, item.settings)) {
      heads.push(i);
      continue;
    }
    try {
      states[i] = await fetchOrderWriteBackState(admin, item.orderGid, true);
    } catch (error) {
      states[i] = { error };
    }
  }
  if (heads.length === 1) {
    const [i] = heads;
    states[i] = await fetchOrderWriteBackState(admin, items[i].orderGid, false).catch((error: unknown) => ({ error }));
  } else if (heads.length > 1) {
    try {
      const data = await runAdminGraphql<{ nodes: (OrderWriteBackStateData["order"] | null)[] }>(
        admin,
        ORDER_WRITE_BACK_HEADS,
        { ids: heads.map((i) => items[i].orderGid) },
      );
      heads.forEach((i, n) => {
        const state = orderWriteBackState({ order: data.nodes[n] ?? null });
        states[i] = state ?? { error: new ShopifyOrderNotFoundError(items[i].orderGid) };
      });
    } catch (error) {
      for (const i of heads) states[i] = { error };
    }
  }
  return states;
}

/** One step of each order: tag changes together per kind, the others one by one. The orders whose step failed, with the error. */
async function runRound(
  admin: AdminGraphqlClient,
  due: readonly { i: number; orderGid: string; step: WriteBackStep; outcome: WriteBackOutcome }[],
): Promise<Map<number, unknown>> {
  const failed = new Map<number, unknown>();
  for (const field of ["tagsAdd", "tagsRemove"] as const) {
    const group = due.filter((d) => d.step.kind === field);
    if (group.length === 0) continue;
    if (group.length === 1) {
      const [d] = group;
      await runStep(admin, d.orderGid, d.step, d.outcome).catch((error: unknown) => failed.set(d.i, error));
      continue;
    }
    const calls = group.map((d) => ({
      orderGid: d.orderGid,
      tags: (d.step as Extract<WriteBackStep, { kind: "tagsAdd" | "tagsRemove" }>).tags,
    }));
    try {
      const data = await runAdminGraphql<Record<string, UserErrorsPayload | null>>(
        admin,
        tagsMutationMany(field, group.length),
        tagsMutationManyVariables(calls),
      );
      group.forEach((d, n) => {
        try {
          if (field === "tagsAdd") throwIfUserErrors("TagsAdd", "add the order tags", data[`a${n}`]?.userErrors);
          else throwIfUserErrors("TagsRemove", "remove outdated order tags", data[`a${n}`]?.userErrors);
          (field === "tagsAdd" ? d.outcome.tagsAdded : d.outcome.tagsRemoved).push(...calls[n].tags);
        } catch (error) {
          failed.set(d.i, error);
        }
      });
    } catch (error) {
      for (const d of group) failed.set(d.i, error);
    }
  }
  for (const d of due.filter((d) => d.step.kind !== "tagsAdd" && d.step.kind !== "tagsRemove")) {
    await runStep(admin, d.orderGid, d.step, d.outcome).catch((error: unknown) => failed.set(d.i, error));
  }
  return failed;
}
