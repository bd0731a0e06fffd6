import { describe, expect, it } from "vitest";
import { readShopSettings } from "../../app/models/shop-settings";
import {
  DEFAULT_WRITE_BACK_SETTINGS,
  NOTHING_WRITTEN_BACK,
  NO_OUTCOME,
  parseWriteBackDone,
  planWriteBack,
  recordWriteBack,
  type WriteBackLink,
  type WriteBackSettings,
  type WriteBackStep,
} from "../../app/shopify/write-back-plan";
import type { FulfillmentOrderState, OrderWriteBackState } from "../../app/shopify/order-write-back-state";
import { desiredTags } from "../../app/shopify/write-back-tags";

const ORDER = "gid://shopify/Order/1001";

function openFo(
  id: string,
  lines: [string, number][],
  extra: Partial<FulfillmentOrderState> = {},
): FulfillmentOrderState {
  return {
    id,
    status: "OPEN",
    supportedActions: ["CREATE_FULFILLMENT", "HOLD"],
    locationId: "gid://shopify/Location/1",
    lineItems: lines.map(([lineId, remainingQuantity]) => ({ id: lineId, remainingQuantity })),
    ...extra,
  };
}

function order(extra: Partial<OrderWriteBackState> = {}): OrderWriteBackState {
  return {
    id: ORDER,
    tags: [],
    displayFinancialStatus: "PENDING",
    canMarkAsPaid: true,
    cancelledAt: null,
    fulfillmentOrders: [openFo("fo-1", [["foli-1", 2]])],
    ...extra,
  };
}

function lead(extra: Partial<WriteBackLink> = {}): WriteBackLink {
  return {
    leadRef: "LD-7",
    confirmationStatus: "confirmed",
    shippingStatus: "pending",
    hasAnomalies: false,
    trackingNumber: null,
    done: NOTHING_WRITTEN_BACK,
    ...extra,
  };
}

const settings = (extra: Partial<WriteBackSettings> = {}): WriteBackSettings => ({
  ...DEFAULT_WRITE_BACK_SETTINGS,
  ...extra,
});
const kinds = (steps: WriteBackStep[]) => steps.map((s) => s.kind);
const tagsAdded = (steps: WriteBackStep[]) => steps.flatMap((s) => (s.kind === "tagsAdd" ? s.tags : []));
const tagsRemoved = (steps: WriteBackStep[]) => steps.flatMap((s) => (s.kind === "tagsRemove" ? s.tags : []));

describe("planWriteBack: tags", () => {
  it("tags a new confirmed lead with its ref and confirmation status, not the default 'pending' parcel", () => {
    const steps = planWriteBack(lead(), settings(), order());
    expect(steps).toEqual([{ kind: "tagsAdd", tags: ["cod:lead:LD-7", "cod:confirmed"] }]);
  });

  it.each([
    // [confirmation, shipping, anomalies, expected tags]
    ["new", "pending", false, ["cod:lead:LD-7", "cod:new"]],
    ["no_answer_2", "pending", true, ["cod:lead:LD-7", "cod:no_answer_2", "cod:anomaly"]],
    ["confirmed", "shipped", false, ["cod:lead:LD-7", "cod:confirmed", "cod:shipped"]],
    ["confirmed", "canceled", false, ["cod:lead:LD-7", "cod:confirmed", "cod:canceled"]],
    ["canceled", "pending", false, ["cod:lead:LD-7", "cod:canceled"]],
  ] as const)("%s / %s (anomalies %s) -> %j", (confirmationStatus, shippingStatus, hasAnomalies, expected) => {
    expect(desiredTags(lead({ confirmationStatus, shippingStatus, hasAnomalies }))).toEqual(expected);
    expect(
      tagsAdded(planWriteBack(lead({ confirmationStatus, shippingStatus, hasAnomalies }), settings(), order())),
    ).toEqual(expected);
  });

  it("adds exactly the missing tags, comparing case-insensitively like Shopify", () => {
    const current = order({ tags: ["VIP", "COD:LEAD:LD-7", "cod:confirmed"] });
    expect(planWriteBack(lead({ shippingStatus: "shipped" }), settings({ fulfillment: false }), current)).toEqual([
      { kind: "tagsAdd", tags: ["cod:shipped"] },
    ]);
  });

  it("removes the tags of earlier statuses so the order carries only the current ones", () => {
    const current = order({
      tags: ["cod:lead:LD-7", "cod:confirmed", "cod:picked_up", "cod:anomaly", "cod:vip", "gift"],
    });
    const steps = planWriteBack(lead({ shippingStatus: "shipped" }), settings({ fulfillment: false }), current);
    expect(steps).toEqual([
      { kind: "tagsAdd", tags: ["cod:shipped"] },
      { kind: "tagsRemove", tags: ["cod:picked_up", "cod:anomaly"] },
    ]);
  });

  it("removes a status tag it wrote earlier even when the status is not one it knows", () => {
    const current = order({ tags: ["cod:lead:LD-7", "cod:confirmed", "cod:in_customs"] });
    const done = { ...NOTHING_WRITTEN_BACK, tags: ["cod:lead:LD-7", "cod:confirmed", "cod:in_customs"] };
    const steps = planWriteBack(lead({ shippingStatus: "shipped", done }), settings({ fulfillment: false }), current);
    expect(tagsRemoved(steps)).toEqual(["cod:in_customs"]);
  });

  it("replaces the lead tag when the order was re-sent as a new lead", () => {
    const steps = planWriteBack(
      lead({ leadRef: "LD-9" }),
      settings(),
      order({ tags: ["cod:lead:LD-7", "cod:confirmed"] }),
    );
    expect(steps).toEqual([
      { kind: "tagsAdd", tags: ["cod:lead:LD-9"] },
      { kind: "tagsRemove", tags: ["cod:lead:LD-7"] },
    ]);
  });

  it("does not put back a tag it wrote that the merchant removed by hand", () => {
    const done = { ...NOTHING_WRITTEN_BACK, tags: ["cod:lead:LD-7", "cod:confirmed"] };
    expect(planWriteBack(lead({ done }), settings(), order({ tags: ["cod:lead:LD-7"] }))).toEqual([]);
  });

  it("writes no tag when the toggle is off", () => {
    expect(planWriteBack(lead(), settings({ tags: false }), order({ tags: ["cod:new"] }))).toEqual([]);
  });
});

