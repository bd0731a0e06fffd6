/**
 * Daily rollups kept in step with the order links: the lead-events handler
 * subtracts what each changed link counted for before (its AnalyticsLead row)
 * and adds what it counts for now, inside the transaction that changed it.
 * `rebuildRollups` recounts a shop from its OrderLink rows (`npm run
 * analytics:rebuild`): after a deploy, or if a link changed outside the pipeline.
 */
import { Prisma } from "@prisma/client";
import type { Db } from "../db.server";
import { forEachLockedLinkPage, shopLinkIds, shopLinksByIds } from "../models/links-by-id.server";
import { addFact, factOf, nonZero, type LeadFact, type LinkFields, type RollupDelta } from "./contribution";
import { DEFAULT_TIME_ZONE, localDay } from "./days";
import { isDelivered } from "../vocabulary/status-groups";
import { parcelCollected, SHIPPING_STATUSES } from "../vocabulary/platform-status";
import { type LeadEvent, type LeadEventHandler } from "../models/lead-events";

type Tx = Prisma.TransactionClient;

export const LINK_FIELDS = {
  id: true,
  shop: true,
  createdAt: true,
  state: true,
  confirmationStatus: true,
  shippingStatus: true,
  cityId: true,
  productKeys: true,
  totalClient: true,
  sellerProfit: true,
} as const satisfies Prisma.OrderLinkSelect;

/** Ids per read: pages keep each statement's parameter list bounded. */
const READ_PAGE = 500;

/** Rows per upsert statement (at most 10 parameters each: well under every driver's limit). */
const UPSERT_ROWS = 200;

/**
 * Adds deltas to the shop's rollup rows: one multi-row INSERT ... ON CONFLICT
 * DO UPDATE by increment per 200 rows. An increment (never a read then a write)
 * stays right when two transactions touch the same row.
 */
export async function addToRollups(tx: Tx | Db, shop: string, deltas: readonly RollupDelta[]): Promise<void> {
  for (let i = 0; i < deltas.length; i += UPSERT_ROWS) {
    const values = deltas
      .slice(i, i + UPSERT_ROWS)
      .map(
        (d) =>
          Prisma.sql`(${shop}, ${d.grain}, ${d.day}, ${d.cityId}, ${d.productKey}, ${d.statusGroup}, ${d.deliveryDays}, ${d.orders}, ${d.totalCents}, ${d.profitCents})`,
      );
    await tx.$executeRaw`INSERT INTO "AnalyticsDaily" ("shop", "grain", "day", "cityId", "productKey", "statusGroup", "deliveryDays", "orders", "totalCents", "profitCents")
      VALUES ${Prisma.join(values)}
      ON CONFLICT ("shop", "grain", "day", "cityId", "productKey", "statusGroup", "deliveryDays") DO UPDATE SET
        "orders" = "AnalyticsDaily"."orders" + excluded."orders",
        "totalCents" = "AnalyticsDaily"."totalCents" + excluded."totalCents",
        "profitCents" = "AnalyticsDaily"."profitCents" + excluded."profitCents"`;
  }
}

/** Stores what each link counts for now, replacing what it counted before (one statement per 200 links). */
export async function storeFacts(tx: Tx | Db, facts: readonly LeadFact[]): Promise<void> {
  for (let i = 0; i < facts.length; i += UPSERT_ROWS) {
    const values = facts
      .slice(i, i + UPSERT_ROWS)
      .map(
        (f) =>
          Prisma.sql`(${f.linkId}, ${f.shop}, ${f.day}, ${f.cityId}, ${JSON.stringify(f.productKeys)}, ${f.statusGroup}, ${f.totalCents}, ${f.profitCents}, ${f.deliveredDay})`,
      );
    await tx.$executeRaw`INSERT INTO "AnalyticsLead" ("linkId", "shop", "day", "cityId", "productKeys", "statusGroup", "totalCents", "profitCents", "deliveredDay")
      VALUES ${Prisma.join(values)}
      ON CONFLICT ("linkId") DO UPDATE SET
        "day" = excluded."day", "cityId" = excluded."cityId", "productKeys" = excluded."productKeys",
        "statusGroup" = excluded."statusGroup", "totalCents" = excluded."totalCents",
        "profitCents" = excluded."profitCents", "deliveredDay" = excluded."deliveredDay"`;
  }
}

const fromRow = (r: {
  linkId: string;
  shop: string;
  day: string;
  cityId: number;
  productKeys: string;
  statusGroup: string | null;
  totalCents: bigint;
  profitCents: bigint;
  deliveredDay: string | null;
}): LeadFact => ({
  ...r,
  productKeys: JSON.parse(r.productKeys) as string[],
  statusGroup: r.statusGroup as LeadFact["statusGroup"],
  totalCents: Number(r.totalCents),
  profitCents: Number(r.profitCents),
});

