import { describe, expect, it } from "vitest";
import { writeBackPoints, writeBackMayChange } from "../../app/sync/write-back-task.server";
import { NOTHING_WRITTEN_BACK } from "../../app/shopify/write-back-plan";
import { readShopSettings } from "../../app/models/shop-settings";
import { READ_POINTS } from "../../app/shopify/write-back.server";

/** A shop's write-back toggles as they are by default (tags, fulfilment, paid on delivery). */
const DEFAULTS = readShopSettings(null).writeBack;

const created = {
  leadRef: "LD-1",
  confirmationStatus: "new",
  shippingStatus: "pending",
  anomalies: "[]",
  trackingNumber: null,
  writtenBack: JSON.stringify(NOTHING_WRITTEN_BACK),
};

describe("what a write-back is expected to spend of the shop's Shopify points", () => {
  it("a new lead: its tags added after the order's head (1 point asked by the read, 10 by the mutation)", () => {
    expect(writeBackPoints(created, DEFAULTS)).toEqual({ requested: 10, charge: 11 });
  });

  it("a shipped parcel: the fulfilment orders read (563 asked), tags swapped and the fulfilment", () => {
    const written = { ...NOTHING_WRITTEN_BACK, tags: ["cod:lead:LD-1", "cod:new"] };
    const shipped = {
      ...created,
      confirmationStatus: "confirmed",
      shippingStatus: "shipped",
      trackingNumber: "TRK",
      writtenBack: JSON.stringify(written),
    };
    const points = writeBackPoints(shipped, DEFAULTS);
    expect(points.requested).toBe(READ_POINTS.withFulfillmentOrders);
    // 12 for the read, tagsAdd, tagsRemove, fulfillmentCreate.
    expect(points.charge).toBe(12 + 30);
    // Fulfilment off: the head read, and the tags only.
    expect(writeBackPoints(shipped, { ...DEFAULTS, fulfillment: false })).toEqual({ requested: 10, charge: 21 });
  });

  it("nothing left to write: no job, and a run that finds nothing still counts one call", () => {
    const written = { ...NOTHING_WRITTEN_BACK, tags: ["cod:lead:LD-1", "cod:new"] };
    const same = { ...created, writtenBack: JSON.stringify(written) };
    expect(writeBackMayChange(same, DEFAULTS)).toBe(false);
    expect(writeBackPoints(same, DEFAULTS).charge).toBe(11);
  });
});
