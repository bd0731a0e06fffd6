import { describe, expect, it } from "vitest";
import { FEATURES } from "../../app/odds/features";
import {
  fitCoefficients,
  fitLogistic,
  fitOddsModel,
  returnShareOf,
  trainingSet,
  walkHistory,
  type HistoryOrder,
} from "../../app/odds/fit";
import { compileModel, parseStoredModel, scoreOrder } from "../../app/odds/model";
import { PRIOR } from "../../app/odds/prior";

const DAY = 86_400_000;
const T0 = Date.UTC(2026, 0, 1);

const order = (placedDay: number, over: Partial<HistoryOrder> = {}): HistoryOrder => ({
  placedAt: T0 + placedDay * DAY,
  phoneKey: "0611111111",
  cityId: 101,
  productKeys: ["product:1001"],
  amountCents: 20_000,
  quantity: 1,
  addressIncomplete: false,
  outcome: "delivered",
  settledAt: T0 + (placedDay + 2) * DAY,
  ...over,
});

/** mulberry32 */
function prng(seed: number) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = Math.imul(a ^ (a >>> 15), a | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

describe("replaying a shop's history", () => {
  it("GIVEN a customer's orders THEN each sees only the outcomes settled before it was placed, never its own", () => {
    const seen: { delivered: number; failed: number; inProgress: number }[] = [];
    walkHistory(
      [
        order(0, { outcome: "refused", settledAt: T0 + 1 * DAY }),
        order(2, { settledAt: T0 + 10 * DAY }),
        order(5),
        order(20),
      ],
      (_, facts) => seen.push(facts.customer!),
    );
    expect(seen.map((c) => [c.delivered, c.failed, c.inProgress])).toEqual([
      [0, 0, 0],
      [0, 1, 0],
      [0, 1, 1],
      [2, 1, 0],
    ]);
  });

  it("GIVEN orders from one phone within 24 hours THEN the later ones count the earlier as recent", () => {
    const recent: number[] = [];
    walkHistory([order(0), order(0.2), order(0.5), order(1.3)], (_, facts) =>
      recent.push(facts.customer!.recentOrders),
    );
    expect(recent).toEqual([0, 1, 2, 1]);
  });

  it("GIVEN a city's outcomes THEN an order's city feature uses those settled before it only", () => {
    const orders = [
      ...Array.from({ length: 30 }, (_, i) => order(i / 10, { phoneKey: `06000000${10 + i}`, outcome: "returned" })),
      order(10, { phoneKey: "0699999999" }),
    ];
    const set = trainingSet(orders);
    const city = FEATURES.indexOf("city");
    expect(set.x[city]).toBe(0);
    // The last order came after 30 returns in its city: well under the shop.
    expect(set.x[(set.rows - 1) * FEATURES.length + city]).toBeLessThan(-0.5);
  });

  it("GIVEN orders not settled yet THEN they count as in progress and are no training rows", () => {
    const set = trainingSet([order(0, { outcome: null, settledAt: null }), order(1)]);
    expect(set.rows).toBe(1);
    expect(set.live.shop).toEqual({ delivered: 1, settled: 1 });
  });
});

describe("fitting the coefficients", () => {
  it("GIVEN no settled order THEN the fit is the prior itself", () => {
    const fit = fitCoefficients({ x: new Float64Array(0), y: new Uint8Array(0), rows: 0 });
    expect(fit.intercept).toBeCloseTo(PRIOR.intercept, 8);
    expect([...fit.beta]).toEqual(FEATURES.map((f) => PRIOR.coefficients[f]));
  });

  it("GIVEN 20,000 orders drawn from known coefficients THEN the fit finds them (fixed seed)", () => {
    const random = prng(51);
    const truth = { intercept: 0.4, beta: Float64Array.from([0.8, -1.2, 0.5]) };
    const rows = 20_000;
    const x = new Float64Array(rows * 3);
    const y = new Uint8Array(rows);
    for (let i = 0; i < rows; i++) {
      let z = truth.intercept;
      for (let j = 0; j < 3; j++) {
        x[i * 3 + j] = random() * 2 - 1 + (j === 2 ? (random() < 0.3 ? 1 : 0) : 0);
        z += truth.beta[j] * x[i * 3 + j];
      }
      y[i] = random() < 1 / (1 + Math.exp(-z)) ? 1 : 0;
    }
    const fit = fitLogistic({ x, y, rows }, { intercept: 0, beta: new Float64Array(3) }, { intercept: 0, beta: 1 });
    expect(fit.intercept).toBeCloseTo(0.4, 1);
    [...truth.beta].forEach((b, j) => expect(Math.abs(fit.beta[j] - b)).toBeLessThan(0.1));
    expect(fit.iterations).toBeLessThan(15);
  });

  it("GIVEN a feature that separates the outcomes THEN the penalty keeps the coefficient finite", () => {
    const rows = 200;
    const x = Float64Array.from({ length: rows }, (_, i) => (i % 2 ? 1 : 0));
    const y = Uint8Array.from({ length: rows }, (_, i) => (i % 2 ? 1 : 0));
    const fit = fitLogistic({ x, y, rows }, { intercept: 0, beta: new Float64Array(1) }, { intercept: 1, beta: 1 });
    expect(Number.isFinite(fit.beta[0])).toBe(true);
    expect(fit.beta[0]).toBeGreaterThan(3);
    expect(fit.beta[0]).toBeLessThan(20);
  });

  it("GIVEN few settled orders THEN the coefficients stay near the prior; with many the shop's own show", () => {
    // Phones that refused once refuse again four times in five; phones with nothing settled yet deliver
    // four times in five (their second order comes before the first settles): the record alone differs.
    const refusers = (n: number) =>
      Array.from({ length: n }, (_, i) => {
        const refuser = `06${String(10_000_000 + i)}`;
        const waiting = `07${String(10_000_000 + i)}`;
        return [
          order(i, { phoneKey: refuser, outcome: "refused" }),
          order(i + 3, { phoneKey: refuser, outcome: i % 5 === 0 ? "delivered" : "refused" }),
          order(i, {
            phoneKey: waiting,
            outcome: i % 5 === 0 ? "refused" : "delivered",
            settledAt: T0 + (i + 5) * DAY,
          }),
          order(i + 1.5, { phoneKey: waiting, outcome: i % 5 === 0 ? "refused" : "delivered" }),
        ];
      }).flat();
    const few = fitOddsModel(refusers(3), new Date(T0));
    const many = fitOddsModel(refusers(2000), new Date(T0));
    expect(Math.abs(few.coefficients.customer_failed - PRIOR.coefficients.customer_failed)).toBeLessThan(0.2);
    expect(many.coefficients.customer_failed).toBeLessThan(-2.5);
    expect(many.source).toBe("fitted");
    expect(many.quality?.auc).toBeGreaterThan(0.65);
  });
});

describe("a fitted shop model", () => {
  const orders = Array.from({ length: 300 }, (_, i) =>
    order(i / 3, {
      phoneKey: `06${String(20_000_000 + (i % 120))}`,
      cityId: i % 2 ? 101 : 102,
      productKeys: [`product:${1000 + (i % 7)}`],
      amountCents: 10_000 + (i % 9) * 5_000,
      outcome: i % 4 === 0 ? (i % 8 === 0 ? "returned" : "refused") : "delivered",
    }),
  );
  const model = fitOddsModel(orders, new Date(T0 + 200 * DAY));

  it("GIVEN a history THEN it stores the shop's counts, tables, usual amount and return share", () => {
    expect(model.shop).toEqual({ delivered: 225, settled: 300 });
    expect(model.cities.map(([id]) => id)).toEqual([101, 102]);
    expect(model.products).toHaveLength(7);
    expect(model.medianAmountCents).toBe(30_000);
    expect(model.returnShare).toBeCloseTo((38 + 20 * PRIOR.returnShare) / (75 + 20), 5);
    expect(returnShareOf([])).toBe(PRIOR.returnShare);
    expect(model.settled).toBe(300);
    expect(model.quality?.heldOut).toBe(60);
  });

  it("GIVEN the stored JSON THEN it reads back and scores an order between 0 and 1", () => {
    const parsed = parseStoredModel(JSON.parse(JSON.stringify(model)))!;
    expect(parsed).not.toBeNull();
    const score = scoreOrder(compileModel(parsed), {
      amountCents: 20_000,
      quantity: 1,
      cityId: 101,
      productKeys: ["product:1003"],
      addressIncomplete: false,
      customer: { delivered: 1, failed: 0, wrongNumber: 0, inProgress: 0, recentOrders: 0 },
    });
    expect(score.probability).toBeGreaterThan(0);
    expect(score.probability).toBeLessThan(1);
  });
});