/**
 * The lead-events handler. Two batched reads per call whatever the number of
 * events (the status sync applies hundreds at once): the links as they are now
 * and what they counted for before; then one upsert per 200 changed rollup rows
 * and one per 200 facts.
 */
export async function applyRollupEvents(
  tx: Tx,
  shop: string,
  events: readonly LeadEvent[],
  timeZone = DEFAULT_TIME_ZONE,
): Promise<void> {
  const lastAt = new Map<string, Date>();
  for (const event of events) lastAt.set(event.linkId, event.at);
  const ids = [...lastAt.keys()];
  const links: LinkFields[] = [];
  const before = new Map<string, LeadFact>();
  // Callers pass a status-sync batch at most; larger calls are read in pages under Prisma's parameter cap.
  for (let i = 0; i < ids.length; i += READ_PAGE) {
    const page = ids.slice(i, i + READ_PAGE);
    links.push(...(await shopLinksByIds(tx, shop, page, LINK_FIELDS)));
    for (const r of await tx.analyticsLead.findMany({ where: { shop, linkId: { in: page } } }))
      before.set(r.linkId, fromRow(r));
  }

  const deltas = new Map<string, RollupDelta>();
  const facts: LeadFact[] = [];
  for (const link of links) {
    const old = before.get(link.id);
    const fact = factOf(link, timeZone, old?.deliveredDay ?? null);
    // The first time the parcel is seen delivered is its delivery day.
    if (fact.deliveredDay === null && fact.statusGroup !== null && isDelivered(fact.statusGroup)) {
      fact.deliveredDay = localDay(timeZone, lastAt.get(link.id)!);
    }
    if (old) addFact(deltas, old, -1);
    addFact(deltas, fact, 1);
    facts.push(fact);
  }
  // A link gone since (shop data erased): its old contribution goes with it.
  const present = new Set(links.map((l) => l.id));
  const gone = ids.filter((id) => before.has(id) && !present.has(id));
  for (const id of gone) addFact(deltas, before.get(id)!, -1);

  await addToRollups(tx, shop, nonZero(deltas));
  for (let i = 0; i < gone.length; i += READ_PAGE)
    await tx.analyticsLead.deleteMany({ where: { shop, linkId: { in: gone.slice(i, i + READ_PAGE) } } });
  await storeFacts(tx, facts);
}

export const analyticsRollupHandler: LeadEventHandler = (tx, shop, events) => applyRollupEvents(tx, shop, events);

// ---------------------------------------------------------------------------
// Rebuild

const REBUILD_PAGE = READ_PAGE;
// How a status change's timeline row (its data, JSON) names a shipping status at which the parcel was delivered.
const DELIVERED_MARKS = SHIPPING_STATUSES.filter(parcelCollected).map((s) => `"shippingStatus":"${s}"`);

/**
 * The day each link's parcel was first seen delivered, from the status changes
 * in its timeline (the status sync records each with its time).
 */
export async function deliveredDaysFromTimeline(
  db: Tx | Db,
  shop: string,
  timeZone = DEFAULT_TIME_ZONE,
): Promise<Map<string, string>> {
  const rows = await db.timelineEvent.findMany({
    where: { shop, kind: "status_changed", OR: DELIVERED_MARKS.map((mark) => ({ data: { contains: mark } })) },
    select: { linkId: true, at: true },
    orderBy: { at: "asc" },
  });
  const days = new Map<string, string>();
  for (const row of rows) if (!days.has(row.linkId)) days.set(row.linkId, localDay(timeZone, row.at));
  return days;
}

export interface RebuildReport {
  links: number;
  counted: number;
  /** Rollup rows written (reset) or changed (recount). */
  rows: number;
  ms: number;
}

type RebuildLink = LinkFields & { statusCheckedAt: Date | null; updatedAt: Date };

/** A link's contribution as the rebuild sees it: delivery day from the timeline, else the previous count, else the last status check. */
function rebuiltFact(link: RebuildLink, timeZone: string, deliveredDay: string | null): LeadFact {
  const fact = factOf(link, timeZone, deliveredDay);
  if (fact.deliveredDay === null && fact.statusGroup !== null && isDelivered(fact.statusGroup)) {
    fact.deliveredDay = localDay(timeZone, link.statusCheckedAt ?? link.updatedAt);
  }
  return fact;
}

const REBUILD_SELECT = { ...LINK_FIELDS, statusCheckedAt: true, updatedAt: true } as const;

/**
 * Recounts one shop's rollups from its OrderLink rows, a page of links per short
 * transaction (intake and the status sync keep running between them): each link's
 * previous contribution is replaced by what it counts for now, and counts of links
 * that no longer exist are taken out. With `reset`, everything is deleted and
 * counted again in one transaction (it holds the write lock throughout): for
 * rollup rows that no longer match what their links counted for.
 */
