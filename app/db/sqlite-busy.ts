/**
 * SQLite answers SQLITE_BUSY while another connection holds the write lock: at
 * once on a plain libsql connection (no busy timeout), after the busy timeout on
 * the app's (client.ts). Single statements retry briefly here instead of failing
 * (docs/decisions/0009-sqlite-connection.md).
 */
import { Prisma } from "@prisma/client";

const SQLITE_BUSY = 5;
const SQLITE_LOCKED = 6;

/** True for SQLITE_BUSY / SQLITE_LOCKED (and extended codes), as Prisma reports them (P1008) or libsql raises them (prepared SQL). */
export function isDatabaseBusy(error: unknown): boolean {
  if (isBusyCode(rawSqliteCode(error))) return true;
  if (!(error instanceof Prisma.PrismaClientKnownRequestError)) return false;
  const cause = driverErrorCause(error.meta);
  const code = Number(cause?.originalCode);
  if (Number.isInteger(code)) return isBusyCode(code);
  return /SQLITE_BUSY|database is locked/i.test(String(cause?.originalMessage ?? error.message));
}

function isBusyCode(code: number | undefined): boolean {
  if (code === undefined) return false;
  const primary = code & 0xff;
  return primary === SQLITE_BUSY || primary === SQLITE_LOCKED;
}

/** libsql's own error (the prepared SQL of app/db/sql): SqliteError with its numeric code. */
export function rawSqliteCode(error: unknown): number | undefined {
  if (!(error instanceof Error) || error.name !== "SqliteError") return undefined;
  const code = (error as { rawCode?: unknown }).rawCode;
  return typeof code === "number" ? code : undefined;
}

function driverErrorCause(meta: unknown): { originalCode?: unknown; originalMessage?: unknown } | undefined {
  if (typeof meta !== "object" || meta === null) return undefined;
  const adapterError = (meta as { driverAdapterError?: unknown }).driverAdapterError;
  if (typeof adapterError !== "object" || adapterError === null) return undefined;
  const cause = (adapterError as { cause?: unknown }).cause;
  return typeof cause === "object" && cause !== null ? cause : undefined;
}

export interface BusyRetryOptions {
  /** Tries in all, the first included. */
  tries?: number;
  /** Upper bound of the first random pause; it doubles on each retry. */
  initialDelayMs?: number;
  random?: () => number;
  sleep?: (ms: number) => Promise<void>;
}

/** Process-wide counts, for benchmarks and tests to report contention. */
export const busyStats = { retries: 0, gaveUp: 0 };

const realSleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * Runs one self-contained statement, again after a short random pause while the
 * database is busy. Never wrap a statement of a caller's interactive transaction:
 * a busy error there may leave the transaction unusable; the caller retries it whole.
 */
export async function retryWhileBusy<T>(run: () => Promise<T>, options: BusyRetryOptions = {}): Promise<T> {
  const tries = options.tries ?? 10;
  const random = options.random ?? Math.random;
  const sleep = options.sleep ?? realSleep;
  let ceilingMs = options.initialDelayMs ?? 10;
  for (let attempt = 1; ; attempt++) {
    try {
      return await run();
    } catch (error) {
      if (!isDatabaseBusy(error)) throw error;
      if (attempt >= tries) {
        busyStats.gaveUp++;
        throw error;
      }
      busyStats.retries++;
      await sleep(1 + random() * ceilingMs);
      ceilingMs = Math.min(ceilingMs * 2, 500);
    }
  }
}
