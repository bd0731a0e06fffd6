/**
 * What to write back to a Shopify order for a lead (pure): the caller reads the order
 * (ORDER_WRITE_BACK_STATE), plans, then executes the steps (write-back.server.ts).
 *
 * Every step is guarded twice, by the order's live state and by what was already done,
 * so a re-run after success plans nothing, and a re-run after a partial run (throttled
 * half way) only plans what is missing.
 */
import type { FulfillmentOrderState, OrderWriteBackState } from "./order-write-back-state";
import { desiredTags, isManagedTag, tagKey, uniqueTags } from "./write-back-tags";
import {
  confirmationMeaning,
  parcelCollected,
  parcelOf,
  SHIPPING_STATUSES,
  type ShopifyCancelReason,
} from "../vocabulary/platform-status";

export interface WriteBackDone {
  /** Our tags currently on the order, as last written. */
  tags: string[];
  fulfilled: boolean;
  paid: boolean;
  /** orderCancel was accepted (its job may still be running). */
  cancelled: boolean;
  fulfillmentIds?: string[];
}

export const NOTHING_WRITTEN_BACK: WriteBackDone = { tags: [], fulfilled: false, paid: false, cancelled: false };

export interface WriteBackLink {
  leadRef: string | null;
  confirmationStatus: string | null;
  shippingStatus: string | null;
  hasAnomalies: boolean;
  trackingNumber: string | null;
  /** Carrier name for the fulfilment's tracking company; settings or the default otherwise. */
  trackingCompany?: string | null;
  trackingUrl?: string | null;
  done: WriteBackDone;
}

/** Per-shop toggles. */
export interface WriteBackSettings {
  tags: boolean;
  fulfillment: boolean;
  markPaid: boolean;
  /** "delivered" (the default): when the customer paid the carrier; "paid": when the platform paid the merchant. */
  markPaidWhen?: MarkPaidWhen;
  /** Off by default: cancelling is visible to the merchant's reports and cannot be undone. */
  cancel: boolean;
  carrierName?: string | null;
}

export type MarkPaidWhen = "delivered" | "paid";

export const DEFAULT_WRITE_BACK_SETTINGS: WriteBackSettings = {
  tags: true,
  fulfillment: true,
  markPaid: true,
  markPaidWhen: "delivered",
  cancel: false,
};
export const DEFAULT_TRACKING_COMPANY = "COD platform";

/**
 * Fulfil once the parcel is on its way (shipped, delivered, paid out). Not at "picked_up": the
 * platform can still cancel a parcel after pickup (picked_up -> canceled), and a Shopify
 * fulfilment is not undone cleanly. Not at "returned": the goods came back, there is nothing
 * to mark as sent.
 */
export const FULFILL_SHIPPING_STATUSES: ReadonlySet<string> = new Set(
  SHIPPING_STATUSES.filter((s) => parcelOf(s) === "in_transit" || parcelCollected(s)),
);
/** The customer paid the courier: the COD amount is collected. */
export const PAID_SHIPPING_STATUSES: ReadonlySet<string> = new Set(SHIPPING_STATUSES.filter(parcelCollected));
/** The platform paid the merchant: the cash is in hand. */
export const PAID_OUT_SHIPPING_STATUSES: ReadonlySet<string> = new Set(
  SHIPPING_STATUSES.filter((s) => parcelOf(s) === "paid_out"),
);

/** The shipping statuses at which the order is marked paid, by the merchant's choice. */
export const markPaidStatuses = (when: MarkPaidWhen | undefined): ReadonlySet<string> =>
  when === "paid" ? PAID_OUT_SHIPPING_STATUSES : PAID_SHIPPING_STATUSES;

export type OrderCancelReason = ShopifyCancelReason;
/** Shopify's reason to cancel the order at this confirmation status (when the merchant turned it on); null: keep it. */
export const cancelReasonOf = (confirmationStatus: string | null): OrderCancelReason | null =>
  confirmationMeaning(confirmationStatus)?.cancelOrder ?? null;

export interface FulfillmentOrderLines {
  fulfillmentOrderId: string;
  lineItems: { id: string; quantity: number }[];
}

export type WriteBackStep =
  | { kind: "tagsAdd"; tags: string[] }
  | { kind: "tagsRemove"; tags: string[] }
  | {
      kind: "fulfillmentCreate";
      locationId: string | null;
      fulfillmentOrders: FulfillmentOrderLines[];
      tracking: { number: string; company: string; url: string | null } | null;
    }
  | { kind: "markAsPaid" }
  | {
      kind: "cancel";
      reason: OrderCancelReason;
      staffNote: string;
      // COD: nothing was charged online, the stock goes back, the platform already
      // spoke to the customer.
      refund: false;
      restock: true;
      notifyCustomer: false;
    };

export function planWriteBack(
  link: WriteBackLink,
  settings: WriteBackSettings,
  current: OrderWriteBackState,
): WriteBackStep[] {
  return [
    ...(settings.tags ? planTags(link, current) : []),
    ...(settings.fulfillment ? planFulfillments(link, settings, current) : []),
    ...(settings.markPaid ? planMarkAsPaid(link, current, markPaidStatuses(settings.markPaidWhen)) : []),
    ...(settings.cancel ? planCancel(link, current) : []),
  ];
}

