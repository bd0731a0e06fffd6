/**
 * What happened to a shop's orders, told once to every feature that keeps
 * something derived from it (Flow triggers, analytics rollups, customer
 * records, the cash ledger, the conversion feed, the status-sync schedule). A retried
 * job or a sync that sees the same status twice produces no event the second
 * time (the link's state no longer differs).
 *
 * One way in: the door that changes a link (app/models/link-moves.server.ts)
 * records its event in PendingLeadEvent, in the transaction that changed the
 * link, whoever made the change (the pipeline, the merchant, Shopify, the
 * status sync); the worker tells them in batches (`tellPendingLeadEvents`), a
 * shop's batch in one transaction that deletes its rows, so each event is told
 * exactly once and a burst of events costs the handlers' few statements once,
 * not once per lead. The handlers derive their rows from the links as they are
 * when told.
 */
import type { Prisma, PrismaClient } from "@prisma/client";
import { sameSnapshot, type LeadEvent, type LeadEventHandler, type LeadSnapshot } from "../models/lead-events";
import { queueFlowTriggers } from "../flow/flow-triggers.server";
import { analyticsRollupHandler } from "../analytics/rollups.server";
import { customerRecordHandler } from "../customers/records.server";
import { cashLedgerHandler } from "../analytics/cash-ledger.server";
import { adFeedHandler } from "../ad-feed/feed-events.server";
import { asDate, asNumber, sqlOf, statement, type Sql } from "../db/sql";
import type { WorkerTask } from "../queue/types";
import { ensureSyncScheduled } from "./sync-schedule.server";

/** Consumers, in the order they run. Each feature adds its handler here. */
const handlers: LeadEventHandler[] = [
  queueFlowTriggers,
  analyticsRollupHandler,
  customerRecordHandler,
  cashLedgerHandler,
  adFeedHandler,
  scheduleSyncHandler,
];

/** Tells the events to every handler, inside the caller's transaction (the teller's batch; tests). */
export async function applyLeadEvents(tx: Prisma.TransactionClient, shop: string, events: LeadEvent[]): Promise<void> {
  const changed = events.filter((e) => !sameSnapshot(e.before, e.after));
  if (changed.length === 0) return;
  for (const handler of handlers) await handler(tx, shop, changed);
}

/** A lead created needs a status sync coming: woken, never pushed back. */
async function scheduleSyncHandler(tx: Prisma.TransactionClient, shop: string, events: LeadEvent[]): Promise<void> {
  if (events.some((e) => e.kind === "answered")) await ensureSyncScheduled(tx, shop, new Date());
}

// ---------------------------------------------------------------------------
// Told later, in batches

const SHOPS_WAITING = statement(`SELECT DISTINCT "shop" FROM "PendingLeadEvent" LIMIT ?`);
const BATCH_OF_SHOP = statement(
  `SELECT "id", "linkId", "event", "at", "attempts" FROM "PendingLeadEvent" WHERE "shop" = ? ORDER BY "id" LIMIT ?`,
);
const DELETE_TOLD = statement(`DELETE FROM "PendingLeadEvent" WHERE "id" = ANY(?)`);
const COUNT_FAILED = statement(`UPDATE "PendingLeadEvent" SET "attempts" = "attempts" + 1 WHERE "id" = ?`);
/** One teller per shop at a time. */
const TRY_LOCK_SHOP = statement(`SELECT pg_try_advisory_xact_lock(hashtextextended(?, 0)) AS "locked"`);

/** Events told per transaction. */
export const LEAD_EVENTS_BATCH = 500;
/** Shops looked at per run. */
const SHOPS_PER_RUN = 20;
/** Failed batches an event may be part of before it is told alone, then given up with an error in the log. */
const MAX_ATTEMPTS = 3;

interface Pending {
  id: string;
  event: LeadEvent;
  attempts: number;
}

function pendingOf(row: Record<string, unknown>): Pending {
  const stored = JSON.parse(String(row.event)) as {
    kind: LeadEvent["kind"];
    before: LeadSnapshot | null;
    after: LeadSnapshot;
  };
  return {
    id: String(row.id),
    attempts: asNumber(row.attempts),
    event: {
      linkId: String(row.linkId),
      kind: stored.kind,
      before: stored.before,
      after: stored.after,
      at: asDate(row.at)!,
    },
  };
}

