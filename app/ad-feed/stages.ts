/**
 * Which outcomes a lead has reached, read from its status group (the one reading
 * of where an order stands, app/vocabulary/status-groups.ts) as Analytics counts
 * them: confirmed on the call, shipped once a parcel exists, delivered (or paid),
 * refused on the call (the customer cancelled), returned (refused at the door or
 * not collected: the platform has one status for both). A lead that jumps a step
 * (the sync saw only its latest status) has reached the steps before. Pure.
 */
import type { LeadSnapshot } from "../models/lead-events";
import type { FeedStage } from "../ad-platforms/conversion";
import { bucketOf, isConfirmed, isDelivered, isReturned, isShipped, statusGroupOf } from "../vocabulary/status-groups";

export function reachedStages(snapshot: LeadSnapshot | null): Set<FeedStage> {
  const reached = new Set<FeedStage>();
  const group = snapshot && statusGroupOf(snapshot);
  if (!group || bucketOf(group) === null) return reached;
  if (isConfirmed(group)) reached.add("confirmed");
  if (isShipped(group)) reached.add("shipped");
  if (isDelivered(group)) reached.add("delivered");
  if (isReturned(group)) reached.add("returned");
  if (bucketOf(group) === "call_cancelled") reached.add("refused");
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
