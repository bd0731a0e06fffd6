/**
 * The cash ledger kept in step with the order links: a lead-events handler that
 * replaces what each changed parcel counted for (its CashParcel row) by what it
 * counts for now, and adds the difference to the CashDaily rollups, in the
 * transaction that tells the lead's events (docs/decisions/0010-hot-path-sql.md).
 * Derived from the link as it is now, never from the event's story, so a
 * repeated or late event changes nothing and the rows equal a recount
 * (`npm run analytics:rebuild`, cash-rebuild.server.ts).
 *
 * Only events to or from a parcel with money (delivered, paid, returned) cost
 * anything: every other event is dropped before the first read. Hot statements
 * are raw SQL.
 */
import { Prisma } from "@prisma/client";
import type { Db } from "../db.server";
import { enqueueJob } from "../queue/jobs.server";
import { paymentOverdueJobFor, PAYMENT_OVERDUE_JOB } from "../models/job-kinds";
import { type LeadEvent, type LeadEventHandler } from "../models/lead-events";
import {
  addCashEntry,
  cashEntryOf,
  hasCash,
  isCashState,
  nonZeroCash,
  NO_DAYS,
  type CashEntry,
  type CashLinkFields,
  type CashRow,
} from "./cash";
import { addDays, DEFAULT_TIME_ZONE, localDay, startOfLocalDay } from "./days";

type Tx = Prisma.TransactionClient;

/** Ids per read (bound parameters stay far under every driver's limit). */
export const CASH_READ_PAGE = 500;
/** Rows per upsert statement (12 parameters each). */
const UPSERT_ROWS = 100;

const num = (value: unknown): number => (value === null || value === undefined ? 0 : Number(value));

/**
 * The links among ids, only the columns the ledger reads. By primary key alone,
 * the shop checked on the rows (as models/links-by-id.server.ts reads them).
 */
export async function readCashLinks(db: Tx | Db, shop: string, ids: readonly string[]): Promise<CashLinkFields[]> {
  const found: CashLinkFields[] = [];
  for (let i = 0; i < ids.length; i += CASH_READ_PAGE) {
    const rows = await db.$queryRaw<
      CashLinkFields[]
    >`SELECT "id", "shop", "orderId", "orderName", "leadRef", "state", "shippingStatus", "totalClient", "sellerProfit"
      FROM "OrderLink" WHERE "id" IN (${Prisma.join(ids.slice(i, i + CASH_READ_PAGE))})`;
    for (const row of rows) if (row.shop === shop) found.push(row);
  }
  return found;
}

interface StoredEntryRow {
  linkId: string;
  shop: string;
  orderId: string;
  orderName: string;
  leadRef: string | null;
  state: string | null;
  day: string | null;
  deliveredDay: string | null;
  paidDay: string | null;
  returnedDay: string | null;
  totalCents: unknown;
  profitCents: unknown;
}

export const entryFromRow = (r: StoredEntryRow): CashEntry => ({
  linkId: r.linkId,
  shop: r.shop,
  orderId: r.orderId,
  orderName: r.orderName,
  leadRef: r.leadRef,
  state: isCashState(r.state) ? r.state : null,
  day: r.day,
  deliveredDay: r.deliveredDay,
  paidDay: r.paidDay,
  returnedDay: r.returnedDay,
  totalCents: num(r.totalCents),
  profitCents: r.profitCents === null || r.profitCents === undefined ? null : Number(r.profitCents),
});

/** The stored entries of these links (by primary key, shop checked on the rows). */
export async function readCashEntries(
  db: Tx | Db,
  shop: string,
  ids: readonly string[],
): Promise<Map<string, CashEntry>> {
  const entries = new Map<string, CashEntry>();
  for (let i = 0; i < ids.length; i += CASH_READ_PAGE) {
    const rows = await db.$queryRaw<
      StoredEntryRow[]
    >`SELECT "linkId", "shop", "orderId", "orderName", "leadRef", "state", "day", "deliveredDay", "paidDay", "returnedDay", "totalCents", "profitCents"
      FROM "CashParcel" WHERE "linkId" IN (${Prisma.join(ids.slice(i, i + CASH_READ_PAGE))})`;
    for (const row of rows) if (row.shop === shop) entries.set(row.linkId, entryFromRow(row));
  }
  return entries;
}

/** Adds deltas to the shop's CashDaily rows by increment (never a read then a write). */
export async function addToCashRollups(db: Tx | Db, shop: string, deltas: readonly CashRow[]): Promise<void> {
  for (let i = 0; i < deltas.length; i += UPSERT_ROWS) {
    const values = deltas
      .slice(i, i + UPSERT_ROWS)
      .map(
        (d) =>
          Prisma.sql`(${shop}, ${d.state}, ${d.day}, ${d.deliveredDay}, ${d.parcels}, ${d.totalCents}, ${d.profitCents}, ${d.unknownProfit})`,
      );
    await db.$executeRaw`INSERT INTO "CashDaily" ("shop", "state", "day", "deliveredDay", "parcels", "totalCents", "profitCents", "unknownProfit")
      VALUES ${Prisma.join(values)}
      ON CONFLICT ("shop", "state", "day", "deliveredDay") DO UPDATE SET
        "parcels" = "CashDaily"."parcels" + excluded."parcels",
        "totalCents" = "CashDaily"."totalCents" + excluded."totalCents",
        "profitCents" = "CashDaily"."profitCents" + excluded."profitCents",
        "unknownProfit" = "CashDaily"."unknownProfit" + excluded."unknownProfit"`;
  }
}

