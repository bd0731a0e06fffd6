/**
 * Where an order stands, in one word a COD merchant reads at a glance: the
 * link's state and the lead's confirmation and shipping statuses folded into one
 * stage, and the steps received → sent → confirmed → shipped → delivered with
 * where the order stopped. Derived from the status groups (the one reading of
 * where an order stands), so a stage and the Analytics figures never disagree.
 * Pure: the Orders list, the order page and the order-page extensions all read it.
 */
import { bucketOf, statusGroupOf, type SentBucket, type UnsentGroup } from "../vocabulary/status-groups";
import type { Tone } from "../vocabulary/platform-status";

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
export type StageTone = Tone;

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

const STAGE_OF_GROUP: Record<UnsentGroup | SentBucket, Stage> = {
  held: "held",
  invalid: "refused",
  failed: "failed",
  skipped: "skipped",
  cancelled: "cancelled",
  awaiting: "sent",
  unreachable: "sent",
  call_cancelled: "cancelled",
  rejected: "cancelled",
  preparing: "confirmed",
  parcel_cancelled: "cancelled",
  in_transit: "shipped",
  delivered: "delivered",
  returned: "returned",
};

/** The stage: the order's status group in the merchant's words. */
export function stageOf(input: StageInput): Stage {
  const group = statusGroupOf(input);
  const bucket = group && bucketOf(group);
  if (bucket) return STAGE_OF_GROUP[bucket];
  // Cancelled in Shopify before it was sent (after, the lead lives on until the platform cancels it).
  if (input.cancelled) return "cancelled";
  return group ? STAGE_OF_GROUP[group as UnsentGroup] : "received";
}

/** What Shopify did to an order whose lead goes on: the platform's stage would read as "all good". */
export type ShopifyStop = "cancelled" | "refunded";

/** Stages of a lead still on its way: a word that promises the parcel ships. */
const MOVING: readonly Stage[] = ["sent", "confirmed", "shipped"];

/**
 * What the order's status badge leads with: cancelled or refunded in Shopify while its lead
 * goes on, that (the stage then is the platform's, shown beside it); otherwise null, and the
 * stage says it all. The Orders list and the order page both read it.
 */
export function shopifyStopOf(input: StageInput & { refunded?: boolean }): ShopifyStop | null {
  if (!MOVING.includes(stageOf(input))) return null;
  if (input.cancelled) return "cancelled";
  return input.refunded ? "refunded" : null;
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
      const group = statusGroupOf(input);
      const bucket = group && bucketOf(group);
      if (bucket === "parcel_cancelled") return { reached: 2, stopped: "parcel_cancelled" };
      if (bucket) return { reached: 1, stopped: "cancelled_on_call" };
      return { reached: 0, stopped: "cancelled_in_shopify" };
    }
  }
}