describe("planWriteBack: fulfilment", () => {
  const tracked = (extra: Partial<WriteBackLink> = {}) =>
    lead({ shippingStatus: "shipped", trackingNumber: "CTM123456MA", ...extra });
  const noTags = settings({ tags: false });

  it("fulfils the open fulfillment orders with tracking number and the default company once the parcel ships", () => {
    expect(planWriteBack(tracked(), noTags, order())).toEqual([
      {
        kind: "fulfillmentCreate",
        locationId: "gid://shopify/Location/1",
        fulfillmentOrders: [{ fulfillmentOrderId: "fo-1", lineItems: [{ id: "foli-1", quantity: 2 }] }],
        tracking: { number: "CTM123456MA", company: "COD platform", url: null },
      },
    ]);
  });

  it.each([
    ["pending", false],
    ["picked_up", false],
    ["shipped", true],
    ["delivered", true],
    ["paid", true],
    ["returned", false],
    ["canceled", false],
  ])("shipping_status %s -> fulfil: %s", (shippingStatus, fulfils) => {
    const steps = planWriteBack(tracked({ shippingStatus }), settings({ tags: false, markPaid: false }), order());
    expect(kinds(steps).includes("fulfillmentCreate")).toBe(fulfils);
  });

  it("uses the lead's carrier, then the shop's carrier name, for the tracking company", () => {
    const company = (link: WriteBackLink, s: WriteBackSettings) => {
      const step = planWriteBack(link, s, order())[0];
      return step.kind === "fulfillmentCreate" ? step.tracking?.company : undefined;
    };
    expect(company(tracked(), settings({ tags: false, carrierName: "Amana" }))).toBe("Amana");
    expect(company(tracked({ trackingCompany: "CTM" }), settings({ tags: false, carrierName: "Amana" }))).toBe("CTM");
  });

  it("fulfils without tracking info when the platform gave no number", () => {
    const step = planWriteBack(tracked({ trackingNumber: null }), noTags, order())[0];
    expect(step).toMatchObject({ kind: "fulfillmentCreate", tracking: null });
  });

  it("takes only open fulfillment orders that support CREATE_FULFILLMENT, with their remaining quantities", () => {
    const current = order({
      fulfillmentOrders: [
        openFo("fo-open", [
          ["a", 1],
          ["b", 0],
        ]),
        openFo("fo-progress", [["c", 3]], { status: "IN_PROGRESS" }),
        openFo("fo-closed", [["d", 1]], { status: "CLOSED" }),
        openFo("fo-hold", [["e", 1]], { status: "ON_HOLD" }),
        openFo("fo-3pl", [["f", 1]], { supportedActions: ["REQUEST_FULFILLMENT"] }),
        openFo("fo-empty", [["g", 0]]),
      ],
    });
    const steps = planWriteBack(tracked(), noTags, current);
    expect(steps).toHaveLength(1);
    expect(steps[0]).toMatchObject({
      fulfillmentOrders: [
        { fulfillmentOrderId: "fo-open", lineItems: [{ id: "a", quantity: 1 }] },
        { fulfillmentOrderId: "fo-progress", lineItems: [{ id: "c", quantity: 3 }] },
      ],
    });
  });

  it("creates one fulfilment per location (Shopify refuses to mix locations)", () => {
    const current = order({
      fulfillmentOrders: [
        openFo("fo-casa", [["a", 1]]),
        openFo("fo-rabat", [["b", 1]], { locationId: "gid://shopify/Location/2" }),
      ],
    });
    const steps = planWriteBack(tracked(), noTags, current);
    expect(steps.map((s) => (s.kind === "fulfillmentCreate" ? s.locationId : null))).toEqual([
      "gid://shopify/Location/1",
      "gid://shopify/Location/2",
    ]);
  });

  it("does nothing without open fulfillment orders, when already fulfilled, cancelled or toggled off", () => {
    const closed = order({ fulfillmentOrders: [openFo("fo-1", [["a", 1]], { status: "CLOSED" })] });
    expect(planWriteBack(tracked(), noTags, closed)).toEqual([]);
    expect(planWriteBack(tracked(), noTags, order({ fulfillmentOrders: [] }))).toEqual([]);
    expect(planWriteBack(tracked({ done: { ...NOTHING_WRITTEN_BACK, fulfilled: true } }), noTags, order())).toEqual([]);
    expect(planWriteBack(tracked(), noTags, order({ cancelledAt: "2026-07-02T09:00:00Z" }))).toEqual([]);
    expect(planWriteBack(tracked(), settings({ tags: false, fulfillment: false }), order())).toEqual([]);
  });
});

