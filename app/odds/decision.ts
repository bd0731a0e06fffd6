/**
 * The money in a delivery-odds decision. Sending an order earns its margin if
 * it is delivered (the amount collected less the platform's prices and the
 * city's delivery fee: the seller profit the platform pays) and loses, if it
 * fails, the fee out and the fee back of a parcel refused at the door (for the
 * share of failures that are returns; a call cancelled costs no parcel) plus the
 * merchant's own cost of a failed order. The shop's policy then sends all,
 * holds below a probability, or holds when the expected value is negative.
 * Pure.
 */

export const ODDS_POLICIES = ["send_all", "hold_below", "hold_negative_value"] as const;
export type OddsPolicyName = (typeof ODDS_POLICIES)[number];

export interface OddsPolicy {
  policy: OddsPolicyName;
  /** hold_below: orders under this probability wait (0 to 1). */
  minProbability: number;
  /** The merchant's own cost of an order that fails (packing, the call, the product's wear), in cents. */
  refusalCostCents: number;
}

/** What an order is worth, in cents; null where the app does not know (no price, no city). */
export interface OrderMoney {
  amountCents: number | null;
  /** The platform's prices of the items times their quantities. */
  platformCostCents: number | null;
  deliveryFeeCents: number | null;
}

export interface ExpectedValue {
  /** Earned if delivered: the seller profit. */
  marginCents: number;
  /** Lost if it fails, on average over returns and calls cancelled. */
  lossCents: number;
  /** probability x margin - (1 - probability) x loss. */
  valueCents: number;
  /** The probability at which sending breaks even; null when the margin is not positive (it never pays). */
  breakEven: number | null;
}

export function expectedValue(
  probability: number,
  money: OrderMoney,
  returnShare: number,
  refusalCostCents: number,
): ExpectedValue | null {
  const { amountCents, platformCostCents, deliveryFeeCents } = money;
  if (amountCents === null || platformCostCents === null || deliveryFeeCents === null) return null;
  const marginCents = amountCents - platformCostCents - deliveryFeeCents;
  return valueOf(probability, marginCents, Math.round(returnShare * 2 * deliveryFeeCents + refusalCostCents));
}

function valueOf(probability: number, marginCents: number, lossCents: number): ExpectedValue {
  const valueCents = Math.round(probability * marginCents - (1 - probability) * lossCents);
  const breakEven = marginCents > 0 ? lossCents / (marginCents + lossCents) : null;
  return { marginCents, lossCents, valueCents, breakEven };
}

export type OddsDecision =
  | { hold: false }
  /** releaseAt: the probability from which the policy would send it (null: never, the margin is not positive). */
  | { hold: true; rule: "below_probability" | "negative_value"; releaseAt: number | null };

export function decide(probability: number, value: ExpectedValue | null, policy: OddsPolicy): OddsDecision {
  if (policy.policy === "hold_below" && probability < policy.minProbability)
    return { hold: true, rule: "below_probability", releaseAt: policy.minProbability };
  // Without a price or a fee the value is unknown: the order is not held on it.
  if (policy.policy === "hold_negative_value" && value && value.valueCents < 0)
    return { hold: true, rule: "negative_value", releaseAt: value.breakEven };
  return { hold: false };
}

/** What a stored score kept of the money (OrderOdds): its loss counted the policy of its day's own cost. */
export interface ScoredMoney {
  probability: number;
  marginCents: number | null;
  lossCents: number | null;
}

/**
 * The decision again for an order already scored, under another policy: the same
 * probability and margin, its loss with the new policy's own cost of a failed order in
 * place of the previous one's.
 */
export function decideAgain(scored: ScoredMoney, previous: OddsPolicy, policy: OddsPolicy): OddsDecision {
  const { probability, marginCents, lossCents } = scored;
  const value =
    marginCents === null || lossCents === null
      ? null
      : valueOf(probability, marginCents, Math.max(0, lossCents - previous.refusalCostCents + policy.refusalCostCents));
  return decide(probability, value, policy);
}

/** Shopify's risk levels the app writes (RiskAssessmentResult). */
export type OddsRiskLevel = "HIGH" | "MEDIUM" | "LOW";

/** How far under the shop's own rate an order is "medium" risk. */
export const MEDIUM_RISK_GAP = 0.1;

/**
 * High: held, or sending loses money on average; medium: odds at least
 * MEDIUM_RISK_GAP under the shop's own delivery rate; low otherwise.
 */
export function riskLevelOf(
  probability: number,
  value: Pick<ExpectedValue, "valueCents"> | null,
  held: boolean,
  shopRate: number,
): OddsRiskLevel {
  if (held || (value !== null && value.valueCents < 0)) return "HIGH";
  return probability <= shopRate - MEDIUM_RISK_GAP ? "MEDIUM" : "LOW";
}

/**
 * What an order's odds badge says: the cause of its level, so two orders side by side never read
 * the wrong way round (57 % "risky" because sending it loses money on average, beside 54 % "good
 * odds"). Held by the policy; sent at a loss on average; odds under the shop's usual; usual or better.
 */
export type OddsBadge = "held" | "loss" | "below" | "usual";

export function oddsBadgeOf(odds: { level: OddsRiskLevel; held: boolean; valueCents: number | null }): OddsBadge {
  if (odds.held) return "held";
  if (odds.level === "HIGH" || (odds.valueCents !== null && odds.valueCents < 0)) return "loss";
  return odds.level === "MEDIUM" ? "below" : "usual";
}

/**
 * The level once the merchant released the order from its odds' hold: the odds' own
 * (riskLevelOf without the hold), never high. Shopify's HIGH reads "high likelihood that
 * the order is fraudulent" and recommends cancelling it (RiskAssessmentResult,
 * OrderRiskRecommendationResult), which Flow's risk workflows act on: the order the
 * merchant chose to send would be undone. Poor odds stay medium: worth a look.
 */
export function releasedRiskLevel(oddsLevel: OddsRiskLevel): OddsRiskLevel {
  return oddsLevel === "HIGH" ? "MEDIUM" : oddsLevel;
}
