/**
 * Prepared SQL for the hot paths (claim, post, answer, write-back, triggers,
 * status sync): each statement is written once, with `?` placeholders, and run
 * by the process's own driver as a named prepared statement, so each connection
 * compiles it once (docs/decisions/0010-hot-path-sql.md). Prisma stays for the
 * rest and owns the schema.
 *
 * `sqlOf(db)` gives the runner for what a caller holds: the prepared driver of
 * an app client (createPrismaClient registers one), or, inside a Prisma
 * interactive transaction, Prisma's raw queries on that transaction, so one
 * function serves both and its statements join the caller's transaction.
 */
import { createHash, randomBytes } from "node:crypto";
import type { Prisma, PrismaClient } from "@prisma/client";

export type Row = Record<string, unknown>;

/** One statement: its text and its prepared statement's name (per connection). */
export interface SqlStatement {
  /** `?` numbered as `$1`, `$2`... */
  readonly text: string;
  readonly name: string;
}

/** Numbers `?` placeholders (the statements here carry no `?` inside literals). */
function numbered(text: string): string {
  let n = 0;
  return text.replace(/\?/g, () => `$${++n}`);
}

const compact = (text: string) => text.replace(/\s+/g, " ").trim();

const named = (text: string): SqlStatement => ({
  text,
  name: `cod_${createHash("sha1").update(text).digest("hex").slice(0, 20)}`,
});

export const statement = (text: string): SqlStatement => named(numbered(compact(text)));

/** A multi-row statement per row count, each built once: `build` gives the text for `count` rows. */
export function statementsByCount(build: (count: number) => string): (count: number) => SqlStatement {
  const byCount = new Map<number, SqlStatement>();
  return (count) => {
    let s = byCount.get(count);
    if (!s) byCount.set(count, (s = statement(build(count))));
    return s;
  };
}

/** `count` copies of a row's placeholders, for a multi-row VALUES list. */
export const rowsOf = (row: string, count: number): string => Array.from({ length: count }, () => row).join(", ");

/** Parameters as the drivers take them: a list is an array (`= ANY(?)`), undefined is NULL. */
export const values = (params: readonly unknown[]): unknown[] => params.map((p) => (p === undefined ? null : p));

export interface BatchItem {
  statement: SqlStatement;
  params: readonly unknown[];
}

export interface Sql {
  /** The rows a statement returns (a SELECT, or a write with RETURNING). */
  all<R extends Row = Row>(statement: SqlStatement, params?: readonly unknown[]): Promise<R[]>;
  /** Runs a write; the number of rows it changed. */
  run(statement: SqlStatement, params?: readonly unknown[]): Promise<number>;
  /**
   * Runs independent writes (none reads another's rows), all or none; the rows
   * each changed. On the prepared driver one round trip: one statement of
   * data-modifying WITH clauses (see combined); inside a Prisma transaction one
   * after the other.
   */
  batch(items: readonly BatchItem[]): Promise<number[]>;
}

/** Runs the items one after the other (inside a Prisma transaction). */
export async function runInTurn(sql: Pick<Sql, "run">, items: readonly BatchItem[]): Promise<number[]> {
  const counts: number[] = [];
  for (const item of items) counts.push(await sql.run(item.statement, item.params));
  return counts;
}

const combinedByNames = new Map<string, SqlStatement>();
/**
 * The writes as one statement, `WITH "b0" AS (write RETURNING 1), ...
 * SELECT count per write`. A data-modifying WITH clause always runs, exactly
 * once, in the statement's snapshot: the writes must not touch each other's rows.
 */
export function combined(items: readonly BatchItem[]): SqlStatement {
  const key = items.map((i) => i.statement.name).join(",");
  let s = combinedByNames.get(key);
  if (!s) {
    let offset = 0;
    const clauses = items.map((item, i) => {
      const text = item.statement.text.replace(/\$(\d+)/g, (_, n: string) => `$${Number(n) + offset}`);
      offset += item.params.length;
      return `"b${i}" AS (${text}${/\bRETURNING\b/i.test(text) ? "" : " RETURNING 1"})`;
    });
    const counts = items.map((_, i) => `(SELECT COUNT(*) FROM "b${i}") AS "n${i}"`).join(", ");
    s = named(`WITH ${clauses.join(", ")} SELECT ${counts}`);
    combinedByNames.set(key, s);
  }
  return s;
}

