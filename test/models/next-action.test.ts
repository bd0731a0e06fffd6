/**
 * The one next action an order asks for, by state; and a second lead never made
 * without saying so (the API can neither edit nor cancel a lead).
 */
import { describe, expect, it } from "vitest";
import { nextActionOf, type NextActionInput } from "../../app/models/next-action";

const input = (state: string, extra: Partial<NextActionInput> = {}): NextActionInput => ({
  state,
  cancelled: false,
  leadRef: state === "created" || state === "damaged" ? "ATB-1" : null,
  blocking: [],
  anomalies: [],
  heldByCustomer: false,
  ...extra,
});

describe("nextActionOf", () => {
  it("chooses fix, send, send anyway, retry, refusal, duplicate decision, seller space, wait or nothing", () => {
    const kinds = [
      input("held", { blocking: ["sku_unmatched"] }),
      input("held"),
      input("held", { heldByCustomer: true }),
      input("failed"),
      input("invalid"),
      input("damaged", { anomalies: ["recent_duplicate", "inconsistent_total"] }),
      input("damaged", { anomalies: ["recent_duplicate"], duplicateKept: true }),
      input("damaged", { anomalies: ["inconsistent_total"] }),
      input("damaged", { anomalies: ["something_new"] }),
      input("received"),
      input("posting"),
      input("retrying"),
      input("created"),
      input("skipped"),
      input("cancelled"),
    ].map((i) => nextActionOf(i).kind);
    expect(kinds).toEqual([
      "fix",
      "send",
      "sendAnyway",
      "retry",
      "fixRefusal",
      "decideDuplicate",
      "none",
      "sellerSpace",
      "sellerSpace",
      "wait",
      "wait",
      "wait",
      "none",
      "none",
      "none",
    ]);
  });

  it("marks sending again as a second lead exactly when a lead exists on the platform", () => {
    expect(nextActionOf(input("created"))).toEqual({ kind: "none", canResend: true, secondLead: true });
    expect(nextActionOf(input("damaged", { anomalies: ["inconsistent_total"] })).secondLead).toBe(true);
    for (const state of ["held", "invalid", "failed", "skipped", "received"])
      expect(nextActionOf(input(state)).secondLead, state).toBe(false);
    // In flight or cancelled: nothing is sent from here at all.
    expect(nextActionOf(input("posting"))).toMatchObject({ canResend: false, secondLead: false });
    expect(nextActionOf(input("cancelled"))).toMatchObject({ canResend: false, secondLead: false });
  });

  it("asks to cancel a lead in the seller space once its order was cancelled in Shopify, unless the call closed it", () => {
    expect(nextActionOf(input("created", { cancelled: true, confirmationStatus: "new" }))).toEqual({
      kind: "sellerSpace",
      canResend: false,
      secondLead: false,
    });
    expect(nextActionOf(input("created", { cancelled: true, confirmationStatus: "canceled" })).kind).toBe("none");
    expect(nextActionOf(input("held", { cancelled: true })).kind).toBe("none");
  });
});
