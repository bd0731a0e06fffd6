import { type LeadEvent } from "../models/lead-events";
/**
 * The app's Shopify Flow triggers: their handles (the extensions in extensions/flow-*),
 * the fields each declares, and the payload each lead event produces. Pure: the
 * extension TOML files are checked against FLOW_TRIGGER_FIELDS by a test, and the
 * worker sends exactly what triggerFiringsFor returns.
 *
 * Flow joins Shopify data through the order reference (`order_id`, the numeric order
 * id); the customer is reached from the order in Flow (order.customer), so the app does
 * not need the read_customers scope a customer reference would require.
 */

export const FLOW_TRIGGER = {
  leadCreated: "lead-created",
  leadStatusChanged: "lead-status-changed",
  orderNeedsAttention: "order-needs-attention",
  paymentOverdue: "payment-overdue",
  orderStuck: "order-stuck",
  deliveryOdds: "delivery-odds-scored",
} as const;
export type FlowTriggerHandle = (typeof FLOW_TRIGGER)[keyof typeof FLOW_TRIGGER];
export type FlowTriggerSwitch = keyof typeof FLOW_TRIGGER;

/** Flow field types the triggers use (the CLI's names). */
export type FlowFieldType =
  "order_reference" | "single_line_text_field" | "multi_line_text_field" | "number_decimal" | "number_integer";

export interface FlowFieldDefinition {
  type: FlowFieldType;
  /** Absent for reference fields: their key is fixed by Flow (`order_id`). */
  key?: string;
}

const ORDER: FlowFieldDefinition = { type: "order_reference" };
const text = (key: string): FlowFieldDefinition => ({ type: "single_line_text_field", key });

export const FLOW_TRIGGER_FIELDS: Record<FlowTriggerHandle, readonly FlowFieldDefinition[]> = {
  [FLOW_TRIGGER.leadCreated]: [
    ORDER,
    text("Lead reference"),
    text("City"),
    { type: "number_decimal", key: "Amount to collect" },
    text("Lead state"),
  ],
  [FLOW_TRIGGER.leadStatusChanged]: [
    ORDER,
    text("Lead reference"),
    text("Previous confirmation status"),
    text("Confirmation status"),
    text("Previous shipping status"),
    text("Shipping status"),
    text("Tracking number"),
    { type: "number_decimal", key: "Seller profit" },
  ],
  [FLOW_TRIGGER.orderNeedsAttention]: [
    ORDER,
    text("Lead state"),
    { type: "multi_line_text_field", key: "Reason" },
    { type: "multi_line_text_field", key: "Findings" },
  ],
  [FLOW_TRIGGER.paymentOverdue]: [
    ORDER,
    text("Lead reference"),
    { type: "number_decimal", key: "Amount collected" },
    { type: "number_decimal", key: "Seller profit" },
    text("Delivered on"),
    { type: "number_integer", key: "Days unpaid" },
  ],
  [FLOW_TRIGGER.orderStuck]: [
    ORDER,
    text("Lead state"),
    { type: "number_integer", key: "Minutes stuck" },
    { type: "multi_line_text_field", key: "Reason" },
  ],
  [FLOW_TRIGGER.deliveryOdds]: [
    ORDER,
    { type: "number_decimal", key: "Delivery probability" },
    { type: "number_decimal", key: "Expected value" },
    text("Risk level"),
    text("Decision"),
    { type: "multi_line_text_field", key: "Reasons" },
  ],
};

/** Which switch (Settings) governs each trigger. */
export const SWITCH_OF: Record<FlowTriggerHandle, FlowTriggerSwitch> = {
  [FLOW_TRIGGER.leadCreated]: "leadCreated",
  [FLOW_TRIGGER.leadStatusChanged]: "leadStatusChanged",
  [FLOW_TRIGGER.orderNeedsAttention]: "orderNeedsAttention",
  [FLOW_TRIGGER.paymentOverdue]: "paymentOverdue",
  [FLOW_TRIGGER.orderStuck]: "orderStuck",
  [FLOW_TRIGGER.deliveryOdds]: "deliveryOdds",
};

