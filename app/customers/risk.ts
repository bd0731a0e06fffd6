/**
 * The customer hold: whether an order waits for the merchant before its lead is
 * sent, from its customer's record and the shop's rule. Pure (the post-lead job
 * reads the record, this decides).
 */
import type { DeliveryOutcome } from "./outcome";
import { isFailedOutcome, type FailedOutcome, type HoldReason } from "./hold-reason";

/** Flag on an order link the merchant chose to send despite its customer's record ("send anyway"). */
export const FLAG_CUSTOMER_HOLD_WAIVED = "customer_hold_waived";

export interface CustomerHoldRule {
  enabled: boolean;
  /** Failed deliveries (refused, returned, cancelled/fake, wrong number) that hold the order. */
  failures: number;
  /** How far back they count. */
  days: number;
}

export type Standing = "blocked" | "trusted";

export interface CustomerHistory {
  standing: Standing | null;
  /** The customer's earlier outcomes with their dates. */
  outcomes: readonly { outcome: DeliveryOutcome; at: Date }[];
}

export type HoldDecision = { hold: false } | { hold: true; reason: HoldReason };

const DAY_MS = 86_400_000;

export function customerHold(history: CustomerHistory, rule: CustomerHoldRule, now: Date): HoldDecision {
  if (!rule.enabled || history.standing === "trusted") return { hold: false };
  if (history.standing === "blocked")
    return { hold: true, reason: { code: "customer_blocked", counts: {}, days: rule.days, blocked: true } };
  const since = now.getTime() - rule.days * DAY_MS;
  const counts: Partial<Record<FailedOutcome, number>> = {};
  let failed = 0;
  for (const { outcome, at } of history.outcomes) {
    if (isFailedOutcome(outcome) && at.getTime() >= since) {
      counts[outcome] = (counts[outcome] ?? 0) + 1;
      failed += 1;
    }
  }
  if (failed < rule.failures || failed === 0) return { hold: false };
  return { hold: true, reason: { code: "customer_record", counts, days: rule.days, blocked: false } };
}

export type RiskLevel = "blocked" | "trusted" | "high" | "medium" | "low" | "new";

/** Risk levels the merchant filters Orders on (the others are the absence of risk). */
export const RISK_FILTERS = ["high", "medium", "blocked"] as const satisfies readonly RiskLevel[];
export type RiskFilter = (typeof RISK_FILTERS)[number];

/**
 * The badge a record gets: blocked/trusted as the merchant said; otherwise high
 * when failures reach two and outnumber deliveries, medium with any failure,
 * low with deliveries only, new without a finished order.
 */
export function riskLevel(record: {
  standing: string | null;
  delivered: number;
  returned: number;
  refused: number;
  cancelled: number;
  wrongNumber: number;
}): RiskLevel {
  if (record.standing === "blocked" || record.standing === "trusted") return record.standing;
  const failed = record.returned + record.refused + record.cancelled + record.wrongNumber;
  if (failed >= 2 && failed > record.delivered) return "high";
  if (failed > 0) return "medium";
  return record.delivered > 0 ? "low" : "new";
}
