/**
 * The delivery-odds evaluation: a shop's orders split in time (the oldest
 * `trainShare` to fit on, as the app would have at that moment; the rest held
 * out), each held-out order scored with what was known when it was placed, and
 * the same orders decided by today's binary customer hold and by a 0-100
 * heuristic score (as CODShield and COD Guard sell). Reports calibration (Brier
 * score, reliability by decile), ranking (AUC) and the profit per 1,000 orders
 * of each policy, counted from what really happened to the orders it sends (a
 * held order counts 0: neither its margin nor its loss). Pure: the command
 * (evaluate-cli.ts) reads the files.
 */
import { customerHold, type CustomerHoldRule } from "../../../app/customers/risk";
import type { DeliveryOutcome } from "../../../app/customers/outcome";
import { decide, expectedValue, type OddsPolicy } from "../../../app/odds/decision";
import type { OrderFacts } from "../../../app/odds/features";
import { fitOddsModel, medianAmount, walkHistory, type HistoryOrder } from "../../../app/odds/fit";
import { auc, brierScore, reliabilityByDecile, type ReliabilityBin, type Scored } from "../../../app/odds/metrics";
import { compileModel, priorModel, scoreOrder, type OddsModel, type StoredModel } from "../../../app/odds/model";

/** One order of the files: a sent order, its money and, once settled, its outcome. */
export interface EvalOrder extends HistoryOrder {
  id: string;
  address?: string;
  platformCostCents: number | null;
  deliveryFeeCents: number | null;
}

export interface EvaluationOptions {
  /** Share of the orders, oldest first, the model is fitted on. */
  trainShare: number;
  /** The merchant's own cost of a failed order, in cents. */
  refusalCostCents: number;
  /** "Hold below" policy's threshold. */
  minProbability: number;
  /** Today's binary rule, as Settings has it by default. */
  rule: CustomerHoldRule;
}

export const DEFAULT_EVALUATION: EvaluationOptions = {
  trainShare: 0.7,
  refusalCostCents: 500,
  minProbability: 0.5,
  rule: { enabled: true, failures: 2, days: 90 },
};

export interface PolicyResult {
  method: string;
  policy: string;
  brier: number | null;
  auc: number | null;
  /** Share of the held-out orders the policy holds. */
  heldShare: number;
  profitPer1000Cents: number;
}

export interface EvaluationReport {
  orders: number;
  training: { orders: number; settled: number };
  heldOut: { orders: number; withMoney: number; deliveredShare: number; from: string; to: string };
  splitAt: string;
  results: PolicyResult[];
  reliability: ReliabilityBin[];
  heuristicThreshold: number;
  model: Pick<StoredModel, "intercept" | "coefficients" | "returnShare" | "settled" | "medianAmountCents">;
}

/** What really happened to a sent order, in cents: its margin, or its fees and the merchant's cost. */
export function realisedProfit(order: EvalOrder, refusalCostCents: number): number | null {
  if (order.outcome === null || order.amountCents === null) return null;
  if (order.platformCostCents === null || order.deliveryFeeCents === null) return null;
  if (order.outcome === "delivered") return order.amountCents - order.platformCostCents - order.deliveryFeeCents;
  return -(order.outcome === "returned" ? 2 * order.deliveryFeeCents : 0) - refusalCostCents;
}

/**
 * A 0-100 risk score of the kind COD risk apps sell: points for a bad record,
 * a wrong number, a first order, a short address, a dear order and a burst.
 */
export function heuristicRisk(facts: OrderFacts, medianAmountCents: number | null): number {
  const c = facts.customer;
  let score = 0;
  if (!c) score += 30;
  else {
    if (c.failed > 0) score += Math.min(60, 40 + 20 * (c.failed - 1));
    if (c.wrongNumber > 0) score += 25;
    if (c.delivered + c.failed + c.wrongNumber + c.inProgress === 0) score += 15;
    if (c.recentOrders > 0) score += 15;
    if (c.delivered >= 2) score -= 20;
  }
  if (facts.addressIncomplete) score += 15;
  if (facts.amountCents !== null && medianAmountCents && facts.amountCents > 2 * medianAmountCents) score += 10;
  return Math.max(0, Math.min(100, score));
}

interface Seen {
  order: EvalOrder;
  facts: OrderFacts;
  model: number;
  prior: number;
  heuristic: number;
  ruleHolds: boolean;
  profit: number | null;
}

/** Delivered share of the rows matching `pick`, or the overall share when none does. */
function rateOf(rows: readonly Seen[], pick: (s: Seen) => boolean): number {
  const all = rows.filter((s) => s.order.outcome !== null);
  const some = all.filter(pick);
  const of = some.length > 0 ? some : all;
  return of.filter((s) => s.order.outcome === "delivered").length / Math.max(1, of.length);
}

