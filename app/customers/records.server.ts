/**
 * Customer delivery records kept in step with the order links. The lead-events
 * handler re-derives each changed link's contribution (CustomerLead) and then
 * recounts the records of the phone keys it touched from their rows: a constant
 * number of statements per call for a sync batch (two reads, the writes in
 * 200-row statements, one read of the touched keys' rows; reads split by 500 ids).
 * `rebuildCustomerRecords` recounts a shop from its OrderLink rows.
 */
import { Prisma } from "@prisma/client";
import type { Db } from "../db.server";
import { lockKeysForTransaction } from "../db/key-locks";
import { shopLinksByIds } from "../models/links-by-id.server";
import { signedCents } from "../analytics/contribution";
import { deliveryOutcomeOf, type DeliveryOutcome } from "./outcome";
import { NOTHING_RECORDED, recordsOf, type CustomerCounts, type CustomerFact } from "./record";
import { riskLevel, type CustomerHistory, type RiskLevel, type Standing } from "./risk";
import { type LeadEvent, type LeadEventHandler } from "../models/lead-events";

type Tx = Prisma.TransactionClient;

const LINK_FIELDS = {
  id: true,
  phone: true,
  customerId: true,
  orderName: true,
  state: true,
  confirmationStatus: true,
  shippingStatus: true,
  totalClient: true,
  createdAt: true,
} as const satisfies Prisma.OrderLinkSelect;

type LinkRow = Prisma.OrderLinkGetPayload<{ select: typeof LINK_FIELDS }>;

const WRITE_ROWS = 200;
/** Ids per `IN (...)`: pages keep each statement's parameter list bounded, whatever a sync batch carries. */
const READ_PAGE = 500;

/** One query per READ_PAGE values, the rows together. */
async function inPages<T>(values: readonly string[], read: (page: string[]) => Promise<T[]>): Promise<T[]> {
  const rows: T[] = [];
  for (let i = 0; i < values.length; i += READ_PAGE) rows.push(...(await read(values.slice(i, i + READ_PAGE))));
  return rows;
}

/** The link's contribution now; null when it counts for no record. `previous` keeps the date of an unchanged outcome. */
export function factOfLink(
  link: LinkRow,
  at: Date,
  previous?: { outcome: string; outcomeAt: Date },
): CustomerFact | null {
  const outcome = deliveryOutcomeOf(link);
  if (!outcome || !link.phone) return null;
  return {
    linkId: link.id,
    phoneKey: link.phone,
    customerId: link.customerId,
    orderName: link.orderName,
    outcome,
    outcomeAt: previous && previous.outcome === outcome ? previous.outcomeAt : at,
    amountCents: outcome === "delivered" ? Math.max(0, signedCents(link.totalClient)) : 0,
    orderedAt: link.createdAt,
  };
}

async function storeFacts(tx: Tx | Db, shop: string, facts: readonly CustomerFact[]): Promise<void> {
  for (let i = 0; i < facts.length; i += WRITE_ROWS) {
    const values = facts
      .slice(i, i + WRITE_ROWS)
      .map(
        (f) =>
          Prisma.sql`(${f.linkId}, ${shop}, ${f.phoneKey}, ${f.customerId}, ${f.orderName}, ${f.outcome}, ${f.outcomeAt}, ${f.amountCents}, ${f.orderedAt})`,
      );
    await tx.$executeRaw`INSERT INTO "CustomerLead" ("linkId", "shop", "phoneKey", "customerId", "orderName", "outcome", "outcomeAt", "amountCents", "orderedAt")
      VALUES ${Prisma.join(values)}
      ON CONFLICT ("linkId") DO UPDATE SET
        "phoneKey" = excluded."phoneKey", "customerId" = excluded."customerId", "orderName" = excluded."orderName",
        "outcome" = excluded."outcome", "outcomeAt" = excluded."outcomeAt", "amountCents" = excluded."amountCents",
        "orderedAt" = excluded."orderedAt"`;
  }
}

