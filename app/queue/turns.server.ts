/**
 * Turns for the fair claim (QueueTurn): one row per shop with waiting jobs, and
 * when the shop was last served. The claim asks the least recently served shops
 * first, so shops take turns whatever the size of each one's backlog
 * (docs/decisions/0004-fair-claim.md).
 *
 * The raw statements here are plain SQL that SQLite (3.24+) and PostgreSQL both
 * accept as written: quoted identifiers, `INSERT ... ON CONFLICT DO NOTHING`, no
 * date parameters (lastServedMs is a number). Prisma's tagged templates bind the
 * parameters in each database's style, so no per-dialect variant is needed.
 */
import { Prisma } from "@prisma/client";
import type { QueueDb } from "./types";

/** QueueTurn's key for a job's shop: "" stands for jobs without a shop. */
export const turnKey = (shop: string | null | undefined): string => shop ?? "";
const shopOf = (key: string): string | null => (key === "" ? null : key);

/** Jobs a turn is waiting on; a shop with none of these has no turn. */
const WAITING = Prisma.sql`("state" IN ('pending', 'failed', 'running'))`;

/**
 * Gives `shop` a turn if it has none; a new shop goes first (lastServedMs 0).
 * One statement and no error on a duplicate, so it is safe inside an intake
 * transaction on PostgreSQL, where a failed statement would abort the transaction.
 */
export async function ensureTurn(db: QueueDb, shop: string | null | undefined): Promise<void> {
  await db.$executeRaw`INSERT INTO "QueueTurn" ("shop", "lastServedMs") VALUES (${turnKey(shop)}, 0) ON CONFLICT ("shop") DO NOTHING`;
}

/** The same for several shops (a batch enqueue). */
export async function ensureTurns(db: QueueDb, shops: Iterable<string | null | undefined>): Promise<void> {
  for (const key of new Set([...shops].map(turnKey))) await ensureTurn(db, key === "" ? null : key);
}

/**
 * Gives a turn to every shop with a waiting job and none yet: jobs written by
 * a path that did not call ensureTurn (an older version's rows, a bulk retry).
 * Reads every waiting job, so the worker runs it now and then, not per claim.
 */
export async function discoverTurns(db: QueueDb): Promise<number> {
  // SQLite needs the WHERE for INSERT ... SELECT ... ON CONFLICT to parse.
  return db.$executeRaw`INSERT INTO "QueueTurn" ("shop", "lastServedMs")
    SELECT DISTINCT COALESCE("shop", ''), 0 FROM "Job" WHERE ${WAITING}
    ON CONFLICT ("shop") DO NOTHING`;
}

export interface Turn {
  shop: string | null;
  key: string;
  lastServedMs: number;
}

/** The `limit` least recently served shops. */
export async function nextTurns(db: QueueDb, limit: number): Promise<Turn[]> {
  const rows = await db.queueTurn.findMany({ orderBy: [{ lastServedMs: "asc" }, { shop: "asc" }], take: limit });
  return rows.map((r) => ({ shop: shopOf(r.shop), key: r.shop, lastServedMs: r.lastServedMs }));
}

/**
 * Moves the shop to the back of the line, if no other worker did since `turn`
 * was read. False: another worker took this turn (it serves the shop now).
 */
export async function takeTurn(db: QueueDb, turn: Turn, nowMs: number): Promise<boolean> {
  // Strictly later than before, even with a clock that does not move (tests).
  const servedMs = Math.max(nowMs, turn.lastServedMs + 1e-3);
  // Raw: Prisma wraps each update in a transaction of its own and compiles it
  // again, several times the statement's cost on every claim.
  const count = await db.$executeRaw`UPDATE "QueueTurn" SET "lastServedMs" = ${servedMs} WHERE "shop" = ${turn.key} AND "lastServedMs" = ${turn.lastServedMs}`;
  return count === 1;
}

/**
 * Removes the shop's turn when it has no waiting job, in one statement. A job
 * enqueued meanwhile keeps its shop's turn because enqueue writes the job first
 * and calls ensureTurn after: either the job blocks this delete, or the delete
 * went first and ensureTurn inserts the row again.
 */
export async function dropTurnIfIdle(db: QueueDb, turn: Turn): Promise<boolean> {
  const jobsOfShop = turn.shop === null ? Prisma.sql`"shop" IS NULL` : Prisma.sql`"shop" = ${turn.shop}`;
  const deleted = await db.$executeRaw`DELETE FROM "QueueTurn" WHERE "shop" = ${turn.key}
    AND NOT EXISTS (SELECT 1 FROM "Job" WHERE ${jobsOfShop} AND ${WAITING})`;
  return deleted === 1;
}
