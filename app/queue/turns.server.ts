/**
 * Turns for the fair claim (QueueTurn): one row per shop with waiting jobs, and
 * when the shop was last served. The claim asks the least recently served shops
 * first, so shops take turns whatever the size of each one's backlog
 * (docs/decisions/0004-fair-claim.md). The statements are job-sql.ts's.
 */
import { sqlOf, type SqlSource } from "../db/sql";
import { deleteIdleTurn, insertMissingTurns, insertTurn, moveTurn, type TurnRow } from "./job-sql";

/** QueueTurn's key for a job's shop: "" stands for jobs without a shop. */
export const turnKey = (shop: string | null | undefined): string => shop ?? "";
export const shopOfTurn = (key: string): string | null => (key === "" ? null : key);

/**
 * Gives `shop` a turn if it has none; a new shop goes first (lastServedMs 0).
 * One statement and no error on a duplicate, so it is safe inside an intake
 * transaction, where a failed statement would abort the transaction.
 */
export async function ensureTurn(db: SqlSource, shop: string | null | undefined): Promise<void> {
  await insertTurn(sqlOf(db), turnKey(shop));
}

/** The same for several shops (a batch enqueue). */
export async function ensureTurns(db: SqlSource, shops: Iterable<string | null | undefined>): Promise<void> {
  for (const key of new Set([...shops].map(turnKey))) await insertTurn(sqlOf(db), key);
}

/**
 * Gives a turn to every shop with a waiting job and none yet: jobs written by
 * a path that did not call ensureTurn (an older version's rows, a bulk retry).
 * Reads every waiting job, so the worker runs it now and then, not per claim.
 */
export async function discoverTurns(db: SqlSource): Promise<number> {
  return insertMissingTurns(sqlOf(db));
}

export interface Turn extends TurnRow {
  shop: string | null;
}

/**
 * Moves the shop to the back of the line, if no other worker did since `turn`
 * was read. False: another worker took this turn (it serves the shop now).
 */
export async function takeTurn(db: SqlSource, turn: Turn, nowMs: number): Promise<boolean> {
  // Strictly later than before, even with a clock that does not move (tests).
  return moveTurn(sqlOf(db), turn, Math.max(nowMs, turn.lastServedMs + 1e-3));
}

/**
 * Removes the shop's turn when it has no waiting job, in one statement. A job
 * enqueued meanwhile keeps its shop's turn because enqueue writes the job first
 * and calls ensureTurn after: either the job blocks this delete, or the delete
 * went first and ensureTurn inserts the row again.
 */
export async function dropTurnIfIdle(db: SqlSource, turn: Turn): Promise<boolean> {
  return deleteIdleTurn(sqlOf(db), turn.key);
}
