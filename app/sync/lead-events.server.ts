/**
 * What happened to a shop's orders, told once to every feature that keeps
 * something derived from it (customer delivery records, analytics rollups,
 * Flow triggers), inside the transaction that records the change, so derived
 * rows are written exactly once (docs/decisions/0005-lead-events-in-the-transaction.md).
 */
import type { Prisma } from "@prisma/client";
import { sameSnapshot, type LeadEvent, type LeadEventHandler } from "../models/lead-events";
import { queueFlowTriggers } from "../flow/flow-triggers.server";
import { analyticsRollupHandler } from "../analytics/rollups.server";
import { customerRecordHandler } from "../customers/records.server";
import { cashLedgerHandler } from "../analytics/cash-ledger.server";

/** Consumers, in the order they run. Each feature adds its handler here. */
const handlers: LeadEventHandler[] = [queueFlowTriggers, analyticsRollupHandler, customerRecordHandler, cashLedgerHandler];

export async function applyLeadEvents(tx: Prisma.TransactionClient, shop: string, events: LeadEvent[]): Promise<void> {
  const changed = events.filter((e) => !sameSnapshot(e.before, e.after));
  if (changed.length === 0) return;
  for (const handler of handlers) await handler(tx, shop, changed);
}