function policyResult(
  method: string,
  policy: string,
  rows: readonly Seen[],
  holds: (s: Seen) => boolean,
  scored: Scored[] | null,
): PolicyResult {
  const money = rows.filter((s) => s.profit !== null);
  const held = rows.filter(holds).length;
  const profit = money.reduce((sum, s) => sum + (holds(s) ? 0 : s.profit!), 0);
  return {
    method,
    policy,
    brier: scored ? brierScore(scored) : null,
    auc: scored ? auc(scored) : null,
    heldShare: rows.length ? held / rows.length : 0,
    profitPer1000Cents: money.length ? Math.round((1000 * profit) / money.length) : 0,
  };
}

/** The heuristic's hold threshold that earned most on the training orders (ties: the higher, holding less). */
function bestThreshold(rows: readonly Seen[]): number {
  let best = 101;
  let bestProfit = -Infinity;
  for (let t = 100; t >= 0; t -= 5) {
    const profit = rows.reduce((sum, s) => sum + (s.profit === null || s.heuristic >= t ? 0 : s.profit), 0);
    if (profit > bestProfit) {
      bestProfit = profit;
      best = t;
    }
  }
  return best;
}

export function evaluate(all: readonly EvalOrder[], options: EvaluationOptions = DEFAULT_EVALUATION): EvaluationReport {
  const orders = [...all].sort((a, b) => a.placedAt - b.placedAt || (a.id < b.id ? -1 : 1));
  if (orders.length < 10)
    throw new RangeError(`an evaluation needs at least 10 orders, the files hold ${orders.length}`);
  const splitAt = orders[Math.floor(orders.length * options.trainShare)].placedAt;
  // What the app knew at the split: the older orders, their outcomes only once settled.
  const known: HistoryOrder[] = orders
    .filter((o) => o.placedAt < splitAt)
    .map((o) =>
      o.outcome !== null && (o.settledAt ?? o.placedAt) <= splitAt ? o : { ...o, outcome: null, settledAt: null },
    );
  const stored = fitOddsModel(known, new Date(splitAt));
  const model: OddsModel = compileModel(stored);
  // The pooled default alone, with the shop's own rates and usual amount: what a shop gets before its first fit.
  const prior: OddsModel = compileModel({
    ...priorModel(),
    shop: stored.shop,
    cities: stored.cities,
    products: stored.products,
    medianAmountCents: stored.medianAmountCents,
  });
  const median = medianAmount(known);

  // The binary rule reads each phone's settled outcomes with their dates.
  const outcomesByPhone = new Map<string, { outcome: DeliveryOutcome; at: Date; settled: number }[]>();
  for (const o of orders) {
    if (!o.phoneKey || o.outcome === null) continue;
    const list = outcomesByPhone.get(o.phoneKey) ?? outcomesByPhone.set(o.phoneKey, []).get(o.phoneKey)!;
    const settled = Math.max(o.placedAt, o.settledAt ?? o.placedAt);
    list.push({ outcome: o.outcome, at: new Date(settled), settled });
  }

  const training: Seen[] = [];
  const heldOut: Seen[] = [];
  walkHistory(orders, (index, facts) => {
    const order = orders[index];
    if (order.outcome === null) return;
    const inTraining = order.placedAt < splitAt;
    if (inTraining && (order.settledAt ?? order.placedAt) > splitAt) return;
    const history = order.phoneKey
      ? (outcomesByPhone.get(order.phoneKey) ?? []).filter((h) => h.settled < order.placedAt)
      : [];
    const seen: Seen = {
      order,
      facts,
      model: scoreOrder(model, facts).probability,
      prior: scoreOrder(prior, facts).probability,
      heuristic: heuristicRisk(facts, median),
      ruleHolds: customerHold({ standing: null, outcomes: history }, options.rule, new Date(order.placedAt)).hold,
      profit: realisedProfit(order, options.refusalCostCents),
    };
    (inTraining ? training : heldOut).push(seen);
  });
  if (heldOut.length === 0) throw new RangeError("no settled order after the split to evaluate on");

  const delivered = (s: Seen) => s.order.outcome === "delivered";
  const scoredBy = (p: (s: Seen) => number): Scored[] =>
    heldOut.map((s) => ({ probability: p(s), delivered: delivered(s) }));
  const oddsPolicy = (policy: OddsPolicy["policy"]): OddsPolicy => ({
    policy,
    minProbability: options.minProbability,
    refusalCostCents: options.refusalCostCents,
  });
  const holdsBy = (p: (s: Seen) => number, returnShare: number, policy: OddsPolicy) => (s: Seen) =>
    decide(p(s), expectedValue(p(s), s.order, returnShare, options.refusalCostCents), policy).hold;

  // The rule and the heuristic give no probability: each class's (band's) delivered share in training stands for one.
  const ruleRate = { held: rateOf(training, (s) => s.ruleHolds), sent: rateOf(training, (s) => !s.ruleHolds) };
  const band = (score: number) => Math.min(9, Math.floor(score / 10));
  const bandRates = Array.from({ length: 10 }, (_, b) => rateOf(training, (s) => band(s.heuristic) === b));
  const threshold = bestThreshold(training);

  const results: PolicyResult[] = [
    policyResult("none", "send all", heldOut, () => false, null),
    policyResult(
      `binary rule (${options.rule.failures} failures in ${options.rule.days} days)`,
      "hold when it fires",
      heldOut,
      (s) => s.ruleHolds,
      scoredBy((s) => (s.ruleHolds ? ruleRate.held : ruleRate.sent)),
    ),
    policyResult(
      "heuristic 0-100",
      `hold at ${threshold} or more (best on training)`,
      heldOut,
      (s) => s.heuristic >= threshold,
      scoredBy((s) => bandRates[band(s.heuristic)]),
    ),
    policyResult(
      "model, pooled default only",
      "hold when expected value < 0",
      heldOut,
      holdsBy((s) => s.prior, prior.stored.returnShare, oddsPolicy("hold_negative_value")),
      scoredBy((s) => s.prior),
    ),
    policyResult(
      "model, fitted",
      `hold below ${Math.round(options.minProbability * 100)} %`,
      heldOut,
      holdsBy((s) => s.model, stored.returnShare, oddsPolicy("hold_below")),
      scoredBy((s) => s.model),
    ),
    policyResult(
      "model, fitted",
      "hold when expected value < 0",
      heldOut,
      holdsBy((s) => s.model, stored.returnShare, oddsPolicy("hold_negative_value")),
      scoredBy((s) => s.model),
    ),
  ];
  const iso = (ms: number) => new Date(ms).toISOString();
  return {
    orders: orders.length,
    training: { orders: known.length, settled: stored.settled },
    heldOut: {
      orders: heldOut.length,
      withMoney: heldOut.filter((s) => s.profit !== null).length,
      deliveredShare: heldOut.filter(delivered).length / heldOut.length,
      from: iso(heldOut[0].order.placedAt),
      to: iso(heldOut[heldOut.length - 1].order.placedAt),
    },
    splitAt: iso(splitAt),
    results,
    reliability: reliabilityByDecile(scoredBy((s) => s.model)),
    heuristicThreshold: threshold,
    model: {
      intercept: stored.intercept,
      coefficients: stored.coefficients,
      returnShare: stored.returnShare,
      settled: stored.settled,
      medianAmountCents: stored.medianAmountCents,
    },
  };
}

