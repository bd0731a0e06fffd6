/**
 * What happened to a shop's orders, as the pipeline tells it to every feature
 * that keeps something derived from it: one event per change of an order's
 * link (answered, stopped, status, reopened), with the link before and after.
 * The wiring that calls the consumers is app/sync/lead-events.server.ts.
 */
import type { Prisma } from "@prisma/client";

/** The parts of an order link that a change moves, and that derived rows count. */
export interface LeadSnapshot {
  state: string;
  confirmationStatus: string | null;
  shippingStatus: string | null;
  /** The platform may give it a cycle after "delivered": the analytics count it when it comes. */
  sellerProfit: string | null;
}

export interface LeadEvent {
  linkId: string;
  /**
   * `answered`: the platform created the lead (state created or damaged);
   * `stopped`: the order was kept back (held, skipped, invalid, failed, cancelled);
   * `status`: the platform's confirmation or shipping status changed;
   * `reopened`: back to `received` to be checked and sent again (merchant resend, order updated).
   */
  kind: "answered" | "stopped" | "status" | "reopened";
  /** Null for an order seen for the first time. */
  before: LeadSnapshot | null;
  after: LeadSnapshot;
  /** Plain-words reason for `stopped` (what the merchant reads on the order). */
  reason?: string | null;
  at: Date;
}

/** One consumer of lead events: runs in the caller's transaction; must not call out of the process. */
export type LeadEventHandler = (tx: Prisma.TransactionClient, shop: string, events: LeadEvent[]) => Promise<void>;

/** The snapshot of a stored order link. */
export function snapshotOf(link: LeadSnapshot): LeadSnapshot {
  return {
    state: link.state,
    confirmationStatus: link.confirmationStatus,
    shippingStatus: link.shippingStatus,
    sellerProfit: link.sellerProfit,
  };
}

export function sameSnapshot(a: LeadSnapshot | null, b: LeadSnapshot): boolean {
  return (
    a !== null &&
    a.state === b.state &&
    a.confirmationStatus === b.confirmationStatus &&
    a.shippingStatus === b.shippingStatus &&
    a.sellerProfit === b.sellerProfit
  );
}