export interface TellReport {
  shops: number;
  told: number;
  /** Some shop had more than one batch waiting: run again soon. */
  more: boolean;
}

/**
 * Tells the recorded events to the handlers: per shop, a batch of up to
 * LEAD_EVENTS_BATCH in one transaction that also deletes them. A batch that
 * fails is told again event by event; an event that keeps failing alone is
 * given up (logged), so one bad row never holds back the shop's others.
 */
export async function tellPendingLeadEvents(
  db: PrismaClient,
  logger: Pick<Console, "error"> = console,
): Promise<TellReport> {
  const sql = sqlOf(db);
  const shops = (await sql.all(SHOPS_WAITING, [SHOPS_PER_RUN])).map((r) => String(r.shop));
  const report: TellReport = { shops: shops.length, told: 0, more: shops.length === SHOPS_PER_RUN };
  for (const shop of shops) {
    try {
      const told = await tellBatch(db, shop);
      report.told += told.count;
      if (told.full) report.more = true;
    } catch (error) {
      report.told += await tellOneByOne(db, shop, logger, error);
    }
  }
  return report;
}

async function lockShop(tx: Sql, shop: string): Promise<boolean> {
  const [row] = await tx.all(TRY_LOCK_SHOP, [`lead-events:${shop}`]);
  return row?.locked === true;
}

async function tellBatch(db: PrismaClient, shop: string): Promise<{ count: number; full: boolean }> {
  return db.$transaction(
    async (tx) => {
      const sql = sqlOf(tx);
      if (!(await lockShop(sql, shop))) return { count: 0, full: false };
      const batch = (await sql.all(BATCH_OF_SHOP, [shop, LEAD_EVENTS_BATCH])).map(pendingOf);
      if (batch.length === 0) return { count: 0, full: false };
      // Events that made a batch fail before are told alone (tellOneByOne).
      if (batch.some((p) => p.attempts > 0)) throw new Error("a batch holds events that failed before");
      await applyLeadEvents(
        tx,
        shop,
        batch.map((p) => p.event),
      );
      await sql.run(DELETE_TOLD, [batch.map((p) => p.id)]);
      return { count: batch.length, full: batch.length === LEAD_EVENTS_BATCH };
    },
    { timeout: 60_000, maxWait: 30_000 },
  );
}

async function tellOneByOne(
  db: PrismaClient,
  shop: string,
  logger: Pick<Console, "error">,
  cause: unknown,
): Promise<number> {
  const sql = sqlOf(db);
  const batch = (await sql.all(BATCH_OF_SHOP, [shop, LEAD_EVENTS_BATCH])).map(pendingOf);
  let told = 0;
  for (const pending of batch) {
    try {
      await db.$transaction(async (tx) => {
        const inTx = sqlOf(tx);
        if (!(await lockShop(inTx, shop))) return;
        await applyLeadEvents(tx, shop, [pending.event]);
        await inTx.run(DELETE_TOLD, [[pending.id]]);
      });
      told++;
    } catch (error) {
      if (pending.attempts + 1 >= MAX_ATTEMPTS) {
        await sql.run(DELETE_TOLD, [[pending.id]]);
        logger.error(
          `lead event ${pending.event.kind} of link ${pending.event.linkId} (${shop}) given up after ${MAX_ATTEMPTS} failed tries: ${(error as Error).message ?? error}`,
        );
      } else {
        await sql.run(COUNT_FAILED, [pending.id]);
      }
    }
  }
  if (told === 0 && batch.length > 0)
    logger.error(`lead events of ${shop} could not be told: ${(cause as Error).message ?? cause}`);
  return told;
}

/** How often the worker tells the recorded events: the batch a burst becomes. */
export const LEAD_EVENTS_EVERY_MS = 2000;

/** The worker task (app/queue): tells recorded events every LEAD_EVENTS_EVERY_MS, at once again while batches are full. */
export function leadEventsTask(db: PrismaClient, logger: Pick<Console, "error"> = console): WorkerTask {
  return {
    name: "lead-events",
    everyMs: LEAD_EVENTS_EVERY_MS,
    run: async () => {
      const report = await tellPendingLeadEvents(db, logger);
      return { handled: report.told, more: report.more };
    },
  };
}