const fixed = (v: number | null, digits: number) => (v === null || Number.isNaN(v) ? "-" : v.toFixed(digits));
const mad = (cents: number) =>
  `${(cents / 100).toLocaleString("en-US", { minimumFractionDigits: 0, maximumFractionDigits: 0 })} MAD`;

/** The report as the command prints it. */
export function formatReport(report: EvaluationReport): string {
  const lines = [
    `${report.orders} orders; fitted on the ${report.training.orders} placed before ${report.splitAt.slice(0, 10)} (${report.training.settled} settled by then);`,
    `held out: ${report.heldOut.orders} settled orders placed ${report.heldOut.from.slice(0, 10)} to ${report.heldOut.to.slice(0, 10)}, ${(report.heldOut.deliveredShare * 100).toFixed(1)} % delivered (${report.heldOut.withMoney} with prices and fees for the profit).`,
    "",
    "| method | Brier | AUC | policy | held | profit per 1,000 orders |",
    "| --- | --- | --- | --- | --- | --- |",
    ...report.results.map(
      (r) =>
        `| ${r.method} | ${fixed(r.brier, 4)} | ${fixed(r.auc, 3)} | ${r.policy} | ${(r.heldShare * 100).toFixed(1)} % | ${mad(r.profitPer1000Cents)} |`,
    ),
    "",
    "Reliability of the fitted model on the held-out orders (deciles of its probability):",
    "",
    "| decile | orders | predicted | delivered |",
    "| --- | --- | --- | --- |",
    ...report.reliability.map(
      (b) => `| ${b.decile} | ${b.orders} | ${(b.predicted * 100).toFixed(1)} % | ${(b.observed * 100).toFixed(1)} % |`,
    ),
    "",
    `Brier: mean squared error of the probability (lower is better; ${fixed(report.heldOut.deliveredShare * (1 - report.heldOut.deliveredShare), 4)} for always saying the held-out rate). AUC: chance a delivered order is scored above a failed one (0.5 is a coin).`,
    "The rule and the heuristic give no probability: their Brier uses each class's (each 10-point band's) delivered share in the training orders. A held order counts 0 (neither its margin nor its loss).",
  ];
  return lines.join("\n");
}
