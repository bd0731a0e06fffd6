import { describe, expect, it } from "vitest";
import {
  oddsBadgeOf,
  decide,
  decideAgain,
  expectedValue,
  releasedRiskLevel,
  riskLevelOf,
  type OddsPolicy,
} from "../../app/odds/decision";

// A 249 MAD order of a 79 MAD product to a 35 MAD city: 135 MAD margin if delivered.
const money = { amountCents: 24_900, platformCostCents: 7_900, deliveryFeeCents: 3_500 };
const policy = (p: OddsPolicy["policy"], minProbability = 0.5): OddsPolicy => ({
  policy: p,
  minProbability,
  refusalCostCents: 1_000,
});

describe("the money of sending an order", () => {
  it("GIVEN the odds, the amounts and the fees THEN the expected value weighs the margin against fee out and back", () => {
    // Loss if it fails: 40 % of failures are returns (2 x 35 MAD), plus the merchant's 10 MAD: 38 MAD.
    const value = expectedValue(0.7, money, 0.4, 1_000)!;
    expect(value.marginCents).toBe(13_500);
    expect(value.lossCents).toBe(3_800);
    expect(value.valueCents).toBe(Math.round(0.7 * 13_500 - 0.3 * 3_800));
    expect(value.breakEven).toBeCloseTo(3_800 / 17_300);
    expect(expectedValue(value.breakEven!, money, 0.4, 1_000)!.valueCents).toBe(0);
  });

  it("GIVEN a price or a fee the app does not know THEN there is no expected value", () => {
    expect(expectedValue(0.7, { ...money, platformCostCents: null }, 0.4, 0)).toBeNull();
    expect(expectedValue(0.7, { ...money, deliveryFeeCents: null }, 0.4, 0)).toBeNull();
  });

  it("GIVEN an order sold under its cost and fee THEN it never breaks even", () => {
    const value = expectedValue(0.99, { ...money, amountCents: 10_000 }, 0.4, 0)!;
    expect(value.marginCents).toBeLessThan(0);
    expect(value.breakEven).toBeNull();
  });
});

describe("the shop's policy", () => {
  const value = (p: number) => expectedValue(p, money, 0.4, 1_000);

  it("GIVEN send all THEN nothing is held, whatever the odds", () => {
    expect(decide(0.05, value(0.05), policy("send_all"))).toEqual({ hold: false });
  });

  it("GIVEN hold below 50 % THEN 49 % waits until 50 % and 50 % goes", () => {
    expect(decide(0.49, value(0.49), policy("hold_below"))).toEqual({
      hold: true,
      rule: "below_probability",
      releaseAt: 0.5,
    });
    expect(decide(0.5, value(0.5), policy("hold_below"))).toEqual({ hold: false });
  });

  it("GIVEN hold when the expected value is negative THEN it holds under break-even and says from where it would go", () => {
    const breakEven = value(0.5)!.breakEven!;
    const held = decide(breakEven - 0.01, value(breakEven - 0.01), policy("hold_negative_value"));
    expect(held).toEqual({ hold: true, rule: "negative_value", releaseAt: breakEven });
    expect(decide(breakEven + 0.01, value(breakEven + 0.01), policy("hold_negative_value"))).toEqual({ hold: false });
    expect(decide(0.01, null, policy("hold_negative_value"))).toEqual({ hold: false });
  });

  it("GIVEN an order held on its stored score WHEN the policy changes THEN it is decided again with the new threshold and the new own cost of a failure", () => {
    const stored = (p: number) => ({ probability: p, marginCents: 13_500, lossCents: value(p)!.lossCents });
    // Held under 50 %: a threshold of 40 % sends it, one of 45 % still holds it, and send all sends everything.
    expect(decideAgain(stored(0.42), policy("hold_below"), policy("hold_below", 0.4))).toEqual({ hold: false });
    expect(decideAgain(stored(0.42), policy("hold_below"), policy("hold_below", 0.45)).hold).toBe(true);
    expect(decideAgain(stored(0.02), policy("hold_below"), policy("send_all"))).toEqual({ hold: false });
    // At 20 %: with 10 MAD of own cost the loss is 38 MAD and sending loses 3.40 MAD on average; without it
    // the loss is 28 MAD and sending earns 4.60 MAD.
    const p = 0.2;
    expect(decide(p, value(p), policy("hold_negative_value")).hold).toBe(true);
    const cheaper = { ...policy("hold_negative_value"), refusalCostCents: 0 };
    expect(decideAgain(stored(p), policy("hold_negative_value"), cheaper)).toEqual({ hold: false });
    const dearer = { ...policy("hold_negative_value"), refusalCostCents: 200_000 };
    expect(decideAgain(stored(0.9), policy("hold_negative_value"), dearer).hold).toBe(true);
    expect(decideAgain(stored(0.9), policy("hold_negative_value"), policy("hold_negative_value")).hold).toBe(false);
    // Without a known margin the value policy holds nothing.
    expect(
      decideAgain({ probability: 0.1, marginCents: null, lossCents: null }, policy("hold_below"), cheaper),
    ).toEqual({ hold: false });
  });

  it("GIVEN the odds against the shop's own rate THEN the risk level Shopify shows", () => {
    expect(riskLevelOf(0.9, value(0.9), true, 0.65)).toBe("HIGH");
    expect(riskLevelOf(0.1, value(0.1), false, 0.65)).toBe("HIGH");
    expect(riskLevelOf(0.5, value(0.5), false, 0.65)).toBe("MEDIUM");
    expect(riskLevelOf(0.6, value(0.6), false, 0.65)).toBe("LOW");
    expect(riskLevelOf(0.3, null, false, 0.65)).toBe("MEDIUM");
  });

  it("GIVEN the merchant released a held order THEN its level is the odds' own and never HIGH, which Shopify reads as cancel", () => {
    // Each of Shopify's RiskAssessmentResult levels the app writes, released.
    expect(releasedRiskLevel(riskLevelOf(0.1, value(0.1), false, 0.65))).toBe("MEDIUM");
    expect(releasedRiskLevel(riskLevelOf(0.5, value(0.5), false, 0.65))).toBe("MEDIUM");
    expect(releasedRiskLevel(riskLevelOf(0.6, value(0.6), false, 0.65))).toBe("LOW");
  });
});

describe("what an order's odds badge says", () => {
  it("GIVEN two orders side by side WHEN the better odds lose money on average THEN the badge says the loss, not that the odds are worse", () => {
    expect(oddsBadgeOf({ level: "HIGH", held: false, valueCents: -1_250 })).toBe("loss");
    expect(oddsBadgeOf({ level: "LOW", held: false, valueCents: 4_000 })).toBe("usual");
  });

  it("GIVEN a held order, a released one at a loss, and odds under the shop's usual THEN held, loss and below", () => {
    expect(oddsBadgeOf({ level: "HIGH", held: true, valueCents: 3_000 })).toBe("held");
    expect(oddsBadgeOf({ level: "MEDIUM", held: false, valueCents: -10 })).toBe("loss");
    expect(oddsBadgeOf({ level: "MEDIUM", held: false, valueCents: null })).toBe("below");
    expect(oddsBadgeOf({ level: "LOW", held: false, valueCents: 0 })).toBe("usual");
  });
});
