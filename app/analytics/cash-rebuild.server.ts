/**
 * Recounts a shop's cash ledger from its OrderLink rows and the status changes
 * of their timeline (`npm run analytics:rebuild`, beside the rollups): the days
 * a parcel was first seen delivered, paid and returned come from the timeline,
 * else from its previous entry, else from the lead's last status check.
 */
import { Prisma } from "@prisma/client";
import type { Db } from "../db.server";
import { forEachLockedLinkPage, shopLinkIds } from "../models/links-by-id.server";
import {
  addCashEntry,
  cashEntryOf,
  mergeDays,
  nonZeroCash,
  type CashDays,
  type CashEntry,
  type CashLinkFields,
  type CashRow,
} from "./cash";
import {
  addToCashRollups,
  CASH_READ_PAGE,
  deleteCashEntries,
  ensureOverdueCheck,
  readCashEntries,
  storeCashEntries,
} from "./cash-ledger.server";
import { DEFAULT_TIME_ZONE, localDay } from "./days";
import { parcelCollected, parcelOf, SHIPPING_STATUSES } from "../vocabulary/platform-status";

// How a status change's timeline row (its data, JSON) names the shipping statuses of each cash day.
const marksOf = (test: (status: string) => boolean) =>
  SHIPPING_STATUSES.filter(test).map((s) => `"shippingStatus":"${s}"`);
const MARK = {
  delivered: marksOf(parcelCollected),
  paid: marksOf((s) => parcelOf(s) === "paid_out"),
  returned: marksOf((s) => parcelOf(s) === "returned"),
};
const ANY_MARK = [...new Set(Object.values(MARK).flat())];

/** The first day each link was seen delivered (or paid), paid and returned, from its status changes. */
export async function cashDaysFromTimeline(
  db: Db | Prisma.TransactionClient,
  shop: string,
  timeZone = DEFAULT_TIME_ZONE,
): Promise<Map<string, CashDays>> {
  const rows = await db.timelineEvent.findMany({
    where: { shop, kind: "status_changed", OR: ANY_MARK.map((mark) => ({ data: { contains: mark } })) },
    select: { linkId: true, at: true, data: true },
    orderBy: { at: "asc" },
  });
  const days = new Map<string, CashDays>();
  for (const row of rows) {
    const data = row.data ?? "";
    const day = localDay(timeZone, row.at);
    const kept =
      days.get(row.linkId) ??
      days.set(row.linkId, { deliveredDay: null, paidDay: null, returnedDay: null }).get(row.linkId)!;
    const seen = (marks: string[]) => marks.some((mark) => data.includes(mark));
    if (seen(MARK.paid)) kept.paidDay ??= day;
    // Paid out means delivered first.
    if (seen(MARK.delivered)) kept.deliveredDay ??= day;
    if (seen(MARK.returned)) kept.returnedDay ??= day;
  }
  return days;
}

export interface CashRebuildReport {
  links: number;
  /** Parcels in the ledger now (owed, paid or returned). */
  parcels: number;
  /** Rollup rows changed (recount) or written (reset). */
  rows: number;
  ms: number;
}

const REBUILD_SELECT = {
  id: true,
  shop: true,
  orderId: true,
  orderName: true,
  leadRef: true,
  state: true,
  shippingStatus: true,
  totalClient: true,
  sellerProfit: true,
  statusCheckedAt: true,
  updatedAt: true,
} as const satisfies Prisma.OrderLinkSelect;
type RebuildLink = CashLinkFields & { statusCheckedAt: Date | null; updatedAt: Date };

/** A link's entry as the rebuild sees it; null when it is not and never was in the ledger. */
function rebuiltEntry(
  link: RebuildLink,
  timeZone: string,
  fromTimeline: Map<string, CashDays>,
  old: CashEntry | undefined,
): CashEntry | null {
  const entry = cashEntryOf(
    link,
    mergeDays(fromTimeline.get(link.id), old),
    localDay(timeZone, link.statusCheckedAt ?? link.updatedAt),
  );
  return entry.state === null && !old ? null : entry;
}

/**
 * Recounts one shop, a page of links per short transaction (each page's links
 * locked first, so a change arriving meanwhile waits and then reads what was
 * written here), then takes out the entries of links that no longer exist.
 * With `reset`, the rollups are deleted and written again from every entry in
 * one transaction. Either way, a shop that is owed money gets its overdue check.
 */
export async function rebuildCashLedger(
  db: Db,
  shop: string,
  options: { timeZone?: string; reset?: boolean; now?: Date } = {},
): Promise<CashRebuildReport> {
  const timeZone = options.timeZone ?? DEFAULT_TIME_ZONE;
  const started = performance.now();
  const fromTimeline = await cashDaysFromTimeline(db, shop, timeZone);
  const report = options.reset
    ? await resetLedger(db, shop, timeZone, fromTimeline)
    : await recountLedger(db, shop, timeZone, fromTimeline);
  const owed = await db.cashParcel.findFirst({ where: { shop, state: "owed" }, select: { linkId: true } });
  if (owed) await ensureOverdueCheck(db, shop, options.now ?? new Date());
  return { ...report, ms: Math.round(performance.now() - started) };
}