/** Writes the counts; the merchant's standing on a phone is never touched here. */
async function storeRecords(tx: Tx | Db, shop: string, records: readonly CustomerCounts[]): Promise<void> {
  for (let i = 0; i < records.length; i += WRITE_ROWS) {
    const values = records
      .slice(i, i + WRITE_ROWS)
      .map(
        (r) =>
          Prisma.sql`(${shop}, ${r.phoneKey}, ${r.customerId}, ${r.orders}, ${r.delivered}, ${r.returned}, ${r.refused}, ${r.cancelled}, ${r.wrongNumber}, ${r.inProgress}, ${r.lastOutcome}, ${r.lastOutcomeAt}, ${BigInt(r.collectedCents)}, ${r.firstOrderAt}, ${r.lastOrderAt})`,
      );
    await tx.$executeRaw`INSERT INTO "CustomerRecord" ("shop", "phoneKey", "customerId", "orders", "delivered", "returned", "refused", "cancelled", "wrongNumber", "inProgress", "lastOutcome", "lastOutcomeAt", "collectedCents", "firstOrderAt", "lastOrderAt")
      VALUES ${Prisma.join(values)}
      ON CONFLICT ("shop", "phoneKey") DO UPDATE SET
        "customerId" = COALESCE(excluded."customerId", "CustomerRecord"."customerId"), "orders" = excluded."orders",
        "delivered" = excluded."delivered", "returned" = excluded."returned", "refused" = excluded."refused",
        "cancelled" = excluded."cancelled", "wrongNumber" = excluded."wrongNumber", "inProgress" = excluded."inProgress",
        "lastOutcome" = excluded."lastOutcome", "lastOutcomeAt" = excluded."lastOutcomeAt",
        "collectedCents" = excluded."collectedCents", "firstOrderAt" = excluded."firstOrderAt", "lastOrderAt" = excluded."lastOrderAt"`;
  }
}

const factFromRow = (r: {
  linkId: string;
  phoneKey: string;
  customerId: string | null;
  orderName: string;
  outcome: string;
  outcomeAt: Date;
  amountCents: number;
  orderedAt: Date;
}): CustomerFact => ({ ...r, outcome: r.outcome as DeliveryOutcome });

/** The lead-events handler: see the module comment for its statements. */
export async function applyCustomerEvents(tx: Tx, shop: string, events: readonly LeadEvent[]): Promise<void> {
  const lastAt = new Map<string, Date>();
  for (const event of events) lastAt.set(event.linkId, event.at);
  const ids = [...lastAt.keys()];
  const links = await shopLinksByIds(tx, shop, ids, LINK_FIELDS);
  const previous = await inPages(ids, (page) =>
    tx.customerLead.findMany({
      where: { shop, linkId: { in: page } },
      select: { linkId: true, phoneKey: true, outcome: true, outcomeAt: true },
    }),
  );
  const before = new Map(previous.map((r) => [r.linkId, r]));
  const facts: CustomerFact[] = [];
  for (const link of links) {
    const fact = factOfLink(link, lastAt.get(link.id)!, before.get(link.id));
    if (fact) facts.push(fact);
  }
  const counted = new Set(facts.map((f) => f.linkId));
  const gone = [...before.keys()].filter((id) => !counted.has(id));
  const keys = new Set([...facts.map((f) => f.phoneKey), ...[...before.values()].map((r) => r.phoneKey)]);
  if (keys.size === 0) return;
  // The counts below are recounted from the key's rows: one transaction per key at a time.
  await lockKeysForTransaction(tx, `customer-record:${shop}`, keys);

  await inPages(gone, async (page) => [await tx.customerLead.deleteMany({ where: { shop, linkId: { in: page } } })]);
  await storeFacts(tx, shop, facts);
  const rows = await inPages([...keys], (page) =>
    tx.customerLead.findMany({ where: { shop, phoneKey: { in: page } } }),
  );
  await storeRecords(tx, shop, [...recordsOf(keys, rows.map(factFromRow)).values()]);
}

export const customerRecordHandler: LeadEventHandler = (tx, shop, events) => applyCustomerEvents(tx, shop, events);