function planTags(link: WriteBackLink, current: OrderWriteBackState): WriteBackStep[] {
  const wanted = desiredTags(link);
  const wantedKeys = new Set(wanted.map(tagKey));
  // A tag we wrote and the merchant removed by hand is not put back.
  const present = new Set([...current.tags, ...link.done.tags].map(tagKey));
  const add = wanted.filter((t) => !present.has(tagKey(t)));
  const remove = uniqueTags(current.tags.filter((t) => isManagedTag(t, link.done.tags) && !wantedKeys.has(tagKey(t))));
  const steps: WriteBackStep[] = [];
  // Add before removing, so the order never shows no status at all.
  if (add.length) steps.push({ kind: "tagsAdd", tags: add });
  if (remove.length) steps.push({ kind: "tagsRemove", tags: remove });
  return steps;
}

const fulfillable = (fo: FulfillmentOrderState) =>
  (fo.status === "OPEN" || fo.status === "IN_PROGRESS") && fo.supportedActions.includes("CREATE_FULFILLMENT");

function planFulfillments(
  link: WriteBackLink,
  settings: WriteBackSettings,
  current: OrderWriteBackState,
): WriteBackStep[] {
  if (link.done.fulfilled || current.cancelledAt) return [];
  if (!link.shippingStatus || !FULFILL_SHIPPING_STATUSES.has(link.shippingStatus)) return [];
  const byLocation = new Map<string | null, FulfillmentOrderLines[]>();
  for (const fo of current.fulfillmentOrders.filter(fulfillable)) {
    const lineItems = fo.lineItems
      .filter((li) => li.remainingQuantity > 0)
      .map((li) => ({ id: li.id, quantity: li.remainingQuantity }));
    if (!lineItems.length) continue;
    byLocation.set(fo.locationId, [...(byLocation.get(fo.locationId) ?? []), { fulfillmentOrderId: fo.id, lineItems }]);
  }
  const tracking = link.trackingNumber
    ? {
        number: link.trackingNumber,
        company: link.trackingCompany || settings.carrierName || DEFAULT_TRACKING_COMPANY,
        url: link.trackingUrl ?? null,
      }
    : null;
  return [...byLocation].map(([locationId, fulfillmentOrders]) => ({
    kind: "fulfillmentCreate" as const,
    locationId,
    fulfillmentOrders,
    tracking,
  }));
}

function planMarkAsPaid(
  link: WriteBackLink,
  current: OrderWriteBackState,
  statuses: ReadonlySet<string>,
): WriteBackStep[] {
  if (link.done.paid || current.cancelledAt) return [];
  if (!link.shippingStatus || !statuses.has(link.shippingStatus)) return [];
  if (!current.canMarkAsPaid || current.displayFinancialStatus === "PAID") return [];
  return [{ kind: "markAsPaid" }];
}

const STAFF_NOTE_MAX = 255;

function planCancel(link: WriteBackLink, current: OrderWriteBackState): WriteBackStep[] {
  if (link.done.cancelled || current.cancelledAt || !link.confirmationStatus) return [];
  const reason = cancelReasonOf(link.confirmationStatus);
  if (!reason) return [];
  const staffNote = `COD Lead Sync: lead ${link.leadRef ?? "(no ref)"} ${link.confirmationStatus}`.slice(
    0,
    STAFF_NOTE_MAX,
  );
  return [{ kind: "cancel", reason, staffNote, refund: false, restock: true, notifyCustomer: false }];
}

export interface WriteBackOutcome {
  tagsAdded: string[];
  tagsRemoved: string[];
  fulfillmentIds: string[];
  markedPaid: boolean;
  /** orderCancel accepted; its job id when Shopify gave one. */
  cancelRequested: boolean;
  cancelJobId: string | null;
}

export const NO_OUTCOME: WriteBackOutcome = {
  tagsAdded: [],
  tagsRemoved: [],
  fulfillmentIds: [],
  markedPaid: false,
  cancelRequested: false,
  cancelJobId: null,
};

/** The `done` record after an execution, for the caller to store. */
export function recordWriteBack(done: WriteBackDone, outcome: WriteBackOutcome): WriteBackDone {
  const removed = new Set(outcome.tagsRemoved.map(tagKey));
  const fulfillmentIds = [...(done.fulfillmentIds ?? []), ...outcome.fulfillmentIds];
  return {
    tags: uniqueTags([...done.tags.filter((t) => !removed.has(tagKey(t))), ...outcome.tagsAdded]),
    fulfilled: done.fulfilled || outcome.fulfillmentIds.length > 0,
    paid: done.paid || outcome.markedPaid,
    cancelled: done.cancelled || outcome.cancelRequested,
    ...(fulfillmentIds.length ? { fulfillmentIds } : {}),
  };
}

/** Reads a stored `done` record (OrderLink.writtenBack JSON), tolerating older or partial shapes. */
export function parseWriteBackDone(json: string | null | undefined): WriteBackDone {
  let value: unknown;
  try {
    value = json ? JSON.parse(json) : {};
  } catch {
    value = {};
  }
  const record = (value && typeof value === "object" ? value : {}) as Record<string, unknown>;
  const strings = (v: unknown) => (Array.isArray(v) ? v.filter((x): x is string => typeof x === "string") : []);
  const fulfillmentIds = strings(record.fulfillmentIds);
  return {
    tags: strings(record.tags),
    fulfilled: record.fulfilled === true,
    paid: record.paid === true,
    cancelled: record.cancelled === true,
    ...(fulfillmentIds.length ? { fulfillmentIds } : {}),
  };
}
