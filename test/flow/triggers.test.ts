/** Which Flow triggers a lead event fires, with which payload and key (pure). */
import { describe, expect, it } from "vitest";
import { FLOW_TRIGGER, findingLines, mayFire, triggerFiringsFor, type FlowLinkFacts } from "../../app/flow/triggers";
import { messagesOf } from "../../app/i18n";
import { type LeadEvent, type LeadSnapshot } from "../../app/models/lead-events";

const link = (over: Partial<FlowLinkFacts> = {}): FlowLinkFacts => ({
  id: "l1",
  orderId: "5550001",
  orderName: "#1001",
  leadRef: "ATB-1",
  cityName: "Rabat",
  totalClient: "1249.50",
  reason: null,
  findings: "[]",
  anomalies: "[]",
  trackingNumber: null,
  sellerProfit: null,
  ...over,
});
const snap = (
  state: string,
  confirmationStatus: string | null = null,
  shippingStatus: string | null = null,
  sellerProfit: string | null = null,
): LeadSnapshot => ({
  state,
  confirmationStatus,
  shippingStatus,
  sellerProfit,
});
const event = (
  kind: LeadEvent["kind"],
  before: LeadSnapshot | null,
  after: LeadSnapshot,
  extra: Partial<LeadEvent> = {},
): LeadEvent => ({
  linkId: "l1",
  kind,
  before,
  after,
  at: new Date("2026-11-20T10:00:00Z"),
  ...extra,
});

describe("triggerFiringsFor", () => {
  it("a created lead: Lead created with reference, city and amount as a number", () => {
    const [firing, ...rest] = triggerFiringsFor(
      event("answered", snap("posting"), snap("created", "new", "pending")),
      link(),
    );
    expect(rest).toEqual([]);
    expect(firing).toEqual({
      handle: "lead-created",
      eventKey: "created:ATB-1",
      payload: {
        order_id: 5550001,
        "Lead reference": "ATB-1",
        City: "Rabat",
        "Amount to collect": 1249.5,
        "Lead state": "created",
      },
    });
  });

  it("a damaged lead: created, and needs attention with the platform's anomalies", () => {
    const firings = triggerFiringsFor(
      event("answered", snap("posting"), snap("damaged", "new", "pending")),
      link({ anomalies: JSON.stringify([{ code: "recent_duplicate", message: "Same phone 3 minutes ago" }]) }),
    );
    expect(firings.map((f) => f.handle)).toEqual(["lead-created", "order-needs-attention"]);
    expect(firings[1].payload).toMatchObject({ "Lead state": "damaged", Findings: "Same phone 3 minutes ago" });
  });

  it("a status change: old and new statuses, tracking number and seller profit", () => {
    const [firing] = triggerFiringsFor(
      event("status", snap("created", "confirmed", "shipped"), snap("created", "confirmed", "delivered")),
      link({ trackingNumber: "TRK-9", sellerProfit: "180.40" }),
    );
    expect(firing.handle).toBe("lead-status-changed");
    expect(firing.eventKey).toBe("status:ATB-1:confirmed:delivered");
    expect(firing.payload).toEqual({
      order_id: 5550001,
      "Lead reference": "ATB-1",
      "Previous confirmation status": "confirmed",
      "Confirmation status": "confirmed",
      "Previous shipping status": "shipped",
      "Shipping status": "delivered",
      "Tracking number": "TRK-9",
      "Seller profit": 180.4,
    });
  });

  it("unknown profit and tracking are sent as 0 and empty text (Flow needs every field)", () => {
    const [firing] = triggerFiringsFor(
      event("status", snap("created", "new", "pending"), snap("created", "confirmed", "pending")),
      link({ sellerProfit: "n/a" }),
    );
    expect(firing.payload).toMatchObject({
      "Tracking number": "",
      "Seller profit": 0,
      "Previous confirmation status": "new",
    });
  });

  it("a held order needs attention with its reason and findings; entering again is a new event", () => {
    const held = link({
      findings: JSON.stringify([
        { message: "No phone" },
        { message: "No phone" },
        { message: " Unknown city " },
        {},
        "x",
      ]),
    });
    const first = triggerFiringsFor(
      event("stopped", snap("received"), snap("held"), { reason: "Held: no phone" }),
      held,
    );
    expect(first).toHaveLength(1);
    expect(first[0].payload).toEqual({
      order_id: 5550001,
      "Lead state": "held",
      Reason: "Held: no phone",
      Findings: "No phone\nUnknown city",
    });
    const again = triggerFiringsFor(
      event("stopped", snap("received"), snap("held"), { at: new Date("2026-11-21T10:00:00Z") }),
      held,
    );
    expect(again[0].eventKey).not.toBe(first[0].eventKey);
    // Without the event's reason, the link's stored reason is used.
    expect(
      triggerFiringsFor(event("stopped", snap("received"), snap("failed")), link({ reason: "Sending failed" }))[0]
        .payload.Reason,
    ).toBe("Sending failed");
  });

  it("fires nothing for a skipped or cancelled order, a reopened one, or a state held before", () => {
    expect(triggerFiringsFor(event("stopped", snap("received"), snap("skipped")), link())).toEqual([]);
    expect(triggerFiringsFor(event("stopped", snap("created"), snap("cancelled")), link())).toEqual([]);
    expect(triggerFiringsFor(event("reopened", snap("held"), snap("received")), link())).toEqual([]);
    expect(triggerFiringsFor(event("stopped", snap("held"), snap("held")), link())).toEqual([]);
  });

  it("mayFire rules out, before any read, exactly the events that fire nothing", () => {
    const cases: LeadEvent[] = [
      event("stopped", snap("received"), snap("skipped")),
      event("stopped", snap("created"), snap("cancelled")),
      event("reopened", snap("held"), snap("received")),
      event("stopped", snap("held"), snap("held")),
      event("stopped", snap("received"), snap("held")),
      event("stopped", null, snap("invalid")),
      event("answered", snap("posting"), snap("created")),
      event("status", snap("created", "new"), snap("created", "confirmed")),
      // The seller profit given a cycle after "delivered": no status moved.
      event("status", snap("created", "confirmed", "delivered"), snap("created", "confirmed", "delivered", "180.40")),
    ];
    expect(cases.map(mayFire)).toEqual([false, false, false, false, true, true, true, true, false]);
    for (const c of cases.filter((e) => !mayFire(e))) expect(triggerFiringsFor(c, link())).toEqual([]);
  });

  it("no lead reference: no Lead created nor status trigger", () => {
    expect(triggerFiringsFor(event("answered", snap("posting"), snap("created")), link({ leadRef: null }))).toEqual([]);
    expect(
      triggerFiringsFor(event("status", snap("created", "new"), snap("created", "confirmed")), link({ leadRef: null })),
    ).toEqual([]);
  });
});

describe("findingLines", () => {
  it("reads findings then anomalies, once each, ignoring unreadable JSON", () => {
    expect(findingLines({ findings: "not json", anomalies: JSON.stringify([{ message: "a" }]) })).toBe("a");
    expect(findingLines({ findings: JSON.stringify({ message: "not a list" }), anomalies: "[]" })).toBe("");
  });
});

describe("the triggers' names on an order's timeline", () => {
  it("GIVEN every Flow trigger WHEN the timeline says it was sent THEN it names it in English and French, never by its handle", () => {
    for (const locale of ["en", "fr"] as const) {
      const messages = messagesOf(locale) as Record<string, string>;
      const unnamed = Object.values(FLOW_TRIGGER).filter((handle) => !messages[`timeline.flowTrigger.${handle}`]);
      expect(unnamed, locale).toEqual([]);
    }
  });
});
