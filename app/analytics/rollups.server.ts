/**
 * Daily rollups kept in step with the order links: the lead-events handler
 * subtracts what each changed link counted for before (its AnalyticsLead row)
 * and adds what it counts for now, inside the transaction that changed it.
 * `rebuildRollups` recounts a shop from its OrderLink rows (`npm run
 * analytics:rebuild`): after a deploy, or if a link changed outside the pipeline.
 */
import { Prisma } from "@prisma/client";
import type { Db } from "../db.server";
import type { LeadEvent, LeadEventHandler } from "../sync/lead-events.server";
import { addFact, factOf, nonZero, type LeadFact, type LinkFields, type RollupDelta } from "./contribution";
import { DEFAULT_TIME_ZONE, localDay } from "./days";
import { isDelivered } from "./status-groups";

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

/** Rows per upsert statement (at most 10 parameters each: well under every driver's limit). */
const UPSERT_ROWS = 200;

/**
 * Adds deltas to the shop's rollup rows: one multi-row INSERT ... ON CONFLICT
 * DO UPDATE by increment per 200 rows. The statement reads the same on SQLite
 * and PostgreSQL, and an increment (never a read then a write) stays right when
 * two transactions touch the same row.
 */
export async function addToRollups(tx: Tx | Db, shop: string, deltas: readonly RollupDelta[]): Promise<void> {
  for (let i = 0; i < deltas.length; i += UPSERT_ROWS) {
    const values = deltas
      .slice(i, i + UPSERT_ROWS)
      .map((d) => Prisma.sql`(${shop}, ${d.grain}, ${d.day}, ${d.cityId}, ${d.productKey}, ${d.statusGroup}, ${d.deliveryDays}, ${d.orders}, ${d.totalCents}, ${d.profitCents})`);
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
export async function applyRollupEvents(tx: Tx, shop: string, events: readonly LeadEvent[], timeZone = DEFAULT_TIME_ZONE): Promise<void> {
  const lastAt = new Map<string, Date>();
  for (const event of events) lastAt.set(event.linkId, event.at);
  const ids = [...lastAt.keys()];
  const links: LinkFields[] = await tx.orderLink.findMany({ where: { shop, id: { in: ids } }, select: LINK_FIELDS });
  const before = new Map((await tx.analyticsLead.findMany({ where: { shop, linkId: { in: ids } } })).map((r) => [r.linkId, fromRow(r)]));

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
  if (gone.length) await tx.analyticsLead.deleteMany({ where: { shop, linkId: { in: gone } } });
  await storeFacts(tx, facts);
}

export const analyticsRollupHandler: LeadEventHandler = (tx, shop, events) => applyRollupEvents(tx, shop, events);

// ---------------------------------------------------------------------------
// Rebuild

const REBUILD_PAGE = 5000;
const DELIVERED_MARKS = ['"shippingStatus":"delivered"', '"shippingStatus":"paid"'];

/**
 * The day each link's parcel was first seen delivered, from the status changes
 * in its timeline (the status sync records each with its time).
 */
export async function deliveredDaysFromTimeline(db: Tx | Db, shop: string, timeZone = DEFAULT_TIME_ZONE): Promise<Map<string, string>> {
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
  rows: number;
  ms: number;
}

/**
 * Recounts one shop's rollups from its OrderLink rows, in one transaction (the
 * handler cannot interleave). A delivery day comes from the timeline, else from
 * the previous count, else from the last status check.
 */
export async function rebuildRollups(db: Db, shop: string, options: { timeZone?: string } = {}): Promise<RebuildReport> {
  const timeZone = options.timeZone ?? DEFAULT_TIME_ZONE;
  const started = performance.now();
  return db.$transaction(
    async (tx) => {
      const fromTimeline = await deliveredDaysFromTimeline(tx, shop, timeZone);
      const kept = new Map(
        (await tx.analyticsLead.findMany({ where: { shop, deliveredDay: { not: null } }, select: { linkId: true, deliveredDay: true } })).map((r) => [
          r.linkId,
          r.deliveredDay!,
        ]),
      );
      await tx.analyticsLead.deleteMany({ where: { shop } });
      await tx.analyticsDaily.deleteMany({ where: { shop } });

      const deltas = new Map<string, RollupDelta>();
      let links = 0;
      let counted = 0;
      let cursor: string | undefined;
      for (;;) {
        const page = await tx.orderLink.findMany({
          where: { shop },
          select: { ...LINK_FIELDS, statusCheckedAt: true, updatedAt: true },
          orderBy: { id: "asc" },
          take: REBUILD_PAGE,
          ...(cursor ? { cursor: { id: cursor }, skip: 1 } : {}),
        });
        if (page.length === 0) break;
        const facts = page.map((link) => {
          const fact = factOf(link, timeZone, fromTimeline.get(link.id) ?? kept.get(link.id) ?? null);
          if (fact.deliveredDay === null && fact.statusGroup !== null && isDelivered(fact.statusGroup)) {
            fact.deliveredDay = localDay(timeZone, link.statusCheckedAt ?? link.updatedAt);
          }
          addFact(deltas, fact, 1);
          if (fact.statusGroup !== null) counted++;
          return fact;
        });
        await storeFacts(tx, facts);
        links += page.length;
        cursor = page[page.length - 1].id;
      }
      const rows = nonZero(deltas);
      await addToRollups(tx, shop, rows);
      return { links, counted, rows: rows.length, ms: Math.round(performance.now() - started) };
    },
    { timeout: 15 * 60_000, maxWait: 60_000 },
  );
}

/** Every shop that has order links (for a rebuild of all shops). */
export async function shopsWithLinks(db: Db): Promise<string[]> {
  const rows = await db.orderLink.groupBy({ by: ["shop"] });
  return rows.map((r) => r.shop).sort();
}
