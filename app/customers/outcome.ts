/**
 * A lead's outcome for its customer's delivery record, read through the
 * status groups (app/vocabulary/status-groups.ts) so the app has one
 * reading of the platform's statuses. The record is finer in one place only:
 * the "rejected" group holds a wrong number (the customer is not at fault in
 * the same way) apart from a fake or duplicate order. Pure.
 */
import { bucketOf, statusGroupOf, type StatusFields } from "../vocabulary/status-groups";
import { callOf } from "../vocabulary/platform-status";

export const DELIVERY_OUTCOMES = [
  "delivered",
  "returned",
  "refused",
  "cancelled",
  "wrong_number",
  "in_progress",
] as const;
export type DeliveryOutcome = (typeof DELIVERY_OUTCOMES)[number];

/** Outcomes that count as a failed delivery for the hold rule. */
export const FAILED_OUTCOMES: readonly DeliveryOutcome[] = ["refused", "returned", "cancelled", "wrong_number"];

/** The outcome of a link; null when the platform never took the lead (held, skipped...) or it is still being sent. */
export function deliveryOutcomeOf(link: StatusFields): DeliveryOutcome | null {
  const group = statusGroupOf(link);
  const bucket = group ? bucketOf(group) : null;
  switch (bucket) {
    case null:
      return null;
    case "delivered":
      return "delivered";
    case "returned":
      return "returned";
    case "call_cancelled":
      return "refused";
    case "rejected":
      return callOf(link.confirmationStatus) === "wrong_number" ? "wrong_number" : "cancelled";
    case "parcel_cancelled":
      return "cancelled";
    default:
      // awaiting, unreachable, preparing, in_transit: the lead still moves.
      return "in_progress";
  }
}