describe("planWriteBack: mark as paid", () => {
  const only = settings({ tags: false, fulfillment: false });

  it.each([
    ["shipped", false],
    ["delivered", true],
    ["paid", true],
    ["returned", false],
  ])("shipping_status %s -> mark as paid: %s", (shippingStatus, marks) => {
    expect(planWriteBack(lead({ shippingStatus }), only, order())).toEqual(marks ? [{ kind: "markAsPaid" }] : []);
  });

  it("only while the amount is still outstanding", () => {
    const delivered = lead({ shippingStatus: "delivered" });
    expect(planWriteBack(delivered, only, order({ displayFinancialStatus: "PAID", canMarkAsPaid: false }))).toEqual([]);
    expect(planWriteBack(delivered, only, order({ canMarkAsPaid: false }))).toEqual([]);
    expect(planWriteBack({ ...delivered, done: { ...NOTHING_WRITTEN_BACK, paid: true } }, only, order())).toEqual([]);
    expect(planWriteBack(delivered, settings({ tags: false, fulfillment: false, markPaid: false }), order())).toEqual(
      [],
    );
  });

  it.each([
    ["shipped", false],
    ["delivered", false],
    ["paid", true],
    ["returned", false],
  ])(
    "when the merchant chose the platform's payment: shipping_status %s -> mark as paid: %s",
    (shippingStatus, marks) => {
      const whenPaidOut = settings({ tags: false, fulfillment: false, markPaidWhen: "paid" });
      expect(planWriteBack(lead({ shippingStatus }), whenPaidOut, order())).toEqual(
        marks ? [{ kind: "markAsPaid" }] : [],
      );
    },
  );

  it("at delivery is the default, and a stored choice that is neither reads as it", () => {
    expect(readShopSettings("{}").writeBack.markPaidWhen).toBe("delivered");
    expect(readShopSettings(JSON.stringify({ writeBack: { markPaidWhen: "paid" } })).writeBack.markPaidWhen).toBe(
      "paid",
    );
    expect(
      readShopSettings(JSON.stringify({ writeBack: { markPaidWhen: "tomorrow", tags: false } })).writeBack,
    ).toMatchObject({ markPaidWhen: "delivered" });
  });
});

