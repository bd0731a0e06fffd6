import { describe, expect, it } from "vitest";
import { assessmentKey, MAX_FACTS, nothingToGainFacts, riskFacts, type StoredOdds } from "../../app/odds/assessment";
import { stopCostOf } from "../../app/odds/standing";

const odds: StoredOdds = {
  probability: 0.38,
  valueCents: -1250,
  marginCents: 13_500,
  lossCents: 3_800,
  level: "HIGH",
  held: true,
  holdText: "Delivery odds 38%, under your 50%",
  shopRate: 0.65,
  reasons: [
    { feature: "customer_failed", effect: -1.1, params: { count: 2 } },
    { feature: "customer_delivered", effect: 0.49, params: { count: 1 } },
  ],
};

describe("the order's risk card in Shopify", () => {
  it("GIVEN a score THEN the facts say the odds, the value, the hold and the reasons, each with its sentiment", () => {
    expect(riskFacts(odds)).toEqual([
      { description: "Delivery odds 38% (your shop delivers 65%)", sentiment: "NEGATIVE" },
      {
        description:
          "Expected value of sending: -12.50 MAD (135 MAD margin if delivered, 38 MAD lost on average if it fails)",
        sentiment: "NEGATIVE",
      },
      { description: "Delivery odds 38%, under your 50%", sentiment: "NEGATIVE" },
      { description: "Refused, returned or cancelled 2 earlier orders", sentiment: "NEGATIVE" },
      { description: "Received 1 earlier order", sentiment: "POSITIVE" },
    ]);
  });

  it("GIVEN odds at the shop's rate and no money known THEN neutral facts; never more than MAX_FACTS", () => {
    const facts = riskFacts({
      ...odds,
      probability: 0.6,
      valueCents: null,
      held: false,
      reasons: Array.from({ length: 20 }, () => odds.reasons[1]),
    });
    expect(facts[0].sentiment).toBe("NEUTRAL");
    expect(facts[1]).toEqual({
      description: "Expected value unknown: a product's price or the city's delivery fee is missing",
      sentiment: "NEUTRAL",
    });
    expect(facts).toHaveLength(MAX_FACTS);
  });

  it("GIVEN the merchant released it THEN a neutral fact says so in the hold's place; a held score never says it", () => {
    const released = riskFacts({ ...odds, held: false, released: true });
    expect(released[2]).toEqual({
      description: "Released by the merchant from its delivery-odds hold",
      sentiment: "NEUTRAL",
    });
    expect(released.map((f) => f.description)).not.toContain(odds.holdText);
    expect(riskFacts({ ...odds, released: true }).map((f) => f.description)).not.toContain(
      "Released by the merchant from its delivery-odds hold",
    );
  });

  it("GIVEN the same level and facts THEN the same key; any change of either, another", () => {
    const facts = riskFacts(odds);
    expect(assessmentKey("HIGH", facts)).toBe(assessmentKey("HIGH", riskFacts({ ...odds })));
    expect(assessmentKey("MEDIUM", facts)).not.toBe(assessmentKey("HIGH", facts));
    expect(assessmentKey("HIGH", riskFacts({ ...odds, probability: 0.39 }))).not.toBe(assessmentKey("HIGH", facts));
  });
});

describe("the risk card of an order cancelled in Shopify while its lead goes on", () => {
  const stop = { kind: "stop", why: "cancelled", shipped: false } as const;

  it("GIVEN no own cost in Settings THEN the parcel out and back costs the platform's fee twice", () => {
    expect(nothingToGainFacts(stop, stopCostOf(2500, 0))[1]).toEqual({
      description: "Stop its lead in the platform's seller space: a parcel out and back costs 50 MAD (25 MAD each way)",
      sentiment: "NEGATIVE",
    });
  });

  it("GIVEN the merchant's own cost of a failed order THEN it is added and named as theirs", () => {
    expect(nothingToGainFacts(stop, stopCostOf(2500, 1000))[1]).toEqual({
      description:
        "Stop its lead in the platform's seller space: a parcel out and back costs you 60 MAD (25 MAD each way and your own cost of a failed order, 10 MAD)",
      sentiment: "NEGATIVE",
    });
    expect(nothingToGainFacts(stop, stopCostOf(null, 1000))[1]!.description).toBe(
      "Stop its lead in the platform's seller space: a parcel out and back costs the city's delivery fee twice, plus your own cost of a failed order (10 MAD)",
    );
  });
});
