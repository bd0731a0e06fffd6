/**
 * The cash list's address: which parcels (owed, paid or returned; owed ones by
 * days since delivery) and which page. Pure; a wrong parameter is answered with
 * what is wrong and the default shown, never guessed.
 */
import { AGE_BUCKETS, deliveredDayRange, isCashState, type CashState } from "./cash";

/** Oldest age a link may ask for: ten years. */
export const MAX_AGE_DAYS = 3650;

export interface CashCursor {
  day: string;
  linkId: string;
}

export interface CashListQuery {
  state: CashState;
  /** Owed parcels delivered at least / at most this many days ago (inclusive). */
  minAge: number | null;
  maxAge: number | null;
  after: CashCursor | null;
  before: CashCursor | null;
}

export type CashQueryError = "bad_state" | "bad_age" | "bad_cursor";

const DAY = /^\d{4}-\d{2}-\d{2}$/;

/** "2026-11-16~<link id>": readable, and safe in a URL (link ids are letters and digits). */
export const encodeCursor = (cursor: CashCursor): string => `${cursor.day}~${cursor.linkId}`;

export function decodeCursor(value: string | null): CashCursor | null | "bad" {
  if (value === null || value === "") return null;
  const [day, linkId, extra] = value.split("~");
  return DAY.test(day ?? "") && linkId && /^[\w-]{1,64}$/.test(linkId) && extra === undefined ? { day, linkId } : "bad";
}

function age(value: string | null): number | null | "bad" {
  if (value === null || value === "") return null;
  if (!/^\d{1,4}$/.test(value)) return "bad";
  const n = Number(value);
  return n <= MAX_AGE_DAYS ? n : "bad";
}

/** ?state=owed|paid|returned&minAge=N&maxAge=N&after=C|before=C */
export function parseCashQuery(params: URLSearchParams): { query: CashListQuery; errors: CashQueryError[] } {
  const errors: CashQueryError[] = [];
  const stateParam = params.get("state");
  let state: CashState = "owed";
  if (stateParam !== null && stateParam !== "") {
    if (isCashState(stateParam)) state = stateParam;
    else errors.push("bad_state");
  }
  let minAge = age(params.get("minAge"));
  let maxAge = age(params.get("maxAge"));
  if (
    minAge === "bad" ||
    maxAge === "bad" ||
    (minAge !== null && maxAge !== null && minAge > maxAge) ||
    (state !== "owed" && (minAge !== null || maxAge !== null))
  ) {
    errors.push("bad_age");
    minAge = null;
    maxAge = null;
  }
  let after = decodeCursor(params.get("after"));
  let before = decodeCursor(params.get("before"));
  if (after === "bad" || before === "bad" || (after && before)) {
    errors.push("bad_cursor");
    after = null;
    before = null;
  }
  return { query: { state, minAge, maxAge, after, before }, errors };
}

/** The query string of a list view (no page). */
export function cashSearch(view: { state: CashState; minAge?: number | null; maxAge?: number | null }): string {
  const params = new URLSearchParams({ state: view.state });
  if (view.minAge !== null && view.minAge !== undefined) params.set("minAge", String(view.minAge));
  if (view.maxAge !== null && view.maxAge !== undefined) params.set("maxAge", String(view.maxAge));
  return params.toString();
}

/** The ledger days a query covers (owed: delivery days by age; the others: all). */
export function dayRangeOf(
  query: Pick<CashListQuery, "state" | "minAge" | "maxAge">,
  today: string,
): { from: string | null; to: string | null } {
  return query.state === "owed" ? deliveredDayRange(today, query.minAge, query.maxAge) : { from: null, to: null };
}

/** The age band a query is exactly, if any (to highlight it). */
export function bucketOfQuery(query: Pick<CashListQuery, "state" | "minAge" | "maxAge">): string | null {
  if (query.state !== "owed") return null;
  return AGE_BUCKETS.find((b) => b.minAge === (query.minAge ?? 0) && b.maxAge === query.maxAge)?.id ?? null;
}