async function recountLedger(
  db: Db,
  shop: string,
  timeZone: string,
  fromTimeline: Map<string, CashDays>,
): Promise<Omit<CashRebuildReport, "ms">> {
  let parcels = 0;
  let rows = 0;
  const links = await forEachLockedLinkPage(
    db,
    shop,
    CASH_READ_PAGE,
    REBUILD_SELECT,
    async (tx, current: RebuildLink[]) => {
      const before = await readCashEntries(
        tx,
        shop,
        current.map((l) => l.id),
      );
      const deltas = new Map<string, CashRow>();
      const entries: CashEntry[] = [];
      for (const link of current) {
        const old = before.get(link.id);
        const entry = rebuiltEntry(link, timeZone, fromTimeline, old);
        if (!entry) continue;
        if (old) addCashEntry(deltas, old, -1);
        addCashEntry(deltas, entry, 1);
        entries.push(entry);
        if (entry.state !== null) parcels++;
      }
      const changed = nonZeroCash(deltas);
      await addToCashRollups(tx, shop, changed);
      await storeCashEntries(tx, entries);
      rows += changed.length;
    },
  );
  rows += await dropGoneEntries(db, shop);
  return { links, parcels, rows };
}

/** Entries of links that no longer exist (erased by the retention setting or by hand): counts out, rows deleted. */
async function dropGoneEntries(db: Db, shop: string): Promise<number> {
  let rows = 0;
  let cursor: string | undefined;
  for (;;) {
    const page = await db.cashParcel.findMany({
      where: { shop, ...(cursor ? { linkId: { gt: cursor } } : {}) },
      select: { linkId: true },
      orderBy: { linkId: "asc" },
      take: CASH_READ_PAGE,
    });
    if (page.length === 0) break;
    cursor = page[page.length - 1].linkId;
    const ids = page.map((p) => p.linkId);
    const present = await shopLinkIds(db, shop, ids);
    const gone = ids.filter((id) => !present.has(id));
    if (gone.length === 0) continue;
    await db.$transaction(async (tx) => {
      const orphans = await readCashEntries(tx, shop, gone);
      const deltas = new Map<string, CashRow>();
      for (const orphan of orphans.values()) addCashEntry(deltas, orphan, -1);
      const changed = nonZeroCash(deltas);
      await addToCashRollups(tx, shop, changed);
      await deleteCashEntries(tx, shop, gone);
      rows += changed.length;
    });
  }
  return rows;
}

/**
 * Deletes the shop's rollups and writes them again from every entry, in one
 * transaction (it holds the write lock throughout). Entries are replaced in
 * place, so a parcel's overdue notice survives.
 */
async function resetLedger(
  db: Db,
  shop: string,
  timeZone: string,
  fromTimeline: Map<string, CashDays>,
): Promise<Omit<CashRebuildReport, "ms">> {
  return db.$transaction(
    async (tx) => {
      await tx.cashDaily.deleteMany({ where: { shop } });
      const deltas = new Map<string, CashRow>();
      let links = 0;
      let parcels = 0;
      const seen = new Set<string>();
      let cursor: string | undefined;
      for (;;) {
        const page: (RebuildLink & { orderId: string })[] = await tx.orderLink.findMany({
          where: { shop, ...(cursor ? { orderId: { gt: cursor } } : {}) },
          select: REBUILD_SELECT,
          orderBy: { orderId: "asc" },
          take: CASH_READ_PAGE,
        });
        if (page.length === 0) break;
        const before = await readCashEntries(
          tx,
          shop,
          page.map((l) => l.id),
        );
        const entries: CashEntry[] = [];
        for (const link of page) {
          seen.add(link.id);
          const entry = rebuiltEntry(link, timeZone, fromTimeline, before.get(link.id));
          if (!entry) continue;
          addCashEntry(deltas, entry, 1);
          entries.push(entry);
          if (entry.state !== null) parcels++;
        }
        await storeCashEntries(tx, entries);
        links += page.length;
        cursor = page[page.length - 1].orderId;
      }
      const stale = (await tx.cashParcel.findMany({ where: { shop }, select: { linkId: true } }))
        .map((p) => p.linkId)
        .filter((id) => !seen.has(id));
      await deleteCashEntries(tx, shop, stale);
      const rows = nonZeroCash(deltas);
      await addToCashRollups(tx, shop, rows);
      return { links, parcels, rows: rows.length };
    },
    { timeout: 15 * 60_000, maxWait: 60_000 },
  );
}
