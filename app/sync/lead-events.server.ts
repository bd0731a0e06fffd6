/**
 * What happened to a shop's orders, told once to every feature that keeps
 * something derived from it (customer delivery records, analytics rollups,
 * Flow triggers). The pipeline calls `applyLeadEvents` inside the transaction
 * that records the change, so a derived row is written exactly when the change
 * is: a retried job or a sync that sees the same status twice produces no event
 * the second time (the link's state no longer differs).
 */
import type { Prisma } from "@prisma/client";
import { queueFlowTriggers } from "../flow/flow-triggers.server";
import { analyticsRollupHandler } from "../analytics/rollups.server";
import { customerRecordHandler } from "../customers/records.server";

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

/** Consumers, in the order they run. Each feature adds its handler here. */
const handlers: LeadEventHandler[] = [queueFlowTriggers, analyticsRollupHandler, customerRecordHandler];

export async function applyLeadEvents(tx: Prisma.TransactionClient, shop: string, events: LeadEvent[]): Promise<void> {
  const changed = events.filter((e) => !sameSnapshot(e.before, e.after));
  if (changed.length === 0) return;
  for (const handler of handlers) await handler(tx, shop, changed);
}

/** The snapshot of a stored order link. */
export function snapshotOf(link: LeadSnapshot): LeadSnapshot {
  return { state: link.state, confirmationStatus: link.confirmationStatus, shippingStatus: link.shippingStatus, sellerProfit: link.sellerProfit };
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
