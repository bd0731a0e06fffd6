/**
 * The reconciliation's pure rules: which orders a pass reads and may take in, what it
 * does with each order Shopify lists, where a Shopify order disagrees with what the app
 * wrote, the latency histograms and the promise checked on them, and the "Order stuck"
 * firing.
 */
import { describe, expect, it } from "vitest";
import { actionFor, readOrderState, type ShopifyOrderState } from "../../app/sync/reconcile/compare";
import { writeBackDrift, type WrittenLink } from "../../app/sync/reconcile/drift";
import { boundAtLeast, bucketOf, OVER, percentile, shareWithin } from "../../app/sync/reconcile/latency";
import { checkPromise, SYNC_PROMISE } from "../../app/sync/reconcile/promise";
import {
  createdBetweenQuery,
  firstCoverage,
  nextWatermark,
  passWindow,
  updatedSinceQuery,
  WATERMARK_OVERLAP_MS,
  windowStart,
} from "../../app/sync/reconcile/window";
import { DEFAULT_WRITE_BACK_SETTINGS, NOTHING_WRITTEN_BACK } from "../../app/shopify/write-back-plan";
import { FLOW_TRIGGER, FLOW_TRIGGER_FIELDS, stuckFiring } from "../../app/flow/triggers";

const at = (iso: string) => new Date(iso);
const HOUR = 3600_000;

describe("the pass's window", () => {
  const now = at("2026-11-20T12:00:00Z");
  const week = 7 * 24 * HOUR;

  it("starts a shop's coverage at its install, or at the last order the app saw before a reinstall", () => {
    // Orders placed since the install, seen or not, are covered (the first pass may start while they arrive).
    expect(
      firstCoverage({ installedAt: at("2026-11-01T00:00:00Z"), lastSeenOrderAt: at("2026-11-19T08:00:00Z") }),
    ).toEqual(at("2026-11-01T00:00:00Z"));
    expect(firstCoverage({ installedAt: at("2026-11-01T00:00:00Z"), lastSeenOrderAt: null })).toEqual(
      at("2026-11-01T00:00:00Z"),
    );
    // Reinstalled today after a month away: the gap since the last order it saw.
    expect(
      firstCoverage({ installedAt: at("2026-11-20T00:00:00Z"), lastSeenOrderAt: at("2026-10-20T08:00:00Z") }),
    ).toEqual(at("2026-10-20T08:00:00Z"));
  });

  it("reads from the watermark (the last pass's start, less an overlap), else from the coverage start", () => {
    const marks = { coverageFrom: at("2026-11-19T00:00:00Z"), uncoveredFrom: null, watermark: null };
    expect(passWindow(marks, now, week)).toEqual({
      from: marks.coverageFrom,
      coverageFrom: marks.coverageFrom,
      uncoveredFrom: null,
    });
    const watermark = nextWatermark(at("2026-11-20T11:55:00Z"));
    expect(watermark.getTime()).toBe(at("2026-11-20T11:55:00Z").getTime() - WATERMARK_OVERLAP_MS);
    expect(passWindow({ ...marks, watermark }, now, week).from).toEqual(watermark);
  });

  it("goes back no further than the bound after a long pause, and names what it left out", () => {
    const marks = {
      coverageFrom: at("2026-10-01T00:00:00Z"),
      uncoveredFrom: null,
      watermark: at("2026-10-10T00:00:00Z"),
    };
    const window = passWindow(marks, now, week);
    expect(window.from).toEqual(at("2026-11-13T12:00:00Z"));
    expect(window.coverageFrom).toEqual(at("2026-11-13T12:00:00Z"));
    expect(window.uncoveredFrom).toEqual(at("2026-10-10T00:00:00Z"));
    // A shop's first pass (installed long before the reconciliation existed) was never away: bounded, nothing named.
    expect(passWindow({ ...marks, watermark: null }, now, week)).toEqual({
      from: at("2026-11-13T12:00:00Z"),
      coverageFrom: at("2026-11-13T12:00:00Z"),
      uncoveredFrom: null,
    });
  });

  it("asks Shopify with quoted instants, and never counts before the coverage start", () => {
    expect(updatedSinceQuery(at("2026-11-20T11:00:00Z"))).toBe('updated_at:>="2026-11-20T11:00:00.000Z"');
    expect(createdBetweenQuery(at("2026-11-19T12:00:00Z"), now)).toBe(
      'created_at:>="2026-11-19T12:00:00.000Z" created_at:<"2026-11-20T12:00:00.000Z"',
    );
    expect(windowStart("day", now, at("2026-11-01T00:00:00Z"))).toEqual(at("2026-11-19T12:00:00Z"));
    expect(windowStart("week", now, at("2026-11-18T00:00:00Z"))).toEqual(at("2026-11-18T00:00:00Z"));
  });
});

