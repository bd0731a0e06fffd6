/**
 * Where an order stands, in one word a COD merchant reads at a glance: the
 * link's state and the lead's confirmation and shipping statuses folded into one
 * stage, and the steps received → sent → confirmed → shipped → delivered with
 * where the order stopped. Pure: the Orders list, the order page and the
 * order-page extensions all read it.
 */
import { isLinkState, type LinkState } from "./order-link-state";

export const STAGES = [
  "received",
  "held",
  "refused",
  "failed",
  "skipped",
  "sent",
  "confirmed",
  "shipped",
  "delivered",
  "returned",
  "cancelled",
] as const;
export type Stage = (typeof STAGES)[number];

/** The happy path, in order; the stepper shows how far an order went. */
export const STEPS = ["received", "sent", "confirmed", "shipped", "delivered"] as const;
export type Step = (typeof STEPS)[number];

/** How a stage reads: problems only in the critical tone, information neutral. */
export type StageTone = "neutral" | "attention" | "critical" | "info" | "success" | "warning";

export const STAGE_TONES: Record<Stage, StageTone> = {
  received: "neutral",
  held: "attention",
  refused: "critical",
  failed: "critical",
  skipped: "neutral",
  sent: "info",
  confirmed: "info",
  shipped: "info",
  delivered: "success",
  returned: "warning",
  cancelled: "neutral",
};

export interface StageInput {
  state: string;
  confirmationStatus: string | null;
  shippingStatus: string | null;
  /** Set when Shopify cancelled the order. */
  cancelled: boolean;
}

const CALL_CANCELLED = new Set(["canceled", "wrong", "fake", "duplicate"]);

const isSent = (state: LinkState) => state === "created" || state === "damaged";

/**
 * The stage. A parcel that exists decides, otherwise the call does (the
 * contract: read confirmation before confirmation, shipping after it).
 */
export function stageOf(input: StageInput): Stage {
  const state: LinkState = isLinkState(input.state) ? input.state : "received";
  if (state === "cancelled") return "cancelled";
  if (!isSent(state)) {
    if (input.cancelled) return "cancelled";
    if (state === "held") return "held";
    if (state === "invalid") return "refused";
    if (state === "failed") return "failed";
    if (state === "skipped") return "skipped";
    return "received";
  }
  const shipping = input.shippingStatus ?? "pending";
  if (shipping === "delivered" || shipping === "paid") return "delivered";
  if (shipping === "returned") return "returned";
  if (shipping === "shipped") return "shipped";
  if (shipping === "canceled") return "cancelled";
  const call = input.confirmationStatus ?? "new";
  if (call === "confirmed") return "confirmed";
  if (CALL_CANCELLED.has(call)) return "cancelled";
  // Cancelled in Shopify after sending: the lead lives on until the platform cancels it.
  return "sent";
}

/** Why an order left the happy path, when it did. */
export type StopReason =
  | "held"
  | "refused"
  | "failed"
  | "skipped"
  | "cancelled_in_shopify"
  | "cancelled_on_call"
  | "parcel_cancelled"
  | "returned";

export interface StepperView {
  /** The last step reached (index in STEPS). */
  reached: number;
  /** Set when the order stopped after `reached` and will not go on by itself. */
  stopped: StopReason | null;
}

export function stepperOf(input: StageInput): StepperView {
  const stage = stageOf(input);
  const state = isLinkState(input.state) ? input.state : "received";
  switch (stage) {
    case "received":
      return { reached: 0, stopped: null };
    case "held":
    case "refused":
    case "failed":
    case "skipped":
      return { reached: 0, stopped: stage };
    case "sent":
      return { reached: 1, stopped: null };
    case "confirmed":
      return { reached: 2, stopped: null };
    case "shipped":
      return { reached: 3, stopped: null };
    case "delivered":
      return { reached: 4, stopped: null };
    case "returned":
      return { reached: 3, stopped: "returned" };
    case "cancelled": {
      if (!isSent(state)) return { reached: 0, stopped: "cancelled_in_shopify" };
      if (input.shippingStatus === "canceled") return { reached: 2, stopped: "parcel_cancelled" };
      return {
        reached: 1,
        stopped: CALL_CANCELLED.has(input.confirmationStatus ?? "") ? "cancelled_on_call" : "cancelled_in_shopify",
      };
    }
  }
}