/** What a trigger payload is built from: the order link as stored after the change. */
export interface FlowLinkFacts {
  id: string;
  orderId: string;
  orderName: string;
  leadRef: string | null;
  /** The platform's name of the lead's city ("" when unknown), resolved by the caller. */
  cityName: string;
  /** The amount to collect as sent (decimal MAD). */
  totalClient: string | null;
  reason: string | null;
  /** JSON list of findings ({ message, severity }). */
  findings: string;
  /** JSON list of the platform's anomalies. */
  anomalies: string;
  trackingNumber: string | null;
  sellerProfit: string | null;
}

export type FlowPayloadValue = string | number;
export interface FlowTriggerFiring {
  handle: FlowTriggerHandle;
  /** Stable per (order, event): the job key, so a firing is queued once. */
  eventKey: string;
  payload: Record<string, FlowPayloadValue>;
}

/** States that need the merchant: kept back by the rules, refused by the platform, or failed. */
const ATTENTION_STATES = new Set(["held", "invalid", "failed", "damaged"]);

function parseJson(value: string | null): unknown {
  if (!value) return null;
  try {
    return JSON.parse(value);
  } catch {
    return null;
  }
}

/** "123.40" / 123.4 / null -> a number Flow accepts as number_decimal (0 when unknown). */
function decimal(value: unknown): number {
  const n = typeof value === "number" ? value : typeof value === "string" ? Number(value.replace(",", ".")) : NaN;
  return Number.isFinite(n) ? Math.round(n * 100) / 100 : 0;
}

/** Finding and anomaly messages, one per line, for a merchant's notification. */
export function findingLines(link: Pick<FlowLinkFacts, "findings" | "anomalies">): string {
  const lines: string[] = [];
  for (const source of [link.findings, link.anomalies]) {
    const list = parseJson(source);
    if (!Array.isArray(list)) continue;
    for (const item of list) {
      const message = (item as { message?: unknown } | null)?.message;
      if (typeof message === "string" && message.trim()) lines.push(message.trim());
    }
  }
  return [...new Set(lines)].join("\n");
}

/** A number as Flow's reference fields take it, or its digits where a number would be rounded (beyond 2^53). */
const orderIdOf = (link: FlowLinkFacts): number | string =>
  Number.isSafeInteger(Number(link.orderId)) ? Number(link.orderId) : link.orderId;

/**
 * Whether the platform's confirmation or shipping status moved. The profit
 * arriving alone (a cycle after "delivered") is a lead event for the analytics,
 * not a second "Lead status changed".
 */
const statusMoved = ({ before, after }: LeadEvent): boolean =>
  before?.confirmationStatus !== after.confirmationStatus || before?.shippingStatus !== after.shippingStatus;

/** Whether an event can fire any trigger, before reading the link (most intake events cannot). */
export function mayFire(event: LeadEvent): boolean {
  const state = event.after.state;
  if (event.kind === "status") return statusMoved(event);
  if (event.kind === "answered") return true;
  return event.kind === "stopped" && ATTENTION_STATES.has(state) && event.before?.state !== state;
}

/** The triggers one lead event fires, given the link as stored after it. Pure. */
export function triggerFiringsFor(event: LeadEvent, link: FlowLinkFacts): FlowTriggerFiring[] {
  const firings: FlowTriggerFiring[] = [];
  const at = event.at.getTime();
  const state = event.after.state;
  if (event.kind === "answered" && link.leadRef && (state === "created" || state === "damaged")) {
    firings.push({
      handle: FLOW_TRIGGER.leadCreated,
      eventKey: `created:${link.leadRef}`,
      payload: {
        order_id: orderIdOf(link),
        "Lead reference": link.leadRef,
        City: link.cityName,
        "Amount to collect": decimal(link.totalClient),
        "Lead state": state,
      },
    });
  }
  if (event.kind === "status" && link.leadRef && statusMoved(event)) {
    const before = event.before;
    const after = event.after;
    firings.push({
      handle: FLOW_TRIGGER.leadStatusChanged,
      eventKey: `status:${link.leadRef}:${after.confirmationStatus ?? "-"}:${after.shippingStatus ?? "-"}`,
      payload: {
        order_id: orderIdOf(link),
        "Lead reference": link.leadRef,
        "Previous confirmation status": before?.confirmationStatus ?? "",
        "Confirmation status": after.confirmationStatus ?? "",
        "Previous shipping status": before?.shippingStatus ?? "",
        "Shipping status": after.shippingStatus ?? "",
        "Tracking number": link.trackingNumber ?? "",
        "Seller profit": decimal(link.sellerProfit),
      },
    });
  }
  const enteredAttention = ATTENTION_STATES.has(state) && event.before?.state !== state;
  if ((event.kind === "stopped" || event.kind === "answered") && enteredAttention) {
    firings.push({
      handle: FLOW_TRIGGER.orderNeedsAttention,
      // A held order fixed, sent and held again is a new event: the time tells them apart.
      eventKey: `attention:${state}:${at}`,
      payload: {
        order_id: orderIdOf(link),
        "Lead state": state,
        Reason: event.reason ?? link.reason ?? "",
        Findings: findingLines(link),
      },
    });
  }
  return firings;
}

