/**
 * Turns for the fair claim (QueueTurn): one row per shop with waiting jobs, and
 * when the shop was last served. The claim asks the least recently served shops
 * first, so shops take turns whatever the size of each one's backlog
 * (docs/decisions/0004-fair-claim.md).
 *
 * The statements are prepared SQL (app/db/sql): `INSERT ... ON CONFLICT DO
 * NOTHING`, no date parameters (lastServedMs is a number).
 */
import { asNumber, sqlOf, statement, type SqlSource } from "../db/sql";
import { ENSURE_TURN, TAKE_TURN } from "./job-sql";

/** QueueTurn's key for a job's shop: "" stands for jobs without a shop. */
export const turnKey = (shop: string | null | undefined): string => shop ?? "";
export const shopOfTurn = (key: string): string | null => (key === "" ? null : key);

/** Jobs a turn is waiting on; a shop with none of these has no turn. */
const WAITING = `("state" IN ('pending', 'failed', 'running'))`;

/**
 * Gives `shop` a turn if it has none; a new shop goes first (lastServedMs 0).
 * One statement and no error on a duplicate, so it is safe inside an intake
 * transaction on PostgreSQL, where a failed statement would abort the transaction.
 */
export async function ensureTurn(db: SqlSource, shop: string | null | undefined): Promise<void> {
  await sqlOf(db).run(ENSURE_TURN, [turnKey(shop)]);
}

/** The same for several shops (a batch enqueue). */
export async function ensureTurns(db: SqlSource, shops: Iterable<string | null | undefined>): Promise<void> {
  for (const key of new Set([...shops].map(turnKey))) await sqlOf(db).run(ENSURE_TURN, [key]);
}

const DISCOVER_TURNS = statement(`INSERT INTO "QueueTurn" ("shop", "lastServedMs")
  SELECT DISTINCT COALESCE("shop", ''), 0 FROM "Job" WHERE ${WAITING}
  ON CONFLICT ("shop") DO NOTHING`);

/**
 * Gives a turn to every shop with a waiting job and none yet: jobs written by
 * a path that did not call ensureTurn (an older version's rows, a bulk retry).
 * Reads every waiting job, so the worker runs it now and then, not per claim.
 */
export async function discoverTurns(db: SqlSource): Promise<number> {
  return sqlOf(db).run(DISCOVER_TURNS);
}

export interface Turn {
  shop: string | null;
  key: string;
  lastServedMs: number;
}

const NEXT_TURNS = statement(`SELECT "shop", "lastServedMs" FROM "QueueTurn" ORDER BY "lastServedMs", "shop" LIMIT ?`);

/** The `limit` least recently served shops. */
export async function nextTurns(db: SqlSource, limit: number): Promise<Turn[]> {
  const rows = await sqlOf(db).all(NEXT_TURNS, [limit]);
  return rows.map((r) => ({
    shop: shopOfTurn(String(r.shop)),
    key: String(r.shop),
    lastServedMs: asNumber(r.lastServedMs),
  }));
}

/**
 * Moves the shop to the back of the line, if no other worker did since `turn`
 * was read. False: another worker took this turn (it serves the shop now).
 */
export async function takeTurn(db: SqlSource, turn: Turn, nowMs: number): Promise<boolean> {
  // Strictly later than before, even with a clock that does not move (tests).
  const servedMs = Math.max(nowMs, turn.lastServedMs + 1e-3);
  return (await sqlOf(db).run(TAKE_TURN, [servedMs, turn.key, turn.lastServedMs])) === 1;
}

const DROP_IDLE_TURN = statement(`DELETE FROM "QueueTurn" WHERE "shop" = ?
  AND NOT EXISTS (SELECT 1 FROM "Job" WHERE "shop" = ? AND ${WAITING})`);
const DROP_IDLE_NULL_TURN = statement(`DELETE FROM "QueueTurn" WHERE "shop" = ''
  AND NOT EXISTS (SELECT 1 FROM "Job" WHERE "shop" IS NULL AND ${WAITING})`);

/**
 * Removes the shop's turn when it has no waiting job, in one statement. A job
 * enqueued meanwhile keeps its shop's turn because enqueue writes the job first
 * and calls ensureTurn after: either the job blocks this delete, or the delete
 * went first and ensureTurn inserts the row again.
 */
export async function dropTurnIfIdle(db: SqlSource, turn: Turn): Promise<boolean> {
  const deleted =
    turn.shop === null
      ? await sqlOf(db).run(DROP_IDLE_NULL_TURN)
      : await sqlOf(db).run(DROP_IDLE_TURN, [turn.key, turn.shop]);
  return deleted === 1;
}