/** Stores entries, replacing the previous ones (the overdue notice, not part of an entry, is kept). */
export async function storeCashEntries(db: Tx | Db, entries: readonly CashEntry[]): Promise<void> {
  for (let i = 0; i < entries.length; i += UPSERT_ROWS) {
    const values = entries
      .slice(i, i + UPSERT_ROWS)
      .map(
        (e) =>
          Prisma.sql`(${e.linkId}, ${e.shop}, ${e.orderId}, ${e.orderName}, ${e.leadRef}, ${e.state}, ${e.day}, ${e.deliveredDay}, ${e.paidDay}, ${e.returnedDay}, ${e.totalCents}, ${e.profitCents})`,
      );
    await db.$executeRaw`INSERT INTO "CashParcel" ("linkId", "shop", "orderId", "orderName", "leadRef", "state", "day", "deliveredDay", "paidDay", "returnedDay", "totalCents", "profitCents")
      VALUES ${Prisma.join(values)}
      ON CONFLICT ("linkId") DO UPDATE SET
        "shop" = excluded."shop", "orderId" = excluded."orderId", "orderName" = excluded."orderName", "leadRef" = excluded."leadRef",
        "state" = excluded."state", "day" = excluded."day", "deliveredDay" = excluded."deliveredDay", "paidDay" = excluded."paidDay",
        "returnedDay" = excluded."returnedDay", "totalCents" = excluded."totalCents", "profitCents" = excluded."profitCents"`;
  }
}

/** Deletes entries by link id (links that no longer exist). */
export async function deleteCashEntries(db: Tx | Db, shop: string, ids: readonly string[]): Promise<void> {
  for (let i = 0; i < ids.length; i += CASH_READ_PAGE) {
    await db.$executeRaw`DELETE FROM "CashParcel" WHERE "shop" = ${shop} AND "linkId" IN (${Prisma.join(ids.slice(i, i + CASH_READ_PAGE))})`;
  }
}

/** When the daily overdue check runs: a few minutes into the shop's next day (ages change at midnight). */
export function nextOverdueCheckAt(now: Date, timeZone = DEFAULT_TIME_ZONE): Date {
  return new Date(startOfLocalDay(timeZone, addDays(localDay(timeZone, now), 1)).getTime() + 5 * 60_000);
}

/**
 * Makes sure the shop's daily overdue check is coming (it stops itself once
 * nothing is owed): a parcel just became owed.
 */
export async function ensureOverdueCheck(db: Tx | Db, shop: string, runAt: Date): Promise<void> {
  const existing = await db.job.findUnique({
    where: { key: `${PAYMENT_OVERDUE_JOB}:${shop}` },
    select: { state: true },
  });
  if (existing && (existing.state === "pending" || existing.state === "running")) return;
  await enqueueJob(db, paymentOverdueJobFor(shop, runAt));
}

/**
 * The lead-events handler: two batched reads (the links now, their entries
 * before) when an event touches a parcel with money, then one upsert per 100
 * changed rollup rows and per 100 entries.
 */
export async function applyCashEvents(
  tx: Tx,
  shop: string,
  events: readonly LeadEvent[],
  timeZone = DEFAULT_TIME_ZONE,
): Promise<void> {
  // A link's latest change decides the day a state is first seen (events of one batch may come in any order).
  const lastAt = new Map<string, Date>();
  for (const event of events) {
    if (!hasCash(event.after) && !(event.before && hasCash(event.before))) continue;
    const seen = lastAt.get(event.linkId);
    if (!seen || event.at > seen) lastAt.set(event.linkId, event.at);
  }
  if (lastAt.size === 0) return;
  const ids = [...lastAt.keys()];
  // One after the other: a transaction is one connection.
  const links = await readCashLinks(tx, shop, ids);
  const before = await readCashEntries(tx, shop, ids);

  const deltas = new Map<string, CashRow>();
  const entries: CashEntry[] = [];
  let newlyOwedAt: Date | null = null;
  for (const link of links) {
    const old = before.get(link.id);
    const entry = cashEntryOf(link, old ?? NO_DAYS, localDay(timeZone, lastAt.get(link.id)!));
    // A link never in the ledger and still not in it has nothing to store.
    if (!old && entry.state === null) continue;
    if (old) addCashEntry(deltas, old, -1);
    addCashEntry(deltas, entry, 1);
    entries.push(entry);
    if (entry.state === "owed" && old?.state !== "owed") newlyOwedAt = lastAt.get(link.id)!;
  }
  // A link gone since (shop data erased): its counts go with it.
  const present = new Set(links.map((l) => l.id));
  const gone = ids.filter((id) => before.has(id) && !present.has(id));
  for (const id of gone) addCashEntry(deltas, before.get(id)!, -1);

  await addToCashRollups(tx, shop, nonZeroCash(deltas));
  if (gone.length) await deleteCashEntries(tx, shop, gone);
  await storeCashEntries(tx, entries);
  if (newlyOwedAt) await ensureOverdueCheck(tx, shop, nextOverdueCheckAt(newlyOwedAt, timeZone));
}

export const cashLedgerHandler: LeadEventHandler = (tx, shop, events) => applyCashEvents(tx, shop, events);
