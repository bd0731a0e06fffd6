/**
 * Which lead statuses still move, and what a status change means for the
 * merchant. Pure.
 */
export const FINAL_CONFIRMATION = new Set(["canceled", "wrong", "fake", "duplicate"]);
export const FINAL_SHIPPING = new Set(["paid", "returned", "canceled"]);

export interface LeadStatus {
  confirmationStatus: string | null;
  shippingStatus: string | null;
  trackingNumber: string | null;
  sellerProfit: string | null;
}

/** A lead stops being tracked once neither status can change any more. */
export function isFinalStatus(status: Pick<LeadStatus, "confirmationStatus" | "shippingStatus">): boolean {
  if (status.shippingStatus && FINAL_SHIPPING.has(status.shippingStatus)) return true;
  // A refused lead never gets a parcel: its shipping status stays pending.
  return (
    Boolean(status.confirmationStatus && FINAL_CONFIRMATION.has(status.confirmationStatus)) &&
    (!status.shippingStatus || status.shippingStatus === "pending")
  );
}

const SHIPPED_OR_LATER = new Set(["picked_up", "shipped", "delivered", "paid", "returned"]);
const DELIVERED = new Set(["delivered", "paid"]);

/** The list row lacks these: a detail GET is worth its call only when they are due and missing. */
export function needsDetail(status: LeadStatus): boolean {
  const shipping = status.shippingStatus ?? "";
  if (SHIPPED_OR_LATER.has(shipping) && !status.trackingNumber) return true;
  if (DELIVERED.has(shipping) && !status.sellerProfit) return true;
  return false;
}

export function statusChanged(before: LeadStatus, after: Partial<LeadStatus>): boolean {
  return (Object.keys(after) as (keyof LeadStatus)[]).some((k) => after[k] !== undefined && after[k] !== before[k]);
}
