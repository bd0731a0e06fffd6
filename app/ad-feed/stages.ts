/**
 * Which outcomes a lead has reached, read from the platform's two statuses as
 * the rest of the app reads them (app/models/order-stage.ts): confirmed on the
 * call, shipped once a parcel exists, delivered (or paid), refused on the call
 * (the customer cancelled), returned (refused at the door or not collected: the
 * platform has one status for both). A lead that jumps a step (the sync saw
 * only its latest status) has reached the steps before. Pure.
 */
import type { LeadSnapshot } from "../models/lead-events";
import type { FeedStage } from "../ad-platforms/conversion";

const SENT = new Set(["created", "damaged"]);
const PARCEL = new Set(["shipped", "delivered", "paid", "returned"]);
const DELIVERED = new Set(["delivered", "paid"]);

export function reachedStages(snapshot: LeadSnapshot | null): Set<FeedStage> {
  const reached = new Set<FeedStage>();
  if (!snapshot || !SENT.has(snapshot.state)) return reached;
  const shipping = snapshot.shippingStatus ?? "pending";
  const call = snapshot.confirmationStatus ?? "new";
  const parcel = PARCEL.has(shipping);
  if (call === "confirmed" || parcel || shipping === "picked_up") reached.add("confirmed");
  if (parcel) reached.add("shipped");
  if (DELIVERED.has(shipping)) reached.add("delivered");
  if (shipping === "returned") reached.add("returned");
  if (call === "canceled" && !parcel) reached.add("refused");
  return reached;
}

/** The stages among `wanted` that the change reached (reached after, not before). */
export function newlyReached(
  before: LeadSnapshot | null,
  after: LeadSnapshot,
  wanted: ReadonlySet<FeedStage>,
): FeedStage[] {
  const was = reachedStages(before);
  return [...reachedStages(after)].filter((stage) => wanted.has(stage) && !was.has(stage));
}