export interface SqlDatabase extends Sql {
  /** One transaction; rolled back when `work` throws. */
  transaction<T>(work: (tx: Sql) => Promise<T>): Promise<T>;
}

// ---------------------------------------------------------------------------
// Values as they come back: node-postgres gives BIGINT and COUNT(*) as text,
// Prisma's raw queries give typed values.

export function asDate(value: unknown): Date | null {
  if (value === null || value === undefined) return null;
  if (value instanceof Date) return value;
  if (typeof value === "string" || typeof value === "number") return new Date(value);
  if (typeof value === "bigint") return new Date(Number(value));
  throw new TypeError(`not a date: ${typeof value}`);
}

export function asBool(value: unknown): boolean {
  return value === true || value === 1 || value === 1n || value === "1" || value === "t" || value === "true";
}

export function asNumber(value: unknown): number {
  if (typeof value === "number") return value;
  if (typeof value === "bigint" || typeof value === "string") return Number(value);
  if (value === null || value === undefined) return 0;
  throw new TypeError(`not a number: ${typeof value}`);
}

export const asString = (value: unknown): string | null =>
  value === null || value === undefined ? null : String(value);

// ---------------------------------------------------------------------------
// Ids shaped like Prisma's cuid(): 25 characters, ordered by creation within a process.

let lastIdMs = 0;
let idCounter = 0;
const fingerprint = randomBytes(4).readUInt32BE(0).toString(36).padStart(7, "0").slice(-4);

export function newId(): string {
  const ms = Date.now();
  idCounter = ms === lastIdMs ? idCounter + 1 : 0;
  lastIdMs = ms;
  const random = randomBytes(6).readUIntBE(0, 6).toString(36).padStart(8, "0").slice(-8);
  return `c${ms.toString(36).padStart(8, "0")}${idCounter.toString(36).padStart(4, "0").slice(-4)}${fingerprint}${random}`;
}

// ---------------------------------------------------------------------------
// Runners

const drivers = new WeakMap<object, SqlDatabase>();

/** Called by createPrismaClient: the prepared driver that shares the client's connections. */
export function registerSqlDatabase(client: PrismaClient, database: SqlDatabase): void {
  drivers.set(client, database);
}

type PrismaLike = PrismaClient | Prisma.TransactionClient;
export type SqlSource = PrismaLike | Sql;

const isSql = (db: SqlSource): db is Sql =>
  typeof (db as Sql).all === "function" && typeof (db as Sql).run === "function";

/** The app client's prepared driver; a client made elsewhere gets Prisma's raw queries. */
export function sqlDatabaseOf(db: PrismaClient): SqlDatabase {
  const driver = drivers.get(db);
  if (driver) return driver;
  const raw = prismaRawSql(db);
  return {
    ...raw,
    batch: (items) => db.$transaction((tx) => runInTurn(prismaRawSql(tx), items)),
    transaction: (work) => db.$transaction((tx) => work(prismaRawSql(tx))),
  };
}

/** The runner for what the caller holds (see the module comment). */
export function sqlOf(db: SqlSource): Sql {
  if (isSql(db)) return db;
  return drivers.get(db as object) ?? prismaRawSql(db);
}

function prismaRawSql(db: PrismaLike): Sql {
  const sql: Sql = {
    all: <R extends Row>(s: SqlStatement, params: readonly unknown[] = []) =>
      db.$queryRawUnsafe<R[]>(s.text, ...values(params)),
    run: (s: SqlStatement, params: readonly unknown[] = []) => db.$executeRawUnsafe(s.text, ...values(params)),
    batch: (items) => runInTurn(sql, items),
  };
  return sql;
}
