/**
 * A customer's delivery record from the orders that count for it. Pure: the
 * lead-events handler and the rebuild command both aggregate through it.
 */
import type { DeliveryOutcome } from "./outcome";

/** One order's contribution (a CustomerLead row). */
export interface CustomerFact {
  linkId: string;
  phoneKey: string;
  customerId: string | null;
  orderName: string;
  outcome: DeliveryOutcome;
  outcomeAt: Date;
  amountCents: number;
  orderedAt: Date;
}

export interface CustomerCounts {
  phoneKey: string;
  customerId: string | null;
  orders: number;
  delivered: number;
  returned: number;
  refused: number;
  cancelled: number;
  wrongNumber: number;
  inProgress: number;
  lastOutcome: DeliveryOutcome | null;
  lastOutcomeAt: Date | null;
  collectedCents: number;
  firstOrderAt: Date | null;
  lastOrderAt: Date | null;
}

/** A customer none of whose orders counts yet: every count zero, no outcome (a record's zero, read or written). */
export const NOTHING_COUNTED = {
  orders: 0,
  delivered: 0,
  returned: 0,
  refused: 0,
  cancelled: 0,
  wrongNumber: 0,
  inProgress: 0,
  lastOutcome: null,
  lastOutcomeAt: null,
} as const;

/** ...and no money collected, no order dated. */
export const NOTHING_RECORDED = {
  ...NOTHING_COUNTED,
  collectedCents: 0,
  firstOrderAt: null,
  lastOrderAt: null,
} as const;

const COUNTER: Record<DeliveryOutcome, keyof CustomerCounts> = {
  delivered: "delivered",
  returned: "returned",
  refused: "refused",
  cancelled: "cancelled",
  wrong_number: "wrongNumber",
  in_progress: "inProgress",
};

export const emptyCounts = (phoneKey: string): CustomerCounts => ({ phoneKey, customerId: null, ...NOTHING_RECORDED });

/**
 * The records of the given keys (a key with no fact gets zero counts, so a
 * record whose orders moved elsewhere is emptied, not left stale).
 */
export function recordsOf(keys: Iterable<string>, facts: readonly CustomerFact[]): Map<string, CustomerCounts> {
  const records = new Map<string, CustomerCounts>();
  for (const key of keys) records.set(key, emptyCounts(key));
  // Oldest order first: the last customer id seen wins.
  const sorted = [...facts].sort(
    (a, b) => a.orderedAt.getTime() - b.orderedAt.getTime() || a.linkId.localeCompare(b.linkId),
  );
  for (const fact of sorted) {
    const r = records.get(fact.phoneKey) ?? records.set(fact.phoneKey, emptyCounts(fact.phoneKey)).get(fact.phoneKey)!;
    r.orders += 1;
    (r[COUNTER[fact.outcome]] as number) += 1;
    if (fact.outcome === "delivered") r.collectedCents += fact.amountCents;
    if (fact.customerId) r.customerId = fact.customerId;
    if (!r.firstOrderAt || fact.orderedAt < r.firstOrderAt) r.firstOrderAt = fact.orderedAt;
    if (!r.lastOrderAt || fact.orderedAt > r.lastOrderAt) r.lastOrderAt = fact.orderedAt;
    if (!r.lastOutcomeAt || fact.outcomeAt >= r.lastOutcomeAt) {
      r.lastOutcome = fact.outcome;
      r.lastOutcomeAt = fact.outcomeAt;
    }
  }
  return records;
}
