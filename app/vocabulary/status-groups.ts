/**
 * Status groups: where an order stands, in one reading. Every order the app has
 * decided about falls in exactly one group, from the link's state and what the
 * platform's two status fields mean (platform-status.ts). Pure; the rollups,
 * Home, Analytics, the customer records, the order's stage, the ad feed and the
 * sync ledger all read an order's standing through this module.
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
 *   delivered     parcel delivered or paid out
 *   returned      parcel returned: refused at the door or not collected
 *   in_transit    parcel shipped
 *   parcel_cancelled  call confirmed, then the parcel cancelled before it left
 *   preparing     call confirmed, parcel pending or picked up
 *   call_cancelled    call cancelled: the customer cancelled on the call
 *   rejected      call closed as a wrong number, fake or duplicate
 *   unreachable   no answer (1, 2, 3)
 *   awaiting      new or call back (or none yet, or a status the app does not know)
 */
import { callOf, parcelOf, type Call, type Parcel } from "./platform-status";

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

const BUCKET_OF_PARCEL: Partial<Record<Parcel, SentBucket>> = {
  in_transit: "in_transit",
  delivered: "delivered",
  paid_out: "delivered",
  returned: "returned",
};
const BUCKET_OF_CALL: Record<Call, SentBucket> = {
  awaiting: "awaiting",
  unreachable: "unreachable",
  confirmed: "preparing",
  cancelled: "call_cancelled",
  wrong_number: "rejected",
  rejected: "rejected",
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
  const parcel = parcelOf(shippingStatus);
  const fromParcel = parcel && BUCKET_OF_PARCEL[parcel];
  if (fromParcel) return fromParcel;
  const call = callOf(confirmationStatus);
  if (call === "confirmed" && parcel === "cancelled") return "parcel_cancelled";
  return call ? BUCKET_OF_CALL[call] : "awaiting";
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

/** The sync ledger's coarser words for the same groups: it counts links by their state alone. */
export type LedgerGroup = "sent" | "held" | "refused" | "skipped" | "cancelled" | "pending";

// Refused covers refused and failed to send: either way the platform has no lead.
const LEDGER_OF_UNSENT: Record<UnsentGroup, LedgerGroup> = {
  held: "held",
  failed: "refused",
  invalid: "refused",
  cancelled: "cancelled",
  skipped: "skipped",
};

/** A link's ledger group: sent, or why not; pending while the app is still processing it. */
export function ledgerGroupOf(state: string): LedgerGroup {
  const group = statusGroupOf({ state, confirmationStatus: null, shippingStatus: null });
  if (group === null) return "pending";
  return bucketOf(group) !== null ? "sent" : LEDGER_OF_UNSENT[group as UnsentGroup];
}
