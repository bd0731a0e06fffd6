import { describe, expect, it } from "vitest";
import { simulateWorld } from "../../../scripts/dev/odds/world";
import {
  evaluate,
  formatReport,
  heuristicRisk,
  realisedProfit,
  type EvalOrder,
} from "../../../scripts/ops/odds/evaluate";
import { parseEvaluationFiles, toEvaluationFiles } from "../../../scripts/ops/odds/files";

// Five months of a shop taking 60 orders a day (fixed seed): about 9,000 orders, 2,700 held out.
const world = simulateWorld({ seed: 7, days: 150, ordersPerDay: 60 });
const report = evaluate(world.orders);
const row = (method: string, policy?: string) =>
  report.results.find((r) => r.method.startsWith(method) && (!policy || r.policy.startsWith(policy)))!;

describe("the delivery-odds evaluation on the simulated shop", () => {
  it("GIVEN the held-out orders THEN the fitted model ranks and calibrates better than the binary rule and the heuristic", () => {
    const model = row("model, fitted", "hold when expected");
    expect(model.auc!).toBeGreaterThan(row("heuristic").auc! + 0.03);
    expect(row("heuristic").auc!).toBeGreaterThan(row("binary rule").auc!);
    expect(model.brier!).toBeLessThan(row("heuristic").brier!);
    expect(model.brier!).toBeLessThan(row("binary rule").brier!);
    // Better than saying the held-out rate to every order.
    const rate = report.heldOut.deliveredShare;
    expect(model.brier!).toBeLessThan(rate * (1 - rate));
  });

  it("GIVEN the money of each order THEN holding on a negative expected value earns more than sending all, the rule or the heuristic", () => {
    const model = row("model, fitted", "hold when expected").profitPer1000Cents;
    expect(model).toBeGreaterThan(row("none").profitPer1000Cents);
    expect(model).toBeGreaterThan(row("binary rule").profitPer1000Cents);
    expect(model).toBeGreaterThan(row("heuristic").profitPer1000Cents);
  });

  it("GIVEN the deciles of the model's probability THEN each decile's delivered share is within 6 points of its mean probability", () => {
    expect(report.reliability).toHaveLength(10);
    for (const bin of report.reliability) expect(Math.abs(bin.predicted - bin.observed)).toBeLessThan(0.06);
  });

  it("GIVEN the split THEN the model was fitted only on orders placed before it and settled by then", () => {
    expect(report.training.settled).toBeLessThanOrEqual(report.training.orders);
    expect(report.heldOut.from >= report.splitAt).toBe(true);
    expect(report.orders).toBe(world.orders.length);
    expect(formatReport(report)).toContain("| model, fitted |");
  });

  it("GIVEN outcomes shuffled so nothing predicts them THEN the model finds no signal and costs little", () => {
    // Each order takes another's outcome and delay (a fixed permutation: a step coprime with the count).
    const outcomes = world.orders.map((o) => ({ outcome: o.outcome, delay: o.settledAt! - o.placedAt }));
    const n = outcomes.length;
    const step = [7919, 104_729, 1_299_709].find((p) => n % p !== 0)!;
    const shuffled: EvalOrder[] = world.orders.map((o, i) => {
      const { outcome, delay } = outcomes[(i * step) % n];
      return { ...o, outcome, settledAt: o.placedAt + delay };
    });
    const noise = evaluate(shuffled);
    const model = noise.results.find((r) => r.method === "model, fitted" && r.policy.startsWith("hold when expected"))!;
    expect(Math.abs(model.auc! - 0.5)).toBeLessThan(0.04);
    expect(model.profitPer1000Cents).toBeGreaterThan(0.97 * noise.results[0].profitPer1000Cents);
  });
});

