import { describe, expect, it } from "vitest";
import { oddsStandingOf, stopCostOf } from "../../app/odds/standing";

const sent = { state: "created", cancelled: false };

describe("what an order's delivery odds can still say", () => {
  it("GIVEN an order cancelled in Shopify while its lead is confirmed (#1035 in the demo) THEN nothing to gain: stop it, its parcel not gone yet", () => {
    expect(
      oddsStandingOf({ ...sent, confirmationStatus: "confirmed", shippingStatus: "picked_up", cancelled: true }),
    ).toEqual({ kind: "stop", why: "cancelled", shipped: false });
  });

  it("GIVEN a cancelled or refunded order whose parcel is shipped THEN stop it, its parcel already left", () => {
    expect(
      oddsStandingOf({ ...sent, confirmationStatus: "confirmed", shippingStatus: "shipped", cancelled: true }),
    ).toEqual({ kind: "stop", why: "cancelled", shipped: true });
    expect(oddsStandingOf({ ...sent, confirmationStatus: "new", shippingStatus: "pending", refunded: true })).toEqual({
      kind: "stop",
      why: "refunded",
      shipped: false,
    });
  });

  it("GIVEN a lead that reached its outcome THEN settled with it, cancelled in Shopify or not", () => {
    expect(oddsStandingOf({ ...sent, confirmationStatus: "confirmed", shippingStatus: "returned" })).toEqual({
      kind: "settled",
      outcome: "returned",
    });
    expect(
      oddsStandingOf({ ...sent, confirmationStatus: "canceled", shippingStatus: "pending", cancelled: true }),
    ).toEqual({ kind: "settled", outcome: "call_cancelled" });
    expect(oddsStandingOf({ ...sent, confirmationStatus: "confirmed", shippingStatus: "delivered" })).toEqual({
      kind: "settled",
      outcome: "delivered",
    });
  });

  it("GIVEN an order cancelled before it was sent THEN cancelled; an order on its way, not cancelled, stays open", () => {
    expect(
      oddsStandingOf({ state: "cancelled", confirmationStatus: null, shippingStatus: null, cancelled: true }),
    ).toEqual({ kind: "cancelled" });
    expect(oddsStandingOf({ state: "held", confirmationStatus: null, shippingStatus: null, cancelled: true })).toEqual({
      kind: "cancelled",
    });
    expect(oddsStandingOf({ ...sent, confirmationStatus: "confirmed", shippingStatus: "shipped" })).toEqual({
      kind: "open",
    });
    expect(oddsStandingOf({ state: "held", confirmationStatus: null, shippingStatus: null, cancelled: false })).toEqual(
      {
        kind: "open",
      },
    );
  });
});

describe("what a parcel out and back costs the merchant", () => {
  it("GIVEN no own cost in Settings THEN the platform's fee out and back, nothing of the merchant's", () => {
    expect(stopCostOf(2500, 0)).toEqual({ feeCents: 2500, ownCents: null, totalCents: 5000 });
  });

  it("GIVEN the merchant's own cost of a failed order THEN it is named and added to the fee out and back", () => {
    expect(stopCostOf(2500, 1000)).toEqual({ feeCents: 2500, ownCents: 1000, totalCents: 6000 });
  });

  it("GIVEN the city's fee unknown THEN no total, the merchant's own cost still named", () => {
    expect(stopCostOf(null, 1000)).toEqual({ feeCents: null, ownCents: 1000, totalCents: null });
    expect(stopCostOf(null, 0)).toEqual({ feeCents: null, ownCents: null, totalCents: null });
  });
});
