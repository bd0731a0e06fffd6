/**
 * Every kind of job the worker runs, and the dedupe key of each: one place for
 * the producers (intake, the merchant's actions, lead-event handlers, the
 * schedulers) and for the worker's handler table. A key is unique across
 * kinds; a second enqueue with the same key changes nothing (see app/queue).
 */
import type { EnqueueJobInput } from "../queue/jobs.server";

export const POST_LEAD_JOB = "post-lead";
export const SYNC_STATUSES_JOB = "sync-statuses";
export const REFRESH_LEAD_JOB = "refresh-lead";
export const WRITE_BACK_JOB = "write-back";
export const FLOW_TRIGGER_JOB = "flow-trigger";
export const RETENTION_JOB = "retention";
export const BACKFILL_JOB = "backfill";
export const PAYMENT_OVERDUE_JOB = "payment-overdue";
export const RECONCILE_JOB = "reconcile";
export const ODDS_FIT_JOB = "odds-fit";
export const RISK_ASSESSMENT_JOB = "risk-assessment";
export const AD_FEED_JOB = "ad-feed";

export const JOB_KINDS = [
  POST_LEAD_JOB,
  SYNC_STATUSES_JOB,
  REFRESH_LEAD_JOB,
  WRITE_BACK_JOB,
  FLOW_TRIGGER_JOB,
  RETENTION_JOB,
  BACKFILL_JOB,
  PAYMENT_OVERDUE_JOB,
  RECONCILE_JOB,
  ODDS_FIT_JOB,
  RISK_ASSESSMENT_JOB,
  AD_FEED_JOB,
] as const;
export type JobKind = (typeof JOB_KINDS)[number];

/** One post per order: a redelivered webhook or a second send of a queued order finds it. */
export const postLeadJobKey = (shop: string, orderId: string) => `${POST_LEAD_JOB}:${shop}:${orderId}`;

export function postLeadJobFor(shop: string, orderId: string, linkId: string): EnqueueJobInput {
  return { kind: POST_LEAD_JOB, key: postLeadJobKey(shop, orderId), shop, payload: { linkId } };
}

/** One status-sync schedule per shop. */
export function syncJobFor(shop: string, runAt: Date): EnqueueJobInput {
  return { kind: SYNC_STATUSES_JOB, key: `${SYNC_STATUSES_JOB}:${shop}`, shop, runAt, payload: {} };
}

/** A platform event asks to re-read one lead: one job per lead at a time. */
export function refreshLeadJobFor(shop: string, ref: string): EnqueueJobInput {
  return { kind: REFRESH_LEAD_JOB, key: `${REFRESH_LEAD_JOB}:${shop}:${ref}`, shop, payload: { ref } };
}

/** One write-back per order at a time: it writes the order's latest state. */
export function writeBackJobFor(shop: string, orderId: string, linkId: string): EnqueueJobInput {
  return { kind: WRITE_BACK_JOB, key: `${WRITE_BACK_JOB}:${shop}:${orderId}`, shop, payload: { linkId } };
}

/** One Flow firing per order, trigger and event (eventKey names the event). */
export function flowTriggerJobFor(
  shop: string,
  orderId: string,
  linkId: string,
  handle: string,
  eventKey: string,
  payload: unknown,
): EnqueueJobInput {
  return {
    kind: FLOW_TRIGGER_JOB,
    key: `${FLOW_TRIGGER_JOB}:${shop}:${orderId}:${handle}:${eventKey}`,
    shop,
    payload: { linkId, handle, payload },
  };
}

/**
 * "Lead status changed" of one lead: one firing at a time, which a later move
 * joins while it waits (it then goes from the first status to the latest).
 */
export function flowStatusTriggerJobFor(
  shop: string,
  orderId: string,
  linkId: string,
  leadRef: string,
  payload: unknown,
  runAt: Date,
): EnqueueJobInput {
  return {
    kind: FLOW_TRIGGER_JOB,
    key: `${FLOW_TRIGGER_JOB}:${shop}:${orderId}:lead-status-changed:${leadRef}`,
    shop,
    runAt,
    payload: { linkId, handle: "lead-status-changed", payload },
  };
}

/** One retention schedule per shop. */
export function retentionJobFor(shop: string, runAt: Date): EnqueueJobInput {
  return { kind: RETENTION_JOB, key: `${RETENTION_JOB}:${shop}`, shop, runAt, payload: {} };
}

/** One backfill per shop at a time. */
export const backfillJobKey = (shop: string) => `${BACKFILL_JOB}:${shop}`;

/** One daily check per shop for delivered parcels the platform has not paid in time. */
export function paymentOverdueJobFor(shop: string, runAt: Date): EnqueueJobInput {
  return { kind: PAYMENT_OVERDUE_JOB, key: `${PAYMENT_OVERDUE_JOB}:${shop}`, shop, runAt, payload: {} };
}

/**
 * One reconciliation per shop (one holder, as the status sync): an empty payload starts a
 * new pass; a pass in progress keeps its cursor there. Many attempts: a pass that cannot
 * reach Shopify comes back at the next interval rather than going dead.
 */
export const reconcileJobKey = (shop: string) => `${RECONCILE_JOB}:${shop}`;

export function reconcileJobFor(shop: string, runAt: Date, payload: unknown = {}): EnqueueJobInput {
  return { kind: RECONCILE_JOB, key: reconcileJobKey(shop), shop, runAt, payload, maxAttempts: 100 };
}

/** One fit of a shop's delivery-odds model at a time, daily (as retention). */
export const oddsFitJobKey = (shop: string) => `${ODDS_FIT_JOB}:${shop}`;

export function oddsFitJobFor(shop: string, runAt: Date): EnqueueJobInput {
  return { kind: ODDS_FIT_JOB, key: oddsFitJobKey(shop), shop, runAt, payload: {} };
}

/** One risk assessment per order at a time: it writes the order's latest odds to Shopify (as the write-back). */
export function riskAssessmentJobFor(shop: string, orderId: string, linkId: string): EnqueueJobInput {
  return {
    kind: RISK_ASSESSMENT_JOB,
    key: `${RISK_ASSESSMENT_JOB}:${shop}:${orderId}`,
    shop,
    payload: { linkId },
  };
}

/**
 * One conversion-feed run per shop at a time: it sends every outcome waiting to be told (a
 * wake-up while it runs runs it again after). Many attempts: outcomes wait in their rows, and
 * a platform down for hours must not leave the shop's feed dead.
 */
export function adFeedJobFor(shop: string, runAt?: Date): EnqueueJobInput {
  return { kind: AD_FEED_JOB, key: `${AD_FEED_JOB}:${shop}`, shop, runAt, payload: {}, maxAttempts: 100 };
}