describe("the evaluation's files", () => {
  it("GIVEN the world written as files and read back THEN the evaluation is the same", () => {
    const files = toEvaluationFiles(world.orders);
    const parsed = parseEvaluationFiles({
      orders: { name: "orders.jsonl", text: files.orders },
      outcomes: { name: "outcomes.jsonl", text: files.outcomes },
    });
    expect(evaluate(parsed).results).toEqual(report.results);
  });

  it("GIVEN lines that are wrong THEN each problem names its file, its line and the field", () => {
    const orders = [
      '{"id":"1","placedAt":"2026-03-01T10:00:00Z","phone":"0612345678","city":"Casablanca","amount":"249.00","items":[{"product":"ARG-OIL-50","quantity":2,"price":"45.00"}]}',
      "# a comment",
      '{"id":"2","placedAt":"yesterday","amount":"12,5","items":[]}',
      "not json",
      '{"id":"1","placedAt":"2026-03-01T11:00:00Z","amount":"10.00","items":[{"product":"X","quantity":0}]}',
    ].join("\n");
    const outcomes = [
      '{"id":"1","outcome":"lost","settledAt":"2026-03-04T10:00:00Z"}',
      '{"id":"9","outcome":"delivered","settledAt":"2026-03-04T10:00:00Z"}',
    ].join("\n");
    let problems: string[] = [];
    try {
      parseEvaluationFiles({
        orders: { name: "o.jsonl", text: orders },
        outcomes: { name: "x.jsonl", text: outcomes },
      });
    } catch (error) {
      problems = (error as { problems: string[] }).problems;
    }
    expect(problems).toEqual([
      'x.jsonl line 1: "outcome" must be one of delivered, returned, refused, cancelled, wrong_number',
      "o.jsonl line 4: not JSON",
      'o.jsonl line 3: "placedAt" must be an ISO 8601 time',
      'o.jsonl line 3: "amount" must be a decimal like "249.00"',
      'o.jsonl line 3: "items" must list the order\'s products',
      "o.jsonl line 5: order 1 appears twice",
      "o.jsonl line 5: items[0].quantity must be a whole number from 1",
      "x.jsonl: order 9 is not in o.jsonl",
    ]);
  });

  it("GIVEN a cities file THEN an order without its own fee takes its city's, by name whatever the spelling", () => {
    const [order] = parseEvaluationFiles({
      orders: {
        name: "o",
        text: '{"id":"1","placedAt":"2026-03-01T10:00:00Z","phone":"+212 6 12 34 56 78","city":"casa blanca","amount":"249.00","items":[{"product":"ARG-OIL-50","quantity":2,"price":"45.00"}],"address":"Rue 12, Hay Salam"}',
      },
      outcomes: { name: "x", text: "" },
      cities: [{ id: 101, name: "Casablanca", delivery_fee: "20.00" }],
    });
    expect(order).toMatchObject({
      phoneKey: "0612345678",
      cityId: 101,
      deliveryFeeCents: 2000,
      platformCostCents: 9000,
      amountCents: 24_900,
      quantity: 2,
      addressIncomplete: false,
      outcome: null,
    });
  });
});

describe("the baselines", () => {
  const facts = { amountCents: 20_000, quantity: 1, cityId: 1, productKeys: [], addressIncomplete: false };
  it("GIVEN a record of failures, a first order or a burst THEN the heuristic scores 0 to 100 as risk apps do", () => {
    const customer = { delivered: 0, failed: 0, wrongNumber: 0, inProgress: 1, recentOrders: 0 };
    expect(heuristicRisk({ ...facts, customer }, 20_000)).toBe(0);
    expect(
      heuristicRisk({ ...facts, customer: { ...customer, failed: 3, wrongNumber: 1, recentOrders: 1 } }, 20_000),
    ).toBe(100);
    expect(heuristicRisk({ ...facts, customer: { ...customer, inProgress: 0 } }, 20_000)).toBe(15);
    expect(heuristicRisk({ ...facts, customer: null, addressIncomplete: true, amountCents: 50_000 }, 20_000)).toBe(55);
  });

  it("GIVEN what happened to an order THEN its realised profit: the margin, or the fees out and back and the merchant's cost", () => {
    const order: EvalOrder = {
      id: "1",
      placedAt: 0,
      phoneKey: null,
      cityId: 1,
      productKeys: [],
      amountCents: 24_900,
      quantity: 1,
      addressIncomplete: false,
      platformCostCents: 7_900,
      deliveryFeeCents: 3_500,
      outcome: "delivered",
      settledAt: 1,
    };
    expect(realisedProfit(order, 500)).toBe(13_500);
    expect(realisedProfit({ ...order, outcome: "returned" }, 500)).toBe(-7_500);
    expect(realisedProfit({ ...order, outcome: "refused" }, 500)).toBe(-500);
    expect(realisedProfit({ ...order, platformCostCents: null }, 500)).toBeNull();
  });
});