/** What the hold rule reads for one phone: its standing and its earlier outcomes (one indexed read each). */
export async function customerHistory(
  db: Tx | Db,
  shop: string,
  phoneKey: string,
  exceptLinkId?: string,
): Promise<CustomerHistory> {
  const [record, outcomes] = await Promise.all([
    db.customerRecord.findUnique({ where: { shop_phoneKey: { shop, phoneKey } }, select: { standing: true } }),
    db.customerLead.findMany({
      where: { shop, phoneKey, ...(exceptLinkId ? { linkId: { not: exceptLinkId } } : {}) },
      select: { outcome: true, outcomeAt: true },
    }),
  ]);
  return {
    standing: record?.standing === "blocked" || record?.standing === "trusted" ? record.standing : null,
    outcomes: outcomes.map((o) => ({ outcome: o.outcome as DeliveryOutcome, at: o.outcomeAt })),
  };
}

/** The merchant blocks, trusts or clears a phone (a record row is created if the phone has none yet). */
export async function setStanding(db: Db, shop: string, phoneKey: string, standing: Standing | null): Promise<void> {
  await db.customerRecord.upsert({
    where: { shop_phoneKey: { shop, phoneKey } },
    create: { shop, phoneKey, standing },
    update: { standing },
  });
}

// ---------------------------------------------------------------------------
// Rebuild

const REBUILD_PAGE = 5000;

export interface CustomerRebuildReport {
  links: number;
  counted: number;
  records: number;
  ms: number;
}

/**
 * Recounts a shop's records from its OrderLink rows, in one transaction. An
 * outcome's date is the link's last status change on its timeline (else when
 * it was sent). Standings are kept; a record with no order left keeps its row
 * only if it has one.
 */
export async function rebuildCustomerRecords(
  db: Db,
  shop: string,
  now: () => number = Date.now,
): Promise<CustomerRebuildReport> {
  const started = now();
  return db.$transaction(
    async (tx) => {
      const changedAt = new Map<string, Date>();
      const marks = await tx.timelineEvent.findMany({
        where: { shop, kind: "status_changed" },
        select: { linkId: true, at: true },
        orderBy: { at: "asc" },
      });
      for (const mark of marks) changedAt.set(mark.linkId, mark.at);

      const facts: CustomerFact[] = [];
      let links = 0;
      let cursor: string | undefined;
      for (;;) {
        const page = await tx.orderLink.findMany({
          where: { shop, phone: { not: null } },
          select: { ...LINK_FIELDS, postedAt: true },
          orderBy: { id: "asc" },
          take: REBUILD_PAGE,
          ...(cursor ? { cursor: { id: cursor }, skip: 1 } : {}),
        });
        if (page.length === 0) break;
        links += page.length;
        cursor = page.at(-1)!.id;
        for (const link of page) {
          const fact = factOfLink(link, changedAt.get(link.id) ?? link.postedAt ?? link.createdAt);
          if (fact) facts.push(fact);
        }
      }
      await tx.customerLead.deleteMany({ where: { shop } });
      await tx.customerRecord.deleteMany({ where: { shop, standing: null } });
      await tx.customerRecord.updateMany({
        where: { shop },
        data: NOTHING_RECORDED,
      });
      await storeFacts(tx, shop, facts);
      const records = [...recordsOf([], facts).values()];
      await storeRecords(tx, shop, records);
      return { links, counted: facts.length, records: records.length, ms: now() - started };
    },
    { timeout: 600_000, maxWait: 60_000 },
  );
}

/** Shops with at least one order link. */
export async function shopsWithOrders(db: Db): Promise<string[]> {
  return (await db.orderLink.findMany({ distinct: ["shop"], select: { shop: true } })).map((r) => r.shop);
}

/** The risk of each phone (the Orders risk column, the Anomalies customer holds): one read of at most a page of records. */
export async function risksOfPhones(db: Db, shop: string, phones: string[]): Promise<Map<string, RiskLevel>> {
  if (phones.length === 0) return new Map();
  const records = await db.customerRecord.findMany({
    where: { shop, phoneKey: { in: [...new Set(phones)] } },
    select: {
      phoneKey: true,
      standing: true,
      delivered: true,
      returned: true,
      refused: true,
      cancelled: true,
      wrongNumber: true,
    },
  });
  return new Map(records.map((r) => [r.phoneKey, riskLevel(r)]));
}