describe("planWriteBack: cancel", () => {
  const cancelOn = settings({ tags: false, cancel: true });

  it("is off by default", () => {
    expect(DEFAULT_WRITE_BACK_SETTINGS).toEqual({
      tags: true,
      fulfillment: true,
      markPaid: true,
      markPaidWhen: "delivered",
      cancel: false,
    });
    expect(planWriteBack(lead({ confirmationStatus: "fake" }), settings({ tags: false }), order())).toEqual([]);
  });

  it.each([
    ["canceled", "CUSTOMER"],
    ["fake", "FRAUD"],
    ["wrong", "OTHER"],
  ])(
    "cancels a %s lead's order (reason %s) without refund, restocking, without notifying",
    (confirmationStatus, reason) => {
      expect(planWriteBack(lead({ confirmationStatus }), cancelOn, order())).toEqual([
        {
          kind: "cancel",
          reason,
          staffNote: `COD Lead Sync: lead LD-7 ${confirmationStatus}`,
          refund: false,
          restock: true,
          notifyCustomer: false,
        },
      ]);
    },
  );

  it.each(["new", "confirmed", "duplicate", "no_answer_3"])("leaves a %s lead's order alone", (confirmationStatus) => {
    expect(planWriteBack(lead({ confirmationStatus }), cancelOn, order())).toEqual([]);
  });

  it("does not cancel twice", () => {
    const fake = lead({ confirmationStatus: "fake" });
    expect(planWriteBack(fake, cancelOn, order({ cancelledAt: "2026-07-02T09:00:00Z" }))).toEqual([]);
    expect(planWriteBack({ ...fake, done: { ...NOTHING_WRITTEN_BACK, cancelled: true } }, cancelOn, order())).toEqual(
      [],
    );
  });
});

describe("planWriteBack: ordering and idempotence", () => {
  const delivered = lead({ shippingStatus: "delivered", trackingNumber: "CTM1" });

  it("orders the steps: tags, fulfilment, mark as paid", () => {
    expect(kinds(planWriteBack(delivered, settings(), order({ tags: ["cod:new"] })))).toEqual([
      "tagsAdd",
      "tagsRemove",
      "fulfillmentCreate",
      "markAsPaid",
    ]);
  });

  it("plans nothing the second time once the outcome is recorded, even against the order as read before", () => {
    const before = order({ tags: ["cod:lead:LD-7", "cod:confirmed"] });
    const first = planWriteBack(delivered, settings(), before);
    expect(kinds(first)).toEqual(["tagsAdd", "fulfillmentCreate", "markAsPaid"]);
    const done = recordWriteBack(delivered.done, {
      ...NO_OUTCOME,
      tagsAdded: ["cod:delivered"],
      fulfillmentIds: ["gid://shopify/Fulfillment/1"],
      markedPaid: true,
    });
    expect(done).toEqual({
      tags: ["cod:delivered"],
      fulfilled: true,
      paid: true,
      cancelled: false,
      fulfillmentIds: ["gid://shopify/Fulfillment/1"],
    });
    expect(planWriteBack({ ...delivered, done }, settings(), before)).toEqual([]);
  });
});

describe("recordWriteBack / parseWriteBackDone", () => {
  it("keeps the tags currently written: added in, removed out", () => {
    const done = recordWriteBack(
      { ...NOTHING_WRITTEN_BACK, tags: ["cod:lead:LD-7", "cod:picked_up"] },
      { ...NO_OUTCOME, tagsAdded: ["cod:shipped"], tagsRemoved: ["cod:picked_up"] },
    );
    expect(done.tags).toEqual(["cod:lead:LD-7", "cod:shipped"]);
  });

  it("reads a stored record, tolerating empty, broken or partial JSON", () => {
    expect(parseWriteBackDone("{}")).toEqual(NOTHING_WRITTEN_BACK);
    expect(parseWriteBackDone(null)).toEqual(NOTHING_WRITTEN_BACK);
    expect(parseWriteBackDone("not json")).toEqual(NOTHING_WRITTEN_BACK);
    expect(parseWriteBackDone(JSON.stringify({ tags: ["cod:new", 3], paid: true }))).toEqual({
      ...NOTHING_WRITTEN_BACK,
      tags: ["cod:new"],
      paid: true,
    });
    const done = recordWriteBack(NOTHING_WRITTEN_BACK, {
      ...NO_OUTCOME,
      fulfillmentIds: ["f1"],
      cancelRequested: true,
    });
    expect(parseWriteBackDone(JSON.stringify(done))).toEqual(done);
  });
});
