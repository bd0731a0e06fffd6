import { describe, expect, it } from "vitest";
import { customerHold, type CustomerHistory } from "../../app/customers/risk";
import {
  customerTimelineDetail,
  customerTimelineText,
  holdReasonText,
  parseHoldReason,
  type HoldReason,
} from "../../app/customers/hold-reason";
import { t, type MessageKey, type MessageParams } from "../../app/i18n";
import { deliveryOutcomeOf, type DeliveryOutcome } from "../../app/customers/outcome";

const NOW = new Date("2026-11-24T12:00:00Z");
const daysAgo = (d: number) => new Date(NOW.getTime() - d * 86_400_000);
const rule = { enabled: true, failures: 3, days: 90 };
const en = (key: MessageKey, params?: MessageParams) => t("en", key, params);
const fr = (key: MessageKey, params?: MessageParams) => t("fr", key, params);
const said = (decision: ReturnType<typeof customerHold>) =>
  decision.hold ? holdReasonText(en, decision.reason) : null;
const history = (
  outcomes: [DeliveryOutcome, number][],
  standing: CustomerHistory["standing"] = null,
): CustomerHistory => ({
  standing,
  outcomes: outcomes.map(([outcome, d]) => ({ outcome, at: daysAgo(d) })),
});

describe("customer hold rule", () => {
  it("holds at N failed deliveries in the window, not at N-1", () => {
    expect(
      customerHold(
        history([
          ["refused", 1],
          ["returned", 10],
        ]),
        rule,
        NOW,
      ),
    ).toEqual({ hold: false });
    const held = customerHold(
      history([
        ["refused", 1],
        ["refused", 5],
        ["returned", 10],
      ]),
      rule,
      NOW,
    );
    expect(held).toEqual({
      hold: true,
      reason: { code: "customer_record", counts: { refused: 2, returned: 1 }, days: 90, blocked: false },
    });
    expect(said(held)).toBe("2 refused and 1 returned in the last 90 days");
  });

  it("counts only failures inside the last D days (the boundary day included)", () => {
    const atEdge = history([
      ["refused", 1],
      ["returned", 2],
      ["wrong_number", 90],
    ]);
    expect(said(customerHold(atEdge, rule, NOW))).toBe("1 refused, 1 returned and 1 wrong number in the last 90 days");
    const outside = history([
      ["refused", 1],
      ["returned", 2],
      ["wrong_number", 90.01],
    ]);
    expect(customerHold(outside, rule, NOW)).toEqual({ hold: false });
  });

  it("does not count deliveries or orders still moving", () => {
    expect(
      customerHold(
        history([
          ["delivered", 1],
          ["in_progress", 1],
          ["delivered", 2],
          ["cancelled", 3],
        ]),
        rule,
        NOW,
      ),
    ).toEqual({ hold: false });
  });

  it("is off by default and when disabled, whatever the record or standing", () => {
    const bad = history(
      [
        ["refused", 1],
        ["refused", 2],
        ["refused", 3],
      ],
      "blocked",
    );
    expect(customerHold(bad, { ...rule, enabled: false }, NOW)).toEqual({ hold: false });
  });

  it("holds a blocked phone without any failure, and never a trusted one", () => {
    expect(customerHold(history([], "blocked"), rule, NOW)).toMatchObject({
      hold: true,
      reason: { code: "customer_blocked", blocked: true },
    });
    expect(
      customerHold(
        history(
          [
            ["refused", 1],
            ["refused", 2],
            ["refused", 3],
          ],
          "trusted",
        ),
        rule,
        NOW,
      ),
    ).toEqual({ hold: false });
  });

  it("says the reason in English and French from the same stored data", () => {
    const reason: HoldReason = {
      code: "customer_record",
      counts: { cancelled: 2, refused: 1 },
      days: 30,
      blocked: false,
    };
    expect(holdReasonText(en, reason)).toBe("1 refused and 2 cancelled or fake in the last 30 days");
    expect(holdReasonText(fr, reason)).toBe("1 refusée et 2 annulées ou fausses sur les 30 derniers jours");
    expect(holdReasonText(en, { code: "customer_record", counts: { returned: 1 }, days: 7, blocked: false })).toBe(
      "1 returned in the last 7 days",
    );
    expect(holdReasonText(fr, { code: "customer_blocked", counts: {}, days: 90, blocked: true })).toBe(
      "Vous avez bloqué ce numéro de téléphone",
    );
    expect(holdReasonText(en, { code: "customer_record", counts: { refused: 1 }, days: 1, blocked: false })).toBe(
      "1 refused in the last day",
    );
  });

  it("reads a stored reason back and refuses what is not one", () => {
    const stored = JSON.parse(
      JSON.stringify({
        code: "customer_record",
        counts: { refused: 2, returned: 0, delivered: 4, wrong_number: "x" },
        days: 90,
      }),
    );
    expect(parseHoldReason(stored)).toEqual({
      code: "customer_record",
      counts: { refused: 2 },
      days: 90,
      blocked: false,
    });
    expect(parseHoldReason({ code: "something_else" })).toBeNull();
    expect(parseHoldReason("2 refused in the last 90 days")).toBeNull();
    // A row written before the reason was data: no detail, the page shows its message.
    expect(customerTimelineDetail("customer_hold", undefined)).toBeUndefined();
    const sent = customerTimelineDetail("send_anyway", { reason: { code: "customer_blocked" } })!;
    expect(customerTimelineText(fr, sent)).toBe(
      "Envoyée quand même par vous, malgré l'historique du client (Vous avez bloqué ce numéro de téléphone)",
    );
    expect(customerTimelineText(en, customerTimelineDetail("customer_standing", { standing: "trusted" })!)).toBe(
      "You trust the customer's phone",
    );
  });
});

describe("lead outcome", () => {
  const sent = (confirmationStatus: string | null, shippingStatus: string | null, state = "created") =>
    deliveryOutcomeOf({ state, confirmationStatus, shippingStatus });
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
    for (const state of ["received", "posting", "retrying", "held", "skipped", "invalid", "failed", "cancelled"])
      expect(sent(null, null, state)).toBeNull();
  });
});
