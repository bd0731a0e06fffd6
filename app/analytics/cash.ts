/**
 * The cash ledger, pure: where each parcel's money stands, from the statuses the
 * app already syncs. The carrier collects `total_client` at the door, the
 * platform keeps its prices and fees and pays the seller `seller_profit` later
 * (shipping `delivered` -> `paid`). So a parcel is:
 *
 *   owed      delivered, not yet paid to the merchant (listed under its delivery day)
 *   paid      the platform paid the merchant for it (listed under the day the app saw it)
 *   returned  came back: nothing collected (listed under the day it was seen returned)
 *
 * What the platform owes is the seller profit of the owed parcels. The lead-events
 * handler, the rebuild and the tests' recount all go through `cashEntryOf` and
 * `addCashEntry`, so they cannot disagree on what a parcel counts for.
 * docs/decisions/0012-cash-ledger.md says why.
 */
import { daysBetween, signedCents } from "./contribution";
import { addDays } from "./days";
import { parcelOf, type Parcel } from "../vocabulary/platform-status";

export const CASH_STATES = ["owed", "paid", "returned"] as const;
export type CashState = (typeof CASH_STATES)[number];
export const isCashState = (value: unknown): value is CashState => (CASH_STATES as readonly unknown[]).includes(value);

/** The link fields the ledger reads. */
export interface CashLinkFields {
  id: string;
  shop: string;
  orderId: string;
  orderName: string;
  leadRef: string | null;
  state: string;
  shippingStatus: string | null;
  totalClient: string | null;
  sellerProfit: string | null;
}

/** The days a parcel was first seen delivered (or paid), paid and returned: kept when it moves on. */
export interface CashDays {
  deliveredDay: string | null;
  paidDay: string | null;
  returnedDay: string | null;
}

export const NO_DAYS: CashDays = { deliveredDay: null, paidDay: null, returnedDay: null };

/** One parcel's row in the ledger (stored as CashParcel). */
export interface CashEntry extends CashDays {
  linkId: string;
  shop: string;
  orderId: string;
  orderName: string;
  leadRef: string | null;
  /** Null: not in the ledger now (not a sent lead, or no parcel delivered or returned). */
  state: CashState | null;
  /** The day the ledger lists it under (delivered, paid or returned day); null when state is. */
  day: string | null;
  totalCents: number;
  /** Null until the platform gives the seller profit. */
  profitCents: number | null;
}

const SENT_STATES = new Set(["created", "damaged"]);
const STATE_OF_PARCEL: Partial<Record<Parcel, CashState>> = {
  delivered: "owed",
  paid_out: "paid",
  returned: "returned",
};

/** A link's cash state now, the same parcels the analytics count as delivered and returned. */
export function cashStateOf(link: Pick<CashLinkFields, "state" | "shippingStatus">): CashState | null {
  const parcel = SENT_STATES.has(link.state) ? parcelOf(link.shippingStatus) : null;
  return (parcel && STATE_OF_PARCEL[parcel]) ?? null;
}

/** Whether a link's snapshot puts money in the ledger (a change to or from such a snapshot moves it). */
export const hasCash = (link: Pick<CashLinkFields, "state" | "shippingStatus">): boolean => cashStateOf(link) !== null;

/**
 * The entry of a link as it is now. kept: the days known before (from its
 * previous entry or the timeline); seenDay: the day of this change, used for a
 * day first reached now.
 */
export function cashEntryOf(link: CashLinkFields, kept: CashDays, seenDay: string): CashEntry {
  const state = cashStateOf(link);
  const deliveredDay = kept.deliveredDay ?? (state === "owed" || state === "paid" ? seenDay : null);
  const paidDay = kept.paidDay ?? (state === "paid" ? seenDay : null);
  const returnedDay = kept.returnedDay ?? (state === "returned" ? seenDay : null);
  const day = state === "owed" ? deliveredDay : state === "paid" ? paidDay : state === "returned" ? returnedDay : null;
  return {
    linkId: link.id,
    shop: link.shop,
    orderId: link.orderId,
    orderName: link.orderName,
    leadRef: link.leadRef,
    state,
    day,
    deliveredDay,
    paidDay,
    returnedDay,
    // Out of the ledger, an entry keeps only its days: its amounts would go stale unseen.
    totalCents: state === null ? 0 : signedCents(link.totalClient),
    profitCents: state === null || !link.sellerProfit?.trim() ? null : signedCents(link.sellerProfit),
  };
}

/** Field by field: the first known day wins (timeline, then the stored entry). */
export function mergeDays(first: Partial<CashDays> | undefined, second: Partial<CashDays> | undefined): CashDays {
  return {
    deliveredDay: first?.deliveredDay ?? second?.deliveredDay ?? null,
    paidDay: first?.paidDay ?? second?.paidDay ?? null,
    returnedDay: first?.returnedDay ?? second?.returnedDay ?? null,
  };
}

// ---------------------------------------------------------------------------
// Rollups

/** A CashDaily row: per state, ledger day and delivery day ("" for a returned parcel). */
export interface CashKey {
  state: CashState;
  day: string;
  deliveredDay: string;
}

