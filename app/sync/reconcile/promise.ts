/**
 * The promise the app publishes about itself (README, "No order left behind") and
 * checks on every shop's own figures (pure). The figures were chosen from measurements
 * (docs/decisions/0011-reconciliation.md): the webhook path makes a lead in seconds, the
 * reconciliation catches the rest within its interval, and write-back follows a status
 * the app has seen within a minute or two.
 */
import { boundAtLeast, shareWithin, totalOf, type Histogram } from "./latency";

export const SYNC_PROMISE = {
  /** This share of orders sent without a merchant's action become leads within leadSeconds of being placed... */
  leadShare: 0.95,
  leadSeconds: 60,
  /** ...and all of them within the reconciliation interval plus this (the pass, then the post). */
  allLeadsSlackSeconds: 60,
  /** This share of the status changes the app sees reach the Shopify order within statusSeconds. */
  statusShare: 0.95,
  statusSeconds: 300,
} as const;

export interface PromiseTerm {
  /** The share measured, null with nothing measured. */
  share: number | null;
  /** The share promised. */
  target: number;
  /** Within this many seconds (a histogram bound). */
  seconds: number;
  sample: number;
  /** false when measured and below the target; null when nothing was measured. */
  met: boolean | null;
}

export interface PromiseCheck {
  leads: PromiseTerm;
  allLeads: PromiseTerm;
  statuses: PromiseTerm;
  /** False when any measured term falls short. */
  met: boolean;
}

function term(histogram: Histogram, seconds: number, target: number): PromiseTerm {
  const share = shareWithin(histogram, seconds);
  const met = share === null ? null : share >= target - 1e-9;
  return { share, target, seconds, sample: totalOf(histogram), met };
}

export function checkPromise(input: {
  orderToLead: Histogram;
  statusToShopify: Histogram;
  intervalSeconds: number;
}): PromiseCheck {
  const leads = term(input.orderToLead, SYNC_PROMISE.leadSeconds, SYNC_PROMISE.leadShare);
  const allLeads = term(input.orderToLead, boundAtLeast(input.intervalSeconds + SYNC_PROMISE.allLeadsSlackSeconds), 1);
  const statuses = term(input.statusToShopify, SYNC_PROMISE.statusSeconds, SYNC_PROMISE.statusShare);
  return { leads, allLeads, statuses, met: [leads, allLeads, statuses].every((t) => t.met !== false) };
}
