/**
 * The Seller Order API call log (ApiCall, read by the Activity page), written
 * in batches: each call's row waits in memory for a short timer, and the rows
 * of that moment go in one insert, so logging a call is not a statement and a
 * commit of its own. It is a diagnostic record: a crash may lose its last
 * quarter second, never a lead's own rows.
 */
import type { PrismaClient } from "@prisma/client";
import type { WorkerTask } from "../queue/types";
import { newId, sqlDatabaseOf, rowsOf, statementsByCount, type Sql } from "../db/sql";

export interface CallRow {
  shop: string;
  method: string;
  path: string;
  status: number;
  durationMs: number;
  attempt: number;
  apiVersion: string | null;
  at: Date;
}

/** Longest a row waits to be written. */
export const CALL_LOG_FLUSH_MS = 250;
const ROWS_PER_INSERT = 100;

const insertRows = statementsByCount(
  (
    count,
  ) => `INSERT INTO "ApiCall" ("id", "shop", "method", "path", "status", "durationMs", "attempt", "apiVersion", "at")
      VALUES ${rowsOf("(?, ?, ?, ?, ?, ?, ?, ?, ?)", count)}`,
);

async function insert(sql: Sql, rows: readonly CallRow[]): Promise<void> {
  for (let i = 0; i < rows.length; i += ROWS_PER_INSERT) {
    const page = rows.slice(i, i + ROWS_PER_INSERT);
    await sql.run(
      insertRows(page.length),
      page.flatMap((r) => [newId(), r.shop, r.method, r.path, r.status, r.durationMs, r.attempt, r.apiVersion, r.at]),
    );
  }
}

interface CallLog {
  rows: CallRow[];
  timer: ReturnType<typeof setTimeout> | undefined;
}

/** One buffer per database client: rows go only to the database their calls were made for. */
const logs = new WeakMap<PrismaClient, CallLog>();

function logOf(db: PrismaClient): CallLog {
  let log = logs.get(db);
  if (!log) {
    log = { rows: [], timer: undefined };
    logs.set(db, log);
  }
  return log;
}

function take(log: CallLog): CallRow[] {
  if (log.timer) clearTimeout(log.timer);
  log.timer = undefined;
  return log.rows.splice(0);
}

/** Keeps the row for the next write (at most CALL_LOG_FLUSH_MS). */
export function logCall(db: PrismaClient, row: CallRow): void {
  const log = logOf(db);
  log.rows.push(row);
  log.timer ??= setTimeout(() => void flushCallLogNow(db), CALL_LOG_FLUSH_MS).unref();
}

/** Writes the waiting rows now, in a commit of their own; a failure is logged, not thrown (a timer calls it). */
export async function flushCallLogNow(db: PrismaClient): Promise<number> {
  const log = logs.get(db);
  if (!log || log.rows.length === 0) return 0;
  const rows = take(log);
  const database = sqlDatabaseOf(db);
  try {
    await (rows.length <= ROWS_PER_INSERT ? insert(database, rows) : database.transaction((tx) => insert(tx, rows)));
  } catch (error) {
    console.warn(`call log: ${rows.length} row(s) not written: ${(error as Error).message}`);
  }
  return rows.length;
}

/** The worker writes what is left when it drains or stops (the timer does the rest). */
export function callLogTask(db: PrismaClient): WorkerTask {
  return { name: "call-log", everyMs: 60_000, run: async () => ({ handled: await flushCallLogNow(db), more: false }) };
}
