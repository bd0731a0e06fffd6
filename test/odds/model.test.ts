import { describe, expect, it } from "vitest";
import { addressIncomplete, FEATURES, featureValues, rateOffset, type OrderFacts } from "../../app/odds/features";
import { compileModel, parseStoredModel, priorModel, scoreOrder, sigmoid } from "../../app/odds/model";
import { PRIOR } from "../../app/odds/prior";

const ordinary: OrderFacts = {
  amountCents: 20_000,
  quantity: 1,
  cityId: 101,
  productKeys: ["product:1001"],
  addressIncomplete: false,
  customer: { delivered: 0, failed: 0, wrongNumber: 0, inProgress: 1, recentOrders: 0 },
};
const context = {
  shopRate: 0.6,
  cities: new Map([[101, { delivered: 60, settled: 100 }]]),
  products: new Map([["product:1001", { delivered: 6, settled: 10 }]]),
  medianAmountCents: 20_000,
};

describe("delivery-odds features", () => {
  it("GIVEN an ordinary order (known customer, one item, usual amount, a city and product like the shop) THEN every feature is 0", () => {
    expect([...featureValues(ordinary, context)]).toEqual(FEATURES.map(() => 0));
  });

  it("GIVEN a customer's record, a burst, a dear order and a short address THEN each shows in its own feature", () => {
    const x = featureValues(
      {
        ...ordinary,
        amountCents: 80_000,
        quantity: 3,
        addressIncomplete: true,
        customer: { delivered: 3, failed: 1, wrongNumber: 1, inProgress: 0, recentOrders: 2 },
      },
      context,
    );
    const at = (f: (typeof FEATURES)[number]) => x[FEATURES.indexOf(f)];
    expect(at("customer_delivered")).toBeCloseTo(Math.log(4));
    expect(at("customer_failed")).toBeCloseTo(Math.log(2));
    expect(at("wrong_number")).toBe(1);
    expect(at("first_order")).toBe(0);
    expect(at("recent_orders")).toBeCloseTo(Math.log(3));
    expect(at("amount")).toBeCloseTo(Math.log(4));
    expect(at("quantity")).toBeCloseTo(Math.log(3));
    expect(at("address")).toBe(1);
  });

  it("GIVEN no phone THEN the order counts as a first order with no record", () => {
    const x = featureValues({ ...ordinary, customer: null }, context);
    expect(x[FEATURES.indexOf("first_order")]).toBe(1);
    expect(x[FEATURES.indexOf("customer_failed")]).toBe(0);
  });

  it("GIVEN a city with few orders THEN its rate is pulled towards the shop's; with many it speaks for itself", () => {
    expect(rateOffset(undefined, 0.6)).toBe(0);
    const few = rateOffset({ delivered: 0, settled: 2 }, 0.6);
    const many = rateOffset({ delivered: 0, settled: 200 }, 0.6);
    expect(few).toBeLessThan(0);
    expect(few).toBeGreaterThan(-0.3);
    expect(many).toBeLessThan(-2);
  });

  it("GIVEN addresses as customers type them THEN short ones without a number are incomplete", () => {
    expect(addressIncomplete(null)).toBe(true);
    expect(addressIncomplete("centre")).toBe(true);
    expect(addressIncomplete("Hay Salam")).toBe(true);
    expect(addressIncomplete("Rue 12, Hay Salam")).toBe(false);
    expect(addressIncomplete("Hay Salam près de la mosquée")).toBe(false);
    expect(addressIncomplete("Bloc 4 n 12")).toBe(false);
  });
});

describe("delivery-odds model", () => {
  it("GIVEN the prior THEN an order's log-odds are the intercept plus its contributions", () => {
    const model = compileModel(priorModel());
    const facts: OrderFacts = {
      ...ordinary,
      addressIncomplete: true,
      customer: { delivered: 0, failed: 2, wrongNumber: 0, inProgress: 0, recentOrders: 0 },
    };
    const score = scoreOrder(model, facts);
    const sum = score.contributions.reduce((s, c) => s + c, PRIOR.intercept);
    expect(score.logit).toBeCloseTo(sum);
    expect(score.probability).toBeCloseTo(sigmoid(sum));
    expect(score.contributions[FEATURES.indexOf("customer_failed")]).toBeCloseTo(
      PRIOR.coefficients.customer_failed * Math.log(3),
    );
    expect(score.probability).toBeLessThan(sigmoid(PRIOR.intercept));
  });

  it("GIVEN a stored model THEN it reads back as written; anything damaged reads as null", () => {
    const stored = {
      ...priorModel(new Date("2026-11-01T00:00:00Z")),
      cities: [[101, 6, 10]] as [number, number, number][],
    };
    expect(parseStoredModel(JSON.parse(JSON.stringify(stored)))).toEqual(stored);
    expect(parseStoredModel({ ...stored, version: 2 })).toBeNull();
    expect(parseStoredModel({ ...stored, coefficients: { ...stored.coefficients, city: "1" } })).toBeNull();
    expect(parseStoredModel({ ...stored, returnShare: 2 })).toBeNull();
    expect(parseStoredModel("{")).toBeNull();
  });

  it("GIVEN extreme log-odds THEN the probability stays finite and inside (0, 1)", () => {
    expect(sigmoid(800)).toBe(1);
    expect(sigmoid(-800)).toBe(0);
    expect(Number.isFinite(sigmoid(-40))).toBe(true);
    expect(sigmoid(0)).toBe(0.5);
  });
});
