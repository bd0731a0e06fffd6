/**
 * The cash list: parcels of one ledger state, a page at a time, read through the
 * (shop, state, day, linkId) index with a keyset on (day, linkId), so a page
 * costs the same at any depth and any number of orders. Owed parcels come oldest
 * delivery first (the most urgent); paid and returned, latest first. Also every
 * parcel of a view, a page of 1,000 at a time, for the CSV.
 */
import type { Prisma } from "@prisma/client";
import type { Db } from "../db.server";
import { ageInDays, type CashState } from "./cash";
import { dayRangeOf, encodeCursor, type CashCursor, type CashListQuery } from "./cash-query";

export const CASH_PAGE_SIZE = 50;
const EXPORT_PAGE = 1000;

export interface CashParcelRow {
  linkId: string;
  orderId: string;
  orderName: string;
  leadRef: string | null;
  state: CashState;
  day: string;
  deliveredDay: string | null;
  paidDay: string | null;
  returnedDay: string | null;
  totalCents: number;
  profitCents: number | null;
  /** Days since delivery today (owed and paid parcels). */
  ageDays: number | null;
}

export interface CashListPage {
  rows: CashParcelRow[];
  /** Cursors of the next and previous pages, null at either end. */
  next: string | null;
  previous: string | null;
}

const SELECT = {
  linkId: true,
  orderId: true,
  orderName: true,
  leadRef: true,
  state: true,
  day: true,
  deliveredDay: true,
  paidDay: true,
  returnedDay: true,
  totalCents: true,
  profitCents: true,
} as const satisfies Prisma.CashParcelSelect;

type Stored = Prisma.CashParcelGetPayload<{ select: typeof SELECT }>;

const rowOf = (p: Stored, today: string): CashParcelRow => ({
  ...p,
  state: p.state as CashState,
  day: p.day!,
  totalCents: Number(p.totalCents),
  profitCents: p.profitCents === null ? null : Number(p.profitCents),
  ageDays: p.deliveredDay && p.state === "owed" ? ageInDays(p.deliveredDay, today) : null,
});

/** Oldest first for owed parcels, latest first for the others. */
const ascending = (state: CashState) => state === "owed";

function where(
  shop: string,
  query: Pick<CashListQuery, "state" | "minAge" | "maxAge">,
  today: string,
  cursor: { at: CashCursor; forward: boolean } | null,
): Prisma.CashParcelWhereInput {
  const range = dayRangeOf(query, today);
  const day: Prisma.StringNullableFilter = {
    ...(range.from ? { gte: range.from } : {}),
    ...(range.to ? { lte: range.to } : {}),
  };
  const base: Prisma.CashParcelWhereInput = {
    shop,
    state: query.state,
    ...(range.from || range.to ? { day } : { day: { not: null } }),
  };
  if (!cursor) return base;
  // Past the cursor in the list's order (forward) or before it (backward).
  const greater = ascending(query.state) === cursor.forward;
  const op = greater ? "gt" : "lt";
  return {
    AND: [base, { OR: [{ day: { [op]: cursor.at.day } }, { day: cursor.at.day, linkId: { [op]: cursor.at.linkId } }] }],
  };
}

const orderBy = (state: CashState, forward: boolean): Prisma.CashParcelOrderByWithRelationInput[] => {
  const direction = ascending(state) === forward ? "asc" : "desc";
  return [{ day: direction }, { linkId: direction }];
};

export async function listCashParcels(
  db: Db,
  shop: string,
  query: CashListQuery,
  today: string,
  limit = CASH_PAGE_SIZE,
): Promise<CashListPage> {
  const forward = query.before === null;
  const at = query.after ?? query.before;
  const found = await db.cashParcel.findMany({
    where: where(shop, query, today, at ? { at, forward } : null),
    select: SELECT,
    orderBy: orderBy(query.state, forward),
    take: limit + 1,
  });
  const more = found.length > limit;
  const page = found.slice(0, limit);
  if (!forward) page.reverse();
  const rows = page.map((p) => rowOf(p, today));
  const first = rows[0];
  const last = rows[rows.length - 1];
  const cursorOf = (r: CashParcelRow) => encodeCursor({ day: r.day, linkId: r.linkId });
  return {
    rows,
    next: last && (forward ? more : true) ? cursorOf(last) : null,
    previous: first && (forward ? at !== null : more) ? cursorOf(first) : null,
  };
}

/** Every parcel of the view, in the list's order, a page of 1,000 at a time (for the CSV). */
export async function* allCashParcels(
  db: Db,
  shop: string,
  query: Pick<CashListQuery, "state" | "minAge" | "maxAge">,
  today: string,
): AsyncGenerator<CashParcelRow[]> {
  let after: CashCursor | null = null;
  for (;;) {
    const page: Stored[] = await db.cashParcel.findMany({
      where: where(shop, query, today, after ? { at: after, forward: true } : null),
      select: SELECT,
      orderBy: orderBy(query.state, true),
      take: EXPORT_PAGE,
    });
    if (page.length === 0) return;
    yield page.map((p) => rowOf(p, today));
    if (page.length < EXPORT_PAGE) return;
    const last = page[page.length - 1];
    after = { day: last.day!, linkId: last.linkId };
  }
}

/** The parcels delivered or returned between from and to (Analytics' CSV of the ledger for its period). */
export async function* cashParcelsOfPeriod(
  db: Db,
  shop: string,
  period: { from: string; to: string },
  today: string,
): AsyncGenerator<CashParcelRow[]> {
  let cursor: string | undefined;
  for (;;) {
    const page = await db.cashParcel.findMany({
      where: {
        shop,
        state: { not: null },
        OR: [
          { deliveredDay: { gte: period.from, lte: period.to } },
          { returnedDay: { gte: period.from, lte: period.to } },
        ],
        ...(cursor ? { linkId: { gt: cursor } } : {}),
      },
      select: SELECT,
      orderBy: { linkId: "asc" },
      take: EXPORT_PAGE,
    });
    if (page.length === 0) return;
    yield page.map((p) => rowOf(p, today));
    if (page.length < EXPORT_PAGE) return;
    cursor = page[page.length - 1].linkId;
  }
}