/** A delivered parcel the platform has not paid in time, as the daily check reads it (CashParcel). */
export interface OverdueParcel {
  orderId: string;
  leadRef: string | null;
  deliveredDay: string;
  totalCents: number;
  /** Null while the platform has not given it. */
  profitCents: number | null;
  /** Whole days since delivery, today. */
  daysUnpaid: number;
}

/** The "Payment overdue" firing of a parcel: once per order and delivery (the job key). Pure. */
export function paymentOverdueFiring(parcel: OverdueParcel): FlowTriggerFiring {
  return {
    handle: FLOW_TRIGGER.paymentOverdue,
    eventKey: `overdue:${parcel.leadRef ?? "-"}:${parcel.deliveredDay}`,
    payload: {
      order_id: Number(parcel.orderId),
      "Lead reference": parcel.leadRef ?? "",
      "Amount collected": parcel.totalCents / 100,
      "Seller profit": (parcel.profitCents ?? 0) / 100,
      "Delivered on": parcel.deliveredDay,
      "Days unpaid": parcel.daysUnpaid,
    },
  };
}

/** An order not accounted for (still to be sent, or its send's outcome unknown) since `since`. */
export interface StuckFacts {
  orderId: string;
  state: string;
  reason: string | null;
  since: Date;
}

/** What the merchant reads in Flow for each pending state, when the order carries no reason of its own. */
const STUCK_REASONS: Record<string, string> = {
  received: "The order is waiting to be checked and sent",
  posting: "The order was sent and the platform's answer is not known yet",
  retrying: "The platform could not take the order yet: it is tried again",
};

/** "Order stuck": once per order and episode (the time it started waiting). Pure. */
export function stuckFiring(order: StuckFacts, now: Date): FlowTriggerFiring {
  return {
    handle: FLOW_TRIGGER.orderStuck,
    eventKey: `stuck:${order.since.getTime()}`,
    payload: {
      order_id: Number(order.orderId),
      "Lead state": order.state,
      "Minutes stuck": Math.max(0, Math.floor((now.getTime() - order.since.getTime()) / 60_000)),
      Reason: order.reason ?? STUCK_REASONS[order.state] ?? "The order has not reached the COD platform",
    },
  };
}

/** An order's delivery odds as scored before sending (app/customers/delivery-odds.server.ts). */
export interface OddsFacts {
  orderId: string;
  /** 0 to 1. */
  probability: number;
  /** Expected value of sending, in cents; null when a price or the fee is unknown. */
  valueCents: number | null;
  /** Shopify's risk level the app wrote (HIGH, MEDIUM, LOW). */
  level: string;
  held: boolean;
  /** The reasons in English, one a line. */
  reasons: string[];
}

/**
 * "Delivery odds scored": once per order and distinct score (the job key), so a
 * re-check that changes nothing fires nothing. Pure.
 */
export function deliveryOddsFiring(odds: OddsFacts): FlowTriggerFiring {
  const percent = Math.round(odds.probability * 1000) / 10;
  return {
    handle: FLOW_TRIGGER.deliveryOdds,
    eventKey: `odds:${percent}:${odds.level}:${odds.held ? "hold" : "send"}`,
    payload: {
      order_id: Number.isSafeInteger(Number(odds.orderId)) ? Number(odds.orderId) : odds.orderId,
      "Delivery probability": percent,
      "Expected value": odds.valueCents === null ? 0 : Math.round(odds.valueCents) / 100,
      "Risk level": odds.level,
      Decision: odds.held ? "hold" : "send",
      Reasons: odds.reasons.join("\n"),
    },
  };
}
