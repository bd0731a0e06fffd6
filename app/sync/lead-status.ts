/**
 * Which lead statuses still move, and what a status change means for the
 * merchant, read from what each status means (app/vocabulary/platform-status.ts). Pure.
 */
import { parcelCollected, parcelHandedOver } from "../vocabulary/platform-status";

export { isFinalStatus } from "../vocabulary/platform-status";

export interface LeadStatus {
  confirmationStatus: string | null;
  shippingStatus: string | null;
  trackingNumber: string | null;
  sellerProfit: string | null;
}

/** The list row lacks these: a detail GET is worth its call only when they are due and missing. */
export function needsDetail(status: LeadStatus): boolean {
  if (parcelHandedOver(status.shippingStatus) && !status.trackingNumber) return true;
  if (parcelCollected(status.shippingStatus) && !status.sellerProfit) return true;
  return false;
}

export function statusChanged(before: LeadStatus, after: Partial<LeadStatus>): boolean {
  return (Object.keys(after) as (keyof LeadStatus)[]).some((k) => after[k] !== undefined && after[k] !== before[k]);
}
