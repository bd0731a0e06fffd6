/**
 * The platform's two status fields, each status once, with what it means: the
 * only list of them in the app. `confirmation_status` is the call to the
 * customer, `shipping_status` the parcel (the Seller Order API contract, "States
 * and transitions"). Every reading of a status (the status groups, the order's
 * stage, the next action, finality, write-back, tags, badges, filters) asks
 * this table what the status means, never its name; so a new platform status is
 * one entry here plus its words in app/i18n/platform-status.*.ts.
 *
 * A status the platform sends that is not listed is kept as it came and shown
 * verbatim; every reader treats it as meaning nothing yet (`callOf` and
 * `parcelOf` give null). Pure and free of zod (the order-page extensions bundle
 * it); the zod enums are in platform-status-schema.ts.
 */

/** How a status reads on a badge: problems in the critical tone, information neutral. */
export type Tone = "neutral" | "attention" | "critical" | "info" | "success" | "warning";

/** What the call to the customer came to. */
export type Call = "awaiting" | "unreachable" | "confirmed" | "cancelled" | "wrong_number" | "rejected";

/** Where the parcel is. */
export type Parcel = "none" | "picked_up" | "in_transit" | "delivered" | "paid_out" | "returned" | "cancelled";

/** Shopify's OrderCancelReason, when write-back cancels the Shopify order on this status. */
export type ShopifyCancelReason = "CUSTOMER" | "FRAUD" | "OTHER";

export interface ConfirmationMeaning {
  call: Call;
  tone: Tone;
  /** Cancel the Shopify order with this reason (when the merchant turned cancelling on); none: the order stays. */
  cancelOrder?: ShopifyCancelReason;
}

export interface ShippingMeaning {
  parcel: Parcel;
  tone: Tone;
}

const CONFIRMATION = {
  new: { call: "awaiting", tone: "info" },
  callback: { call: "awaiting", tone: "attention" },
  no_answer_1: { call: "unreachable", tone: "attention" },
  no_answer_2: { call: "unreachable", tone: "attention" },
  no_answer_3: { call: "unreachable", tone: "attention" },
  confirmed: { call: "confirmed", tone: "success" },
  canceled: { call: "cancelled", tone: "critical", cancelOrder: "CUSTOMER" },
  wrong: { call: "wrong_number", tone: "critical", cancelOrder: "OTHER" },
  fake: { call: "rejected", tone: "critical", cancelOrder: "FRAUD" },
  // The Shopify order of a duplicate lead may be the real one: it stays.
  duplicate: { call: "rejected", tone: "critical" },
} as const satisfies Record<string, ConfirmationMeaning>;

// In the order a parcel lives; "canceled" is also a confirmation status (one word, two fields).
const SHIPPING = {
  // Every lead starts here: an unconfirmed lead has no parcel.
  pending: { parcel: "none", tone: "neutral" },
  picked_up: { parcel: "picked_up", tone: "info" },
  shipped: { parcel: "in_transit", tone: "info" },
  delivered: { parcel: "delivered", tone: "success" },
  // The platform paid the seller for the parcel.
  paid: { parcel: "paid_out", tone: "success" },
  // Refused at the door or not collected: the platform has one status for both.
  returned: { parcel: "returned", tone: "critical" },
  canceled: { parcel: "cancelled", tone: "critical" },
} as const satisfies Record<string, ShippingMeaning>;

export type ConfirmationStatus = keyof typeof CONFIRMATION;
export type ShippingStatus = keyof typeof SHIPPING;
export type StatusField = "confirmation" | "shipping";

const keysOf = <K extends string>(table: Record<K, unknown>) => Object.keys(table) as [K, ...K[]];

/** Every confirmation status the platform's contract lists, in the order a call goes. */
export const CONFIRMATION_STATUSES = keysOf(CONFIRMATION);
/** Every shipping status, in the order a parcel goes. */
export const SHIPPING_STATUSES = keysOf(SHIPPING);

const MEANINGS: Record<StatusField, Readonly<Record<string, ConfirmationMeaning | ShippingMeaning>>> = {
  confirmation: CONFIRMATION,
  shipping: SHIPPING,
};

const listed = (field: StatusField, status: string | null | undefined): boolean =>
  typeof status === "string" && Object.prototype.hasOwnProperty.call(MEANINGS[field], status);

export const isConfirmationStatus = (status: string | null | undefined): status is ConfirmationStatus =>
  listed("confirmation", status);
export const isShippingStatus = (status: string | null | undefined): status is ShippingStatus =>
  listed("shipping", status);

/** What a confirmation status means; null for none or one this app does not know. */
export const confirmationMeaning = (status: string | null | undefined): ConfirmationMeaning | null =>
  isConfirmationStatus(status) ? CONFIRMATION[status] : null;
/** What a shipping status means; null for none or one this app does not know. */
export const shippingMeaning = (status: string | null | undefined): ShippingMeaning | null =>
  isShippingStatus(status) ? SHIPPING[status] : null;

export const callOf = (status: string | null | undefined): Call | null => confirmationMeaning(status)?.call ?? null;
export const parcelOf = (status: string | null | undefined): Parcel | null => shippingMeaning(status)?.parcel ?? null;

/** A status's badge tone; null for one this app does not know (shown verbatim, neutral). */
export function statusTone(field: StatusField, status: string | null | undefined): Tone | null {
  return listed(field, status) ? MEANINGS[field][status as string].tone : null;
}

// ---------------------------------------------------------------------------
// Readings every consumer shares

/** The call is over without a confirmation: cancelled, wrong number, fake or duplicate. */
export const isCallClosed = (status: string | null | undefined): boolean => {
  const call = callOf(status);
  return call === "cancelled" || call === "wrong_number" || call === "rejected";
};

const PARCEL_EXISTS: readonly Parcel[] = ["in_transit", "delivered", "paid_out", "returned"];

/**
 * A parcel exists and left: it decides where a lead stands (the contract: read the call
 * before confirmation, the parcel after it). A picked-up parcel can still be cancelled.
 */
export const parcelExists = (status: string | null | undefined): boolean =>
  PARCEL_EXISTS.includes(parcelOf(status) as Parcel);

/** The carrier has the parcel (picked up or later): a tracking number is due. */
export const parcelHandedOver = (status: string | null | undefined): boolean =>
  parcelOf(status) === "picked_up" || parcelExists(status);

/** The customer paid the carrier: the amount is collected (delivered, or paid out since). */
export const parcelCollected = (status: string | null | undefined): boolean => {
  const parcel = parcelOf(status);
  return parcel === "delivered" || parcel === "paid_out";
};

/** A lead stops moving once neither status can change any more. */
export function isFinalStatus(status: { confirmationStatus: string | null; shippingStatus: string | null }): boolean {
  const parcel = parcelOf(status.shippingStatus);
  if (parcel === "paid_out" || parcel === "returned" || parcel === "cancelled") return true;
  // A refused lead never gets a parcel: its shipping status stays pending.
  return isCallClosed(status.confirmationStatus) && (!status.shippingStatus || parcel === "none");
}
