import { describe, expect, it } from "vitest";
import { customerHold, failureWords, type CustomerHistory } from "../../app/customers/risk";
import { outcomeOf, type Outcome } from "../../app/customers/outcome";

const NOW = new Date("2026-11-24T12:00:00Z");
const daysAgo = (d: number) => new Date(NOW.getTime() - d * 86_400_000);
const rule = { enabled: true, failures: 3, days: 90 };
const history = (outcomes: [Outcome, number][], standing: CustomerHistory["standing"] = null): CustomerHistory => ({
  standing,
  outcomes: outcomes.map(([outcome, d]) => ({ outcome, at: daysAgo(d) })),
});

describe("customer hold rule", () => {
  it("holds at N failed deliveries in the window, not at N-1", () => {
    expect(customerHold(history([["refused", 1], ["returned", 10]]), rule, NOW)).toEqual({ hold: false });
    expect(customerHold(history([["refused", 1], ["refused", 5], ["returned", 10]]), rule, NOW)).toEqual({
      hold: true,
      code: "customer_record",
      reason: "2 refused and 1 returned in the last 90 days",
    });
  });

  it("counts only failures inside the last D days (the boundary day included)", () => {
    const atEdge = history([["refused", 1], ["returned", 2], ["wrong_number", 90]]);
    expect(customerHold(atEdge, rule, NOW)).toMatchObject({ hold: true, reason: "1 refused, 1 returned and 1 wrong number in the last 90 days" });
    const outside = history([["refused", 1], ["returned", 2], ["wrong_number", 90.01]]);
    expect(customerHold(outside, rule, NOW)).toEqual({ hold: false });
  });

  it("does not count deliveries or orders still moving", () => {
    expect(customerHold(history([["delivered", 1], ["in_progress", 1], ["delivered", 2], ["cancelled", 3]]), rule, NOW)).toEqual({ hold: false });
  });

  it("is off by default and when disabled, whatever the record or standing", () => {
    const bad = history([["refused", 1], ["refused", 2], ["refused", 3]], "blocked");
    expect(customerHold(bad, { ...rule, enabled: false }, NOW)).toEqual({ hold: false });
  });

  it("holds a blocked phone without any failure, and never a trusted one", () => {
    expect(customerHold(history([], "blocked"), rule, NOW)).toMatchObject({ hold: true, code: "customer_blocked" });
    expect(customerHold(history([["refused", 1], ["refused", 2], ["refused", 3]], "trusted"), rule, NOW)).toEqual({ hold: false });
  });

  it("says the failures in plain words", () => {
    expect(failureWords(new Map([["returned", 1]]))).toBe("1 returned");
    expect(failureWords(new Map<Outcome, number>([["cancelled", 2], ["refused", 1]]))).toBe("1 refused and 2 cancelled or fake");
  });
});

describe("lead outcome", () => {
  const sent = (confirmationStatus: string | null, shippingStatus: string | null, state = "created") => outcomeOf({ state, confirmationStatus, shippingStatus });
  it("reads the platform's statuses through the analytics groups", () => {
    expect(sent("confirmed", "delivered")).toBe("delivered");
    expect(sent("confirmed", "paid")).toBe("delivered");
    expect(sent("confirmed", "returned")).toBe("returned");
    expect(sent("canceled", "pending")).toBe("refused");
    expect(sent("fake", "pending")).toBe("cancelled");
    expect(sent("duplicate", "pending")).toBe("cancelled");
    expect(sent("wrong", "pending")).toBe("wrong_number");
    expect(sent("confirmed", "canceled")).toBe("cancelled");
    expect(sent("new", "pending")).toBe("in_progress");
    expect(sent("no_answer_2", "pending")).toBe("in_progress");
    expect(sent("confirmed", "shipped")).toBe("in_progress");
    expect(sent("confirmed", "returned", "damaged")).toBe("returned");
  });
  it("gives no outcome to an order the platform never took", () => {
    for (const state of ["received", "posting", "retrying", "held", "skipped", "invalid", "failed", "cancelled"]) expect(sent(null, null, state)).toBeNull();
  });
});
