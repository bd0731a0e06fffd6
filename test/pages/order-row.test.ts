/** One row of the Orders list from the stored lead or the Shopify order, and why it needs the merchant. */
import { describe, expect, it } from "vitest";
import {
  attentionOf,
  readyReasonOf,
  referenceNames,
  summaryFromLead,
  summaryFromPayload,
  type AttentionInput,
} from "../../app/pages/order-row";
import { webhookOrder } from "../helpers/orders";

const names = referenceNames(
  [
    {
      id: 1002,
      sku: "ARG-OIL-100",
      name: "Huile d'argan 100 ml",
      platform_price: "90.00",
      in_stock: true,
      private: false,
      variants: [{ sku: "BAB-YEL", name: "Jaune" }],
    } as never,
  ],
  [{ id: 101, name: "Casablanca", delivery_fee: "30.00" }],
);

describe("a row's summary", () => {
  it("reads the lead: the customer, the delivered city's name, the platform's product names, two items and a count", () => {
    const lead = JSON.stringify({
      customer_name: "Salma Bennani",
      city: 101,
      items: [
        { sku: "BAB-YEL", quantity: 2 },
        { product_id: 1002, quantity: 1 },
        { sku: "UNKNOWN-1", quantity: 1 },
      ],
    });
    expect(summaryFromLead(lead, names)).toEqual({
      customerName: "Salma Bennani",
      erased: false,
      cityName: "Casablanca",
      items: [
        { name: "Huile d'argan 100 ml (Jaune)", quantity: 2, sku: "BAB-YEL" },
        { name: "Huile d'argan 100 ml", quantity: 1 },
      ],
      moreItems: 1,
    });
    expect(summaryFromLead(JSON.stringify({ customer_name: "X", city: "Taza" }), names)?.cityName).toBe("Taza");
    expect(summaryFromLead(null, names)).toBeUndefined();
    expect(summaryFromLead("{broken", names)).toBeUndefined();
  });

  it("says a customer was erased, and names no one", () => {
    expect(summaryFromLead(JSON.stringify({ customer_name: "[redacted]", city: 101, items: [] }), names)).toMatchObject(
      { customerName: null, erased: true },
    );
    expect(summaryFromPayload(JSON.stringify({ id: 1, name: "#1", redacted: true }))).toMatchObject({
      customerName: null,
      erased: true,
    });
  });

  it("falls back on the Shopify order before any lead exists", () => {
    const payload = webhookOrder({
      id: 5,
      phone: null,
      city: "Xyzzyville",
      items: [{ sku: null, title: "Tapis berbère", quantity: 3 }],
    });
    expect(summaryFromPayload(JSON.stringify(payload))).toEqual({
      customerName: "Salma Bennani",
      erased: false,
      cityName: "Xyzzyville",
      items: [{ name: "Tapis berbère", quantity: 3 }],
      moreItems: 0,
    });
    expect(summaryFromPayload(null)).toMatchObject({ customerName: null, items: [] });
  });
});

describe("why a row needs the merchant", () => {
  const row = (state: string, extra: Partial<AttentionInput> = {}): AttentionInput => ({
    state,
    reason: null,
    findings: [],
    anomalies: [],
    possibleDuplicate: false,
    cancelled: false,
    hold: null,
    refusal: null,
    ...extra,
  });

  it("names the blocking finding, the customer hold, the refusal, the failure, the platform's flag, or nothing", () => {
    expect(
      attentionOf(
        row("held", {
          findings: [
            { code: "city_fuzzy", severity: "warning" },
            { code: "sku_unmatched", severity: "blocking" },
          ],
        }),
      ),
    ).toEqual({
      kind: "finding",
      code: "sku_unmatched",
    });
    expect(attentionOf(row("held", { hold: { text: "2 refused" } }))).toEqual({
      kind: "customer",
      hold: { text: "2 refused" },
    });
    expect(
      attentionOf(row("held", { reason: "Automatic sending is off: send this order from the app when it is ready" })),
    ).toEqual({ kind: "ready", why: "autoSendOff" });
    expect(attentionOf(row("invalid", { refusal: { field: "customer_phone", message: "bad" } }))).toEqual({
      kind: "refused",
      refusal: { field: "customer_phone", message: "bad" },
    });
    expect(attentionOf(row("failed"))).toEqual({ kind: "failed" });
    expect(
      attentionOf(
        row("damaged", {
          anomalies: [
            { code: "inconsistent_total", duplicateOf: null },
            { code: "recent_duplicate", duplicateOf: "ATB-1" },
          ],
        }),
      ),
    ).toEqual({
      kind: "anomaly",
      code: "recent_duplicate",
      duplicateOf: "ATB-1",
    });
    // A kept duplicate: only what else the platform flagged.
    expect(
      attentionOf(
        row("damaged", { duplicateKept: true, anomalies: [{ code: "recent_duplicate", duplicateOf: "ATB-1" }] }),
      ),
    ).toBeNull();
    expect(attentionOf(row("created", { possibleDuplicate: true }))).toEqual({ kind: "possibleDuplicate" });
    for (const state of ["created", "received", "posting", "skipped", "cancelled"])
      expect(attentionOf(row(state)), state).toBeNull();
    // Cancelled in Shopify before sending: nothing to do.
    expect(
      attentionOf(row("held", { cancelled: true, findings: [{ code: "sku_unmatched", severity: "blocking" }] })),
    ).toBeNull();
  });

  it("reads the app's own reasons for an order held without a finding", () => {
    expect(
      [
        "Waiting for the seller API key: enter it in Settings",
        "The app is not installed on this shop any more",
        "Something else",
        null,
      ].map(readyReasonOf),
    ).toEqual(["waitingForKey", "notInstalled", "other", "other"]);
  });
});