export interface CashSums {
  parcels: number;
  totalCents: number;
  /** Seller profit of the parcels whose profit is known. */
  profitCents: number;
  /** Parcels whose seller profit is not known yet. */
  unknownProfit: number;
}

export type CashRow = CashKey & CashSums;

export const ZERO_SUMS: CashSums = { parcels: 0, totalCents: 0, profitCents: 0, unknownProfit: 0 };

/** The rollup row an entry counts in; null when it is not in the ledger. */
export function cashKeyOf(entry: CashEntry): CashKey | null {
  if (entry.state === null || entry.day === null) return null;
  return {
    state: entry.state,
    day: entry.day,
    deliveredDay: entry.state === "returned" ? "" : (entry.deliveredDay ?? entry.day),
  };
}

export const cashKeyString = (k: CashKey): string => `${k.state}|${k.day}|${k.deliveredDay}`;

/** Adds sign x entry to deltas (keyed by cashKeyString). */
export function addCashEntry(deltas: Map<string, CashRow>, entry: CashEntry, sign: 1 | -1): void {
  const key = cashKeyOf(entry);
  if (!key) return;
  const id = cashKeyString(key);
  const row = deltas.get(id) ?? deltas.set(id, { ...key, ...ZERO_SUMS }).get(id)!;
  row.parcels += sign;
  row.totalCents += sign * entry.totalCents;
  row.profitCents += sign * (entry.profitCents ?? 0);
  row.unknownProfit += sign * (entry.profitCents === null ? 1 : 0);
}

/** The deltas that change something (a move within one row cancels out). */
export const nonZeroCash = (deltas: Map<string, CashRow>): CashRow[] =>
  [...deltas.values()].filter(
    (d) => d.parcels !== 0 || d.totalCents !== 0 || d.profitCents !== 0 || d.unknownProfit !== 0,
  );

export function sumRows(rows: readonly CashSums[]): CashSums {
  const sum = { ...ZERO_SUMS };
  for (const r of rows) {
    sum.parcels += r.parcels;
    sum.totalCents += r.totalCents;
    sum.profitCents += r.profitCents;
    sum.unknownProfit += r.unknownProfit;
  }
  return sum;
}

// ---------------------------------------------------------------------------
// Reading: ages and balances

/** Days since delivery, by bands. */
export const AGE_BUCKETS = [
  { id: "0-7", minAge: 0, maxAge: 7 },
  { id: "8-14", minAge: 8, maxAge: 14 },
  { id: "15-30", minAge: 15, maxAge: 30 },
  { id: "over-30", minAge: 31, maxAge: null },
] as const;
export type AgeBucketId = (typeof AGE_BUCKETS)[number]["id"];
/** Whole days between delivery and today (0 on the day of delivery; never negative). */
export const ageInDays = (deliveredDay: string, today: string): number => Math.max(0, daysBetween(deliveredDay, today));

/** The delivery days of owed parcels aged at least minAge and at most maxAge days today (inclusive). */
export function deliveredDayRange(
  today: string,
  minAge: number | null,
  maxAge: number | null,
): { from: string | null; to: string | null } {
  return {
    from: maxAge === null ? null : addDays(today, -maxAge),
    to: minAge === null || minAge <= 0 ? null : addDays(today, -minAge),
  };
}

/** Owed rows (state "owed") summed by age band today. */
export function owedByAge(rows: readonly CashRow[], today: string): Record<AgeBucketId, CashSums> {
  const result = Object.fromEntries(AGE_BUCKETS.map((b) => [b.id, { ...ZERO_SUMS }])) as Record<AgeBucketId, CashSums>;
  for (const row of rows) {
    if (row.state !== "owed") continue;
    const age = ageInDays(row.deliveredDay, today);
    const bucket = AGE_BUCKETS.find((b) => age >= b.minAge && (b.maxAge === null || age <= b.maxAge))!;
    result[bucket.id] = sumRows([result[bucket.id], row]);
  }
  return result;
}

/** Owed parcels delivered at least minAge days ago. */
export const owedAgedAtLeast = (rows: readonly CashRow[], today: string, minAge: number): CashSums =>
  sumRows(rows.filter((r) => r.state === "owed" && ageInDays(r.deliveredDay, today) >= minAge));

/**
 * What the platform owed at the end of day: parcels delivered by then and not
 * paid by then, that is owed now, or paid after it. Needs the owed rows and the
 * paid rows whose paid day is after `day`.
 */
export function owedAtEndOf(rows: readonly CashRow[], day: string): CashSums {
  return sumRows(
    rows.filter(
      (r) =>
        r.deliveredDay !== "" && r.deliveredDay <= day && (r.state === "owed" || (r.state === "paid" && r.day > day)),
    ),
  );
}

/** Rows of a state whose ledger day is in [from, to]. */
export const inPeriod = (rows: readonly CashRow[], state: CashState, from: string, to: string): CashSums =>
  sumRows(rows.filter((r) => r.state === state && r.day >= from && r.day <= to));