export async function rebuildRollups(
  db: Db,
  shop: string,
  options: { timeZone?: string; reset?: boolean } = {},
): Promise<RebuildReport> {
  const timeZone = options.timeZone ?? DEFAULT_TIME_ZONE;
  const started = performance.now();
  const fromTimeline = await deliveredDaysFromTimeline(db, shop, timeZone);
  const report = options.reset
    ? await resetRollups(db, shop, timeZone, fromTimeline)
    : await recountRollups(db, shop, timeZone, fromTimeline);
  return { ...report, ms: Math.round(performance.now() - started) };
}

async function recountRollups(
  db: Db,
  shop: string,
  timeZone: string,
  fromTimeline: Map<string, string>,
): Promise<Omit<RebuildReport, "ms">> {
  let counted = 0;
  let rows = 0;
  const links = await forEachLockedLinkPage(
    db,
    shop,
    REBUILD_PAGE,
    REBUILD_SELECT,
    async (tx, current: RebuildLink[]) => {
      const ids = current.map((l) => l.id);
      const before = new Map(
        (await tx.analyticsLead.findMany({ where: { shop, linkId: { in: ids } } })).map((r) => [r.linkId, fromRow(r)]),
      );
      const deltas = new Map<string, RollupDelta>();
      const facts = current.map((link) => {
        const old = before.get(link.id);
        const fact = rebuiltFact(link, timeZone, fromTimeline.get(link.id) ?? old?.deliveredDay ?? null);
        if (old) addFact(deltas, old, -1);
        addFact(deltas, fact, 1);
        if (fact.statusGroup !== null) counted++;
        return fact;
      });
      const changed = nonZero(deltas);
      await addToRollups(tx, shop, changed);
      await storeFacts(tx, facts);
      rows += changed.length;
    },
  );
  // Counts of links that are gone (erased by the retention setting or by hand).
  let factCursor: string | undefined;
  for (;;) {
    const facts = await db.analyticsLead.findMany({
      where: { shop, ...(factCursor ? { linkId: { gt: factCursor } } : {}) },
      select: { linkId: true },
      orderBy: { linkId: "asc" },
      take: REBUILD_PAGE,
    });
    if (facts.length === 0) break;
    factCursor = facts[facts.length - 1].linkId;
    const ids = facts.map((f) => f.linkId);
    const present = await shopLinkIds(db, shop, ids);
    const gone = ids.filter((id) => !present.has(id));
    if (gone.length === 0) continue;
    await db.$transaction(async (tx) => {
      const orphans = await tx.analyticsLead.findMany({ where: { shop, linkId: { in: gone } } });
      const deltas = new Map<string, RollupDelta>();
      for (const orphan of orphans) addFact(deltas, fromRow(orphan), -1);
      const changed = nonZero(deltas);
      await addToRollups(tx, shop, changed);
      await tx.analyticsLead.deleteMany({ where: { shop, linkId: { in: gone } } });
      rows += changed.length;
    });
  }
  return { links, counted, rows };
}

async function resetRollups(
  db: Db,
  shop: string,
  timeZone: string,
  fromTimeline: Map<string, string>,
): Promise<Omit<RebuildReport, "ms">> {
  return db.$transaction(
    async (tx) => {
      const kept = new Map(
        (
          await tx.analyticsLead.findMany({
            where: { shop, deliveredDay: { not: null } },
            select: { linkId: true, deliveredDay: true },
          })
        ).map((r) => [r.linkId, r.deliveredDay!]),
      );
      await tx.analyticsLead.deleteMany({ where: { shop } });
      await tx.analyticsDaily.deleteMany({ where: { shop } });
      const deltas = new Map<string, RollupDelta>();
      let links = 0;
      let counted = 0;
      let cursor: string | undefined;
      for (;;) {
        const page: (RebuildLink & { orderId: string })[] = await tx.orderLink.findMany({
          where: { shop, ...(cursor ? { orderId: { gt: cursor } } : {}) },
          select: { ...REBUILD_SELECT, orderId: true },
          orderBy: { orderId: "asc" },
          take: REBUILD_PAGE,
        });
        if (page.length === 0) break;
        const facts = page.map((link) => {
          const fact = rebuiltFact(link, timeZone, fromTimeline.get(link.id) ?? kept.get(link.id) ?? null);
          addFact(deltas, fact, 1);
          if (fact.statusGroup !== null) counted++;
          return fact;
        });
        await storeFacts(tx, facts);
        links += page.length;
        cursor = page[page.length - 1].orderId;
      }
      const rows = nonZero(deltas);
      await addToRollups(tx, shop, rows);
      return { links, counted, rows: rows.length };
    },
    { timeout: 15 * 60_000, maxWait: 60_000 },
  );
}

/** Every shop that has order links (for a rebuild of all shops). */
export async function shopsWithLinks(db: Db): Promise<string[]> {
  const rows = await db.orderLink.groupBy({ by: ["shop"] });
  return rows.map((r) => r.shop).sort();
}
