/**
 * Status groups: every order the app has decided about falls in exactly one
 * group, from the link's state and the platform's two status fields (the lists
 * in the Seller Order API contract, "States and transitions"). Pure; the
 * rollups, Home and the Analytics page all read statuses through this module.
 *
 * Not sent (the link's state):
 *   held      held: waits for the merchant's fix
 *   failed    every retry failed: waits for the merchant's resend
 *   invalid   the platform refused the lead (422): "refused to send"
 *   cancelled cancelled in Shopify before it was sent
 *   skipped   not a cash-on-delivery order: never one of "the orders I took"
 *   (received, posting, retrying: still being processed, counted in no group)
 *
 * Sent (state created or damaged; a damaged lead's group is prefixed "damaged."):
 * the contract says "before confirmation, read confirmation_status; after
 * confirmation, read shipping_status", and an unconfirmed lead has no parcel
 * (its shipping_status stays pending). So a parcel that exists (shipped,
 * delivered, paid, returned) decides; otherwise the call does:
 *   delivered     shipping delivered or paid
 *   returned      shipping returned: refused at the door or not collected (the
 *                 platform has one status for both)
 *   in_transit    shipping shipped
 *   parcel_cancelled  confirmed, then shipping canceled before it left
 *   preparing     confirmed, parcel pending or picked up
 *   call_cancelled    confirmation canceled: the customer cancelled on the call
 *   rejected      confirmation wrong, fake or duplicate
 *   unreachable   confirmation no_answer_1, no_answer_2, no_answer_3
 *   awaiting      confirmation new or callback (or none yet)
 */

export const SENT_BUCKETS = [
  "awaiting",
  "unreachable",
  "call_cancelled",
  "rejected",
  "preparing",
  "parcel_cancelled",
  "in_transit",
  "delivered",
  "returned",
] as const;
export type SentBucket = (typeof SENT_BUCKETS)[number];

export const UNSENT_GROUPS = ["held", "failed", "invalid", "cancelled", "skipped"] as const;
export type UnsentGroup = (typeof UNSENT_GROUPS)[number];

export type StatusGroup = UnsentGroup | SentBucket | `damaged.${SentBucket}`;

export const STATUS_GROUPS: readonly StatusGroup[] = [
  ...UNSENT_GROUPS,
  ...SENT_BUCKETS,
  ...SENT_BUCKETS.map((b) => `damaged.${b}` as const),
];

const PARCEL_EXISTS: Record<string, SentBucket> = {
  delivered: "delivered",
  paid: "delivered",
  returned: "returned",
  shipped: "in_transit",
};
const REFUSED_ON_CALL: Record<string, SentBucket> = {
  canceled: "call_cancelled",
  wrong: "rejected",
  fake: "rejected",
  duplicate: "rejected",
  no_answer_1: "unreachable",
  no_answer_2: "unreachable",
  no_answer_3: "unreachable",
};
const UNSENT_STATES: Record<string, UnsentGroup> = {
  held: "held",
  failed: "failed",
  invalid: "invalid",
  cancelled: "cancelled",
  skipped: "skipped",
};

export interface StatusFields {
  state: string;
  confirmationStatus: string | null;
  shippingStatus: string | null;
}

/** The platform's two statuses of a sent lead as one bucket. */
export function sentBucket(confirmationStatus: string | null, shippingStatus: string | null): SentBucket {
  const parcel = shippingStatus ? PARCEL_EXISTS[shippingStatus] : undefined;
  if (parcel) return parcel;
  if (confirmationStatus === "confirmed") return shippingStatus === "canceled" ? "parcel_cancelled" : "preparing";
  return (confirmationStatus && REFUSED_ON_CALL[confirmationStatus]) || "awaiting";
}

/** The group of a link; null while the app is still processing it (not counted yet). */
export function statusGroupOf(link: StatusFields): StatusGroup | null {
  if (link.state === "created") return sentBucket(link.confirmationStatus, link.shippingStatus);
  if (link.state === "damaged") return `damaged.${sentBucket(link.confirmationStatus, link.shippingStatus)}`;
  return UNSENT_STATES[link.state] ?? null;
}

/** The sent bucket of a group (damaged or not); null for an order that was not sent. */
export function bucketOf(group: string): SentBucket | null {
  const bucket = group.startsWith("damaged.") ? group.slice("damaged.".length) : group;
  return (SENT_BUCKETS as readonly string[]).includes(bucket) ? (bucket as SentBucket) : null;
}

export const isDamagedGroup = (group: string): boolean => group.startsWith("damaged.");

// The funnel's steps, each included in the one before.
const CONFIRMED: readonly SentBucket[] = ["preparing", "parcel_cancelled", "in_transit", "delivered", "returned"];
const SHIPPED: readonly SentBucket[] = ["in_transit", "delivered", "returned"];

export const isConfirmed = (group: string): boolean => CONFIRMED.includes(bucketOf(group) as SentBucket);
export const isShipped = (group: string): boolean => SHIPPED.includes(bucketOf(group) as SentBucket);
export const isDelivered = (group: string): boolean => bucketOf(group) === "delivered";
export const isReturned = (group: string): boolean => bucketOf(group) === "returned";
/** One of "the orders I took": everything counted but non-COD orders. */
export const isTakenOrder = (group: string): boolean => group !== "skipped";
