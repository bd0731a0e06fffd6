/**
 * Lead lifecycle (pure). The contract lists the values but not the transitions;
 * these are the sandbox's rules, documented in openapi.yaml and README.md.
 */
export const CONFIRMATION_STATUSES = [
  "new",
  "callback",
  "no_answer_1",
  "no_answer_2",
  "no_answer_3",
  "confirmed",
  "canceled",
  "wrong",
  "fake",
  "duplicate",
] as const;
export type ConfirmationStatus = (typeof CONFIRMATION_STATUSES)[number];

export const SHIPPING_STATUSES = [
  "pending",
  "picked_up",
  "shipped",
  "delivered",
  "returned",
  "canceled",
  "paid",
] as const;
export type ShippingStatus = (typeof SHIPPING_STATUSES)[number];

// Call-centre outcomes reachable from any open (not yet final) call state.
const CALL_OUTCOMES: ConfirmationStatus[] = ["callback", "confirmed", "canceled", "wrong", "fake", "duplicate"];

export const CONFIRMATION_TRANSITIONS: Record<ConfirmationStatus, readonly ConfirmationStatus[]> = {
  new: ["no_answer_1", ...CALL_OUTCOMES],
  callback: ["no_answer_1", ...CALL_OUTCOMES], // callback -> callback: another call-back is scheduled
  no_answer_1: ["no_answer_2", ...CALL_OUTCOMES],
  no_answer_2: ["no_answer_3", ...CALL_OUTCOMES],
  no_answer_3: CALL_OUTCOMES,
  confirmed: ["canceled"], // the customer cancels before pickup; checked against shipping below
  canceled: [],
  wrong: [],
  fake: [],
  duplicate: [],
};

export const SHIPPING_TRANSITIONS: Record<ShippingStatus, readonly ShippingStatus[]> = {
  pending: ["picked_up"],
  picked_up: ["shipped", "canceled"],
  shipped: ["delivered", "returned"],
  delivered: ["paid"],
  returned: [],
  canceled: [],
  paid: [],
};

export interface LeadStatus {
  confirmation_status: ConfirmationStatus;
  shipping_status: ShippingStatus;
}

export const isConfirmationStatus = (v: unknown): v is ConfirmationStatus =>
  (CONFIRMATION_STATUSES as readonly unknown[]).includes(v);
export const isShippingStatus = (v: unknown): v is ShippingStatus =>
  (SHIPPING_STATUSES as readonly unknown[]).includes(v);

/** Why a confirmation change is illegal, or null when it is legal. */
export function confirmationRefusal(state: LeadStatus, to: ConfirmationStatus): string | null {
  if (!CONFIRMATION_TRANSITIONS[state.confirmation_status].includes(to)) {
    return `confirmation_status cannot go from ${state.confirmation_status} to ${to}.`;
  }
  if (state.confirmation_status === "confirmed" && state.shipping_status !== "pending") {
    return "a confirmed lead whose parcel left cannot be canceled by the call centre.";
  }
  return null;
}

/** Why a shipping change is illegal, or null when it is legal. */
export function shippingRefusal(state: LeadStatus, to: ShippingStatus): string | null {
  // Contract rule 1: a lead that is not confirmed has no parcel.
  if (state.confirmation_status !== "confirmed")
    return "a lead that is not confirmed has no parcel: shipping_status stays pending.";
  if (!SHIPPING_TRANSITIONS[state.shipping_status].includes(to)) {
    return `shipping_status cannot go from ${state.shipping_status} to ${to}.`;
  }
  return null;
}

/** Shipping states in which the parcel exists and carries a tracking number. */
export const hasParcel = (s: ShippingStatus) => s !== "pending";
/** Shipping states after delivery, where the seller's profit is known. */
export const isDelivered = (s: ShippingStatus) => s === "delivered" || s === "paid";
