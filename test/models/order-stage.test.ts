/** One stage per order, from the link's state and the lead's statuses, and how far it went. */
import { describe, expect, it } from "vitest";
import { shopifyStopOf, stageOf, stepperOf, STAGE_TONES, STAGES, type StageInput } from "../../app/models/order-stage";

const at = (
  state: string,
  confirmationStatus: string | null = null,
  shippingStatus: string | null = null,
  cancelled = false,
): StageInput => ({
  state,
  confirmationStatus,
  shippingStatus,
  cancelled,
});

describe("stageOf", () => {
  it("folds the app's state, the call and the parcel into one stage", () => {
    expect(
      [
        at("received"),
        at("posting"),
        at("retrying"),
        at("held"),
        at("invalid"),
        at("failed"),
        at("skipped"),
        at("cancelled"),
        at("held", null, null, true),
        at("created", "new", "pending"),
        at("damaged", "callback", "pending"),
        at("created", "no_answer_2", "pending"),
        at("created", "confirmed", "pending"),
        at("created", "confirmed", "picked_up"),
        at("created", "confirmed", "shipped"),
        at("created", "confirmed", "delivered"),
        at("damaged", "confirmed", "paid"),
        at("created", "confirmed", "returned"),
        at("created", "confirmed", "canceled"),
        at("created", "fake", "pending"),
        at("created", "duplicate", "pending"),
        at("created", "new", "pending", true),
        at("bogus"),
      ].map(stageOf),
    ).toEqual([
      "received",
      "received",
      "received",
      "held",
      "refused",
      "failed",
      "skipped",
      "cancelled",
      "cancelled",
      "sent",
      "sent",
      "sent",
      "confirmed",
      "confirmed",
      "shipped",
      "delivered",
      "delivered",
      "returned",
      "cancelled",
      "cancelled",
      "cancelled",
      // Cancelled in Shopify after sending: the lead lives on.
      "sent",
      "received",
    ]);
  });

  it("reads problems in the critical tone only, information neutral", () => {
    expect(STAGES.filter((s) => STAGE_TONES[s] === "critical")).toEqual(["refused", "failed"]);
    expect(STAGES.filter((s) => STAGE_TONES[s] === "neutral")).toEqual(["received", "skipped", "cancelled"]);
  });
});

describe("stepperOf", () => {
  it("says how far the order went and where and why it stopped", () => {
    expect(stepperOf(at("received"))).toEqual({ reached: 0, stopped: null });
    expect(stepperOf(at("held"))).toEqual({ reached: 0, stopped: "held" });
    expect(stepperOf(at("invalid"))).toEqual({ reached: 0, stopped: "refused" });
    expect(stepperOf(at("cancelled"))).toEqual({ reached: 0, stopped: "cancelled_in_shopify" });
    expect(stepperOf(at("created", "new", "pending"))).toEqual({ reached: 1, stopped: null });
    expect(stepperOf(at("created", "fake", "pending"))).toEqual({ reached: 1, stopped: "cancelled_on_call" });
    expect(stepperOf(at("created", "confirmed", "pending"))).toEqual({ reached: 2, stopped: null });
    expect(stepperOf(at("created", "confirmed", "canceled"))).toEqual({ reached: 2, stopped: "parcel_cancelled" });
    expect(stepperOf(at("created", "confirmed", "shipped"))).toEqual({ reached: 3, stopped: null });
    expect(stepperOf(at("created", "confirmed", "returned"))).toEqual({ reached: 3, stopped: "returned" });
    expect(stepperOf(at("created", "confirmed", "paid"))).toEqual({ reached: 4, stopped: null });
  });
});

describe("shopifyStopOf", () => {
  it("leads with Shopify's cancellation or refund while the lead goes on, never with the platform's good news", () => {
    expect(shopifyStopOf(at("created", "confirmed", "pending", true))).toBe("cancelled");
    expect(shopifyStopOf(at("created", "new", "pending", true))).toBe("cancelled");
    expect(shopifyStopOf(at("damaged", "confirmed", "shipped", true))).toBe("cancelled");
    expect(shopifyStopOf({ ...at("created", "confirmed", "pending"), refunded: true })).toBe("refunded");
    // Cancelled and refunded: the cancellation says more.
    expect(shopifyStopOf({ ...at("created", "confirmed", "pending", true), refunded: true })).toBe("cancelled");
  });

  it("leaves the stage alone when it already tells the truth", () => {
    expect(shopifyStopOf(at("created", "confirmed", "pending"))).toBeNull();
    // Cancelled before it was sent: the stage says cancelled.
    expect(shopifyStopOf(at("held", null, null, true))).toBeNull();
    expect(shopifyStopOf(at("cancelled", null, null, true))).toBeNull();
    // The lead reached its outcome: that is what happened.
    expect(shopifyStopOf(at("created", "confirmed", "delivered", true))).toBeNull();
    expect(shopifyStopOf(at("created", "confirmed", "returned", true))).toBeNull();
    expect(shopifyStopOf({ ...at("created", "fake", "pending"), refunded: true })).toBeNull();
  });
});