describe("what a pass does with an order Shopify lists", () => {
  const order = (over: Partial<ShopifyOrderState> = {}): ShopifyOrderState => ({
    orderId: "1001",
    gid: "gid://shopify/Order/1001",
    name: "#1001",
    createdAt: at("2026-11-20T10:00:00Z"),
    updatedAt: at("2026-11-20T10:00:00Z"),
    cancelledAt: null,
    displayFinancialStatus: "PENDING",
    displayFulfillmentStatus: "UNFULFILLED",
    tags: [],
    ...over,
  });
  const coverage = at("2026-11-20T00:00:00Z");

  it("reads a node, and refuses one it cannot key", () => {
    expect(
      readOrderState({
        id: "gid://shopify/Order/1001",
        name: "#1001",
        updatedAt: "2026-11-20T10:00:00Z",
        tags: ["a", 1],
      }),
    ).toMatchObject({
      orderId: "1001",
      updatedAt: at("2026-11-20T10:00:00Z"),
      createdAt: null,
      tags: ["a"],
    });
    expect(readOrderState({ name: "#1" })).toBeNull();
    expect(readOrderState(null)).toBeNull();
  });

  it("takes in an order it never received when placed since the coverage start, else leaves it", () => {
    expect(actionFor(order(), undefined, coverage)).toBe("take");
    expect(actionFor(order({ createdAt: at("2026-11-19T23:59:59Z") }), undefined, coverage)).toBe("before_coverage");
  });

  it("applies a cancellation the link does not have, whatever the link's state", () => {
    const cancelled = order({ cancelledAt: at("2026-11-20T11:00:00Z"), updatedAt: at("2026-11-20T11:00:00Z") });
    for (const state of ["received", "held", "created", "damaged", "skipped"]) {
      expect(actionFor(cancelled, { state, payloadAt: at("2026-11-20T10:00:00Z"), cancelledAt: null }, coverage)).toBe(
        "cancel",
      );
    }
    expect(
      actionFor(cancelled, { state: "cancelled", payloadAt: null, cancelledAt: at("2026-11-20T11:00:00Z") }, coverage),
    ).toBe("none");
  });

  it("applies an edit only when Shopify's order is newer and the link still takes updates", () => {
    const newer = order({ updatedAt: at("2026-11-20T11:00:00Z") });
    expect(
      actionFor(newer, { state: "held", payloadAt: at("2026-11-20T10:00:00Z"), cancelledAt: null }, coverage),
    ).toBe("update");
    expect(actionFor(newer, { state: "held", payloadAt: null, cancelledAt: null }, coverage)).toBe("update");
    // Same instant, another spelling (the webhook's +01:00 and GraphQL's Z): nothing new.
    expect(
      actionFor(newer, { state: "held", payloadAt: at("2026-11-20T12:00:00+01:00"), cancelledAt: null }, coverage),
    ).toBe("none");
    // A posted lead keeps its lead: the write-back's own edits of the order are not news.
    expect(
      actionFor(newer, { state: "created", payloadAt: at("2026-11-20T10:00:00Z"), cancelledAt: null }, coverage),
    ).toBe("none");
    expect(
      actionFor(newer, { state: "posting", payloadAt: at("2026-11-20T10:00:00Z"), cancelledAt: null }, coverage),
    ).toBe("none");
  });
});

describe("where Shopify disagrees with what the app wrote", () => {
  const link = (over: Partial<WrittenLink> = {}): WrittenLink => ({
    leadRef: "ATB-1",
    confirmationStatus: "confirmed",
    shippingStatus: "delivered",
    hasAnomalies: false,
    done: { tags: ["cod:lead:ATB-1", "cod:confirmed", "cod:delivered"], fulfilled: true, paid: true, cancelled: false },
    ...over,
  });
  const shown = (over: Partial<ShopifyOrderState> = {}): ShopifyOrderState => ({
    orderId: "1",
    gid: "gid://shopify/Order/1",
    name: "#1",
    createdAt: null,
    updatedAt: null,
    cancelledAt: null,
    displayFinancialStatus: "PAID",
    displayFulfillmentStatus: "FULFILLED",
    tags: ["vip", "cod:lead:ATB-1", "cod:confirmed", "cod:delivered"],
    ...over,
  });

  it("finds nothing when Shopify shows what was written", () => {
    expect(writeBackDrift(link(), DEFAULT_WRITE_BACK_SETTINGS, shown())).toBeNull();
  });

  it("writes a lost fulfilment and payment again, clearing only their done flags", () => {
    const drift = writeBackDrift(
      link(),
      DEFAULT_WRITE_BACK_SETTINGS,
      shown({ displayFulfillmentStatus: "UNFULFILLED", displayFinancialStatus: "PENDING" }),
    );
    expect(drift).toEqual({ kinds: ["fulfillment", "paid"], done: { ...link().done, fulfilled: false, paid: false } });
  });

  it("respects what someone decided: on hold, refunded, cancelled, or a toggle off", () => {
    expect(
      writeBackDrift(
        link(),
        DEFAULT_WRITE_BACK_SETTINGS,
        shown({ displayFulfillmentStatus: "ON_HOLD", displayFinancialStatus: "REFUNDED" }),
      ),
    ).toBeNull();
    expect(
      writeBackDrift(
        link(),
        DEFAULT_WRITE_BACK_SETTINGS,
        shown({ displayFulfillmentStatus: "UNFULFILLED", cancelledAt: at("2026-11-20T10:00:00Z") }),
      ),
    ).toBeNull();
    expect(
      writeBackDrift(
        link(),
        { ...DEFAULT_WRITE_BACK_SETTINGS, fulfillment: false, markPaid: false },
        shown({ displayFulfillmentStatus: "UNFULFILLED", displayFinancialStatus: "PENDING" }),
      ),
    ).toBeNull();
  });

  it("writes a status tag the app never managed to write, and not one the merchant removed", () => {
    const never = link({ done: { ...NOTHING_WRITTEN_BACK, tags: ["cod:lead:ATB-1"], fulfilled: true, paid: true } });
    expect(writeBackDrift(never, DEFAULT_WRITE_BACK_SETTINGS, shown({ tags: ["cod:lead:ATB-1"] }))?.kinds).toEqual([
      "tags",
    ]);
    // Written, then gone: the merchant's choice stands.
    expect(writeBackDrift(link(), DEFAULT_WRITE_BACK_SETTINGS, shown({ tags: ["cod:lead:ATB-1"] }))).toBeNull();
    // An outdated status tag still on the order: its removal was lost.
    expect(
      writeBackDrift(link(), DEFAULT_WRITE_BACK_SETTINGS, shown({ tags: [...shown().tags, "cod:shipped"] }))?.kinds,
    ).toEqual(["tags"]);
  });

  it("shipped but not delivered: only the fulfilment is expected", () => {
    const shipped = link({
      shippingStatus: "shipped",
      done: {
        tags: ["cod:lead:ATB-1", "cod:confirmed", "cod:shipped"],
        fulfilled: true,
        paid: false,
        cancelled: false,
      },
    });
    const order = shown({
      displayFulfillmentStatus: "UNFULFILLED",
      displayFinancialStatus: "PENDING",
      tags: ["cod:lead:ATB-1", "cod:confirmed", "cod:shipped"],
    });
    expect(writeBackDrift(shipped, DEFAULT_WRITE_BACK_SETTINGS, order)?.kinds).toEqual(["fulfillment"]);
  });
});

