/**
 * An order placed longer ago than the shop's limit (Settings, staleOrderDays) is
 * never sent without the merchant's word for it: an import of past orders, a
 * webhook days late, a failed order retried weeks later. It waits, held with a
 * reason that says how old it is, until the merchant sends it knowingly (the
 * confirmation that states its age and amount sets FLAG_STALE_APPROVED). Pure.
 */
const DAY_MS = 86_400_000;

/** Flag on a link the merchant chose to send although it is older than the limit. */
export const FLAG_STALE_APPROVED = "stale_approved";

/**
 * The stored (English) reason of a stale hold starts with this: the pages and Home's
 * inbox tell a stale hold from the other holds without a finding by it (attention.ts).
 */
export const STALE_REASON_PREFIX = "Placed ";

/** Whole days since the order was placed (0 on its first day). */
export function ageInDays(placedAt: Date, now: Date): number {
  return Math.max(0, Math.floor((now.getTime() - placedAt.getTime()) / DAY_MS));
}

/** Placed more than `limitDays` days before `now`. */
export function isStaleOrder(placedAt: Date, now: Date, limitDays: number): boolean {
  return now.getTime() - placedAt.getTime() > limitDays * DAY_MS;
}
