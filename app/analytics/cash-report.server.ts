/**
 * What Home, Analytics and the cash list read of the cash ledger: the rollups
 * only (CashDaily), never the order rows, so the cost follows the number of
 * days with money owed or paid, not the number of orders. Scoped to the shop.
 */
import type { Prisma } from "@prisma/client";
import type { Db } from "../db.server";
import { readShopSettings } from "../models/shop-settings";
import {
  inPeriod,
  owedAgedAtLeast,
  owedAtEndOf,
  owedByAge,
  sumRows,
  type AgeBucketId,
  type CashRow,
  type CashState,
  type CashSums,
} from "./cash";
import { DEFAULT_TIME_ZONE, localDay } from "./days";

type Reader = Db | Prisma.TransactionClient;

const toRow = (r: {
  state: string;
  day: string;
  deliveredDay: string;
  parcels: number;
  totalCents: bigint;
  profitCents: bigint;
  unknownProfit: number;
}): CashRow => ({
  state: r.state as CashState,
  day: r.day,
  deliveredDay: r.deliveredDay,
  parcels: r.parcels,
  totalCents: Number(r.totalCents),
  profitCents: Number(r.profitCents),
  unknownProfit: r.unknownProfit,
});

/** The shop's rollup rows of one state, optionally within ledger days [from, to]: a range on the key's prefix. */
export async function cashRows(
  db: Reader,
  shop: string,
  state: CashState,
  range: { from?: string | null; to?: string | null } = {},
): Promise<CashRow[]> {
  const day = { ...(range.from ? { gte: range.from } : {}), ...(range.to ? { lte: range.to } : {}) };
  const rows = await db.cashDaily.findMany({
    where: { shop, state, ...(range.from || range.to ? { day } : {}), parcels: { gt: 0 } },
    select: {
      state: true,
      day: true,
      deliveredDay: true,
      parcels: true,
      totalCents: true,
      profitCents: true,
      unknownProfit: true,
    },
  });
  return rows.map(toRow);
}

export interface CashOverview {
  today: string;
  /** Everything owed now, and by days since delivery. */
  owed: CashSums;
  byAge: Record<AgeBucketId, CashSums>;
  /**
   * The shop's threshold, and what is owed past it: the alert and the card's "of which" both, so
   * Home names the same parcels with one threshold and one wording.
   */
  overdueDays: number;
  overdue: CashSums;
  /** Whether the ledger has ever held a parcel (else Home shows no card). */
  hasLedger: boolean;
}

/** Home's card and alert, and the cash list's header. */
export async function loadCashOverview(
  db: Reader,
  shop: string,
  options: { now?: Date; timeZone?: string } = {},
): Promise<CashOverview> {
  const today = localDay(options.timeZone ?? DEFAULT_TIME_ZONE, options.now ?? new Date());
  const [owedRows, shopRow, anyParcel] = await Promise.all([
    cashRows(db, shop, "owed"),
    db.shop.findUnique({ where: { domain: shop }, select: { settings: true } }),
    db.cashParcel.findFirst({ where: { shop }, select: { linkId: true } }),
  ]);
  const overdueDays = readShopSettings(shopRow?.settings).paymentOverdueDays;
  return {
    today,
    owed: sumRows(owedRows),
    byAge: owedByAge(owedRows, today),
    overdueDays,
    overdue: owedAgedAtLeast(owedRows, today, overdueDays + 1),
    hasLedger: anyParcel !== null,
  };
}

export interface CashPeriodFigures {
  /** Owed at the end of the period (its last day, or today). */
  owedAtEnd: CashSums;
  /** Paid by the platform during the period (by the day the app saw it). */
  paid: CashSums;
  /** Returned during the period. */
  returned: CashSums;
}

export interface CashForPeriod {
  current: CashPeriodFigures;
  previous: CashPeriodFigures;
  byAge: Record<AgeBucketId, CashSums>;
  today: string;
}

/** Analytics: the balance owed at the end of the period and of the one before, what was paid and returned in each. */
export async function loadCashForPeriod(
  db: Reader,
  shop: string,
  period: { from: string; to: string; previous: { from: string; to: string } },
  today: string,
): Promise<CashForPeriod> {
  // Paid rows from the previous period on: paid in either period, or paid after its end (owed then).
  const [owed, paid, returned] = await Promise.all([
    cashRows(db, shop, "owed"),
    cashRows(db, shop, "paid", { from: period.previous.from }),
    cashRows(db, shop, "returned", { from: period.previous.from, to: period.to }),
  ]);
  const rows = [...owed, ...paid, ...returned];
  const figures = (p: { from: string; to: string }): CashPeriodFigures => ({
    owedAtEnd: owedAtEndOf(rows, p.to < today ? p.to : today),
    paid: inPeriod(rows, "paid", p.from, p.to),
    returned: inPeriod(rows, "returned", p.from, p.to),
  });
  return { current: figures(period), previous: figures(period.previous), byAge: owedByAge(owed, today), today };
}

/** Totals of a list filter: the state's rows within the ledger days, summed. */
export async function cashTotals(
  db: Reader,
  shop: string,
  state: CashState,
  range: { from: string | null; to: string | null },
): Promise<CashSums> {
  return sumRows(await cashRows(db, shop, state, range));
}