describe("latency histograms and the promise", () => {
  const histogram = (latencies: number[]) => {
    const h = new Map<number, number>();
    for (const s of latencies) h.set(bucketOf(s), (h.get(bucketOf(s)) ?? 0) + 1);
    return h;
  };

  it("puts a latency in the first bucket at or above it, beyond a day in OVER", () => {
    expect(bucketOf(0)).toBe(5);
    expect(bucketOf(60)).toBe(60);
    expect(bucketOf(60.5)).toBe(90);
    expect(bucketOf(100_000)).toBe(OVER);
    expect(boundAtLeast(360)).toBe(360);
    expect(boundAtLeast(361)).toBe(420);
  });

  it("reads percentiles and shares from the buckets", () => {
    const h = histogram([1, 2, 3, 4, 8, 12, 25, 50, 70, 200]);
    expect(percentile(h, 0.5)).toBe(10);
    expect(percentile(h, 0.95)).toBe(240);
    expect(shareWithin(h, 60)).toBe(0.8);
    expect(percentile(new Map(), 0.5)).toBeNull();
    expect(percentile(histogram([90_000]), 0.5)).toBe(OVER);
  });

  it("keeps the promise at exactly its shares, falls short below, and says nothing unmeasured", () => {
    const fast = Array.from({ length: 19 }, () => 3);
    const kept = checkPromise({
      orderToLead: histogram([...fast, 300]),
      statusToShopify: histogram([30, 45]),
      intervalSeconds: 300,
    });
    expect(kept.leads).toMatchObject({ share: 0.95, target: SYNC_PROMISE.leadShare, met: true, sample: 20 });
    expect(kept.allLeads).toMatchObject({ seconds: 360, share: 1, met: true });
    expect(kept.met).toBe(true);
    const short = checkPromise({
      orderToLead: histogram([...fast.slice(1), 300, 800]),
      statusToShopify: new Map(),
      intervalSeconds: 300,
    });
    expect(short.leads.met).toBe(false);
    expect(short.allLeads.met).toBe(false);
    expect(short.statuses).toMatchObject({ share: null, met: null });
    expect(short.met).toBe(false);
  });
});

describe("the Order stuck trigger", () => {
  it("fires once per order and episode with the fields its extension declares", () => {
    const since = at("2026-11-20T10:00:00Z");
    const firing = stuckFiring(
      { orderId: "5550001", state: "retrying", reason: null, since },
      at("2026-11-20T10:47:30Z"),
    );
    expect(firing).toEqual({
      handle: FLOW_TRIGGER.orderStuck,
      eventKey: `stuck:${since.getTime()}`,
      payload: {
        order_id: 5550001,
        "Lead state": "retrying",
        "Minutes stuck": 47,
        Reason: "The platform could not take the order yet: it is tried again",
      },
    });
    const keys = FLOW_TRIGGER_FIELDS[FLOW_TRIGGER.orderStuck].map((f) => f.key ?? "order_id");
    expect(Object.keys(firing.payload).sort()).toEqual(keys.sort());
  });
});
