/**
 * Prepared SQL for the hot paths (claim, post, answer, write-back, triggers,
 * status sync): each statement is written once, as text both databases accept
 * (quoted identifiers, `?` placeholders, ON CONFLICT, RETURNING), and run by
 * the process's own driver with its prepared-statement cache, so it is never
 * compiled again (docs/decisions/0010-hot-path-sql.md). Prisma stays for the
 * rest and owns the schema.
 *
 * `sqlOf(db)` gives the runner for what a caller holds: the prepared driver of
 * an app client (createPrismaClient registers one), or, inside a Prisma
 * interactive transaction, Prisma's raw queries on that transaction, so one
 * function serves both and its statements join the caller's transaction.
 */
import { createHash, randomBytes } from "node:crypto";
import type { Prisma, PrismaClient } from "@prisma/client";
import type { DatabaseKind } from "./url";

export type Dialect = DatabaseKind;
export type Row = Record<string, unknown>;

/** One statement, as each database reads it. */
export interface SqlStatement {
  readonly sqlite: string;
  /** `?` numbered as `$1`, `$2`... */
  readonly postgres: string;
  /** PostgreSQL's name for the prepared statement (per connection). */
  readonly name: string;
}

/** Numbers `?` placeholders for PostgreSQL (the statements here carry no `?` inside literals). */
function numbered(text: string): string {
  let n = 0;
  return text.replace(/\?/g, () => `$${++n}`);
}

const compact = (text: string) => text.replace(/\s+/g, " ").trim();

/** A statement from one text, or from a text per dialect where they differ. */
export function statement(text: string | ((dialect: Dialect) => string)): SqlStatement {
  const sqlite = compact(typeof text === "string" ? text : text("sqlite"));
  const postgres = numbered(compact(typeof text === "string" ? text : text("postgres")));
  return { sqlite, postgres, name: `cod_${createHash("sha1").update(postgres).digest("hex").slice(0, 20)}` };
}

/**
 * `column IN (list)` with the whole list as one parameter (`list(values)`), so
 * one statement text serves every length: json_each on SQLite, = ANY on PostgreSQL.
 */
export const inList = (dialect: Dialect, column: string): string =>
  dialect === "sqlite" ? `${column} IN (SELECT value FROM json_each(?))` : `${column} = ANY(?)`;

export class ListParam {
  constructor(readonly values: readonly (string | number)[]) {}
}
export const list = (values: readonly (string | number)[]): ListParam => new ListParam(values);

/** How a parameter goes to each database (dates as Prisma stores them on SQLite: ISO text). */
export function toParam(dialect: Dialect, value: unknown): unknown {
  if (value === undefined) return null;
  if (value instanceof ListParam) return dialect === "sqlite" ? JSON.stringify(value.values) : [...value.values];
  if (dialect === "sqlite") {
    if (value instanceof Date) return value.toISOString().replace("Z", "+00:00");
    if (typeof value === "boolean") return value ? 1 : 0;
  }
  return value;
}

export interface BatchItem {
  statement: SqlStatement;
  params: readonly unknown[];
}

export interface Sql {
  readonly dialect: Dialect;
  /** The rows a statement returns (a SELECT, or a write with RETURNING). */
  all<R extends Row = Row>(statement: SqlStatement, params?: readonly unknown[]): Promise<R[]>;
  /** Runs a write; the number of rows it changed. */
  run(statement: SqlStatement, params?: readonly unknown[]): Promise<number>;
  /**
   * Runs independent writes (none reads another's rows), all or none; the rows
   * each changed. On PostgreSQL one round trip: one statement of data-modifying
   * WITH clauses (see combined); elsewhere one after the other.
   */
  batch(items: readonly BatchItem[]): Promise<number[]>;
}

/** Runs the items one after the other (SQLite, or inside a Prisma transaction). */
export async function runInTurn(sql: Pick<Sql, "run">, items: readonly BatchItem[]): Promise<number[]> {
  const counts: number[] = [];
  for (const item of items) counts.push(await sql.run(item.statement, item.params));
  return counts;
}

const combinedByNames = new Map<string, SqlStatement>();
/**
 * PostgreSQL: the writes as one statement, `WITH "b0" AS (write RETURNING 1), ...
 * SELECT count per write`. A data-modifying WITH clause always runs, exactly
 * once, in the statement's snapshot: the writes must not touch each other's rows.
 */
export function combined(items: readonly BatchItem[]): SqlStatement {
  const key = items.map((i) => i.statement.name).join(",");
  let s = combinedByNames.get(key);
  if (!s) {
    let offset = 0;
    const clauses = items.map((item, i) => {
      const text = item.statement.postgres.replace(/\$(\d+)/g, (_, n: string) => `$${Number(n) + offset}`);
      offset += item.params.length;
      return `"b${i}" AS (${text}${/\bRETURNING\b/i.test(text) ? "" : " RETURNING 1"})`;
    });
    const counts = items.map((_, i) => `(SELECT COUNT(*) FROM "b${i}") AS "n${i}"`).join(", ");
    const text = `WITH ${clauses.join(", ")} SELECT ${counts}`;
    s = { sqlite: "", postgres: text, name: `cod_${createHash("sha1").update(text).digest("hex").slice(0, 20)}` };
    combinedByNames.set(key, s);
  }
  return s;
}

export interface SqlDatabase extends Sql {
  /** One write transaction (BEGIN IMMEDIATE on SQLite); rolled back when `work` throws. */
  transaction<T>(work: (tx: Sql) => Promise<T>): Promise<T>;
}

// ---------------------------------------------------------------------------
// Values as they come back: SQLite gives dates as ISO text and booleans as 0/1,
// node-postgres gives BIGINT as text, Prisma's raw queries give typed values.

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

/**
 * The database a client (or a transaction's client) talks to. Read from the
 * provider the generated client was built for: the SQLite and the PostgreSQL
 * clients differ only in that (app/db/client.ts).
 */
export function databaseKindOf(db: Pick<PrismaClient, "$queryRaw">): DatabaseKind {
  const provider = (db as unknown as { _activeProvider?: string })._activeProvider;
  return provider === "postgresql" || provider === "postgres" ? "postgres" : "sqlite";
}

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
  const dialect = databaseKindOf(db);
  const text = (s: SqlStatement) => (dialect === "sqlite" ? s.sqlite : s.postgres);
  const args = (params: readonly unknown[]) => params.map((p) => toParam(dialect, p));
  const sql: Sql = {
    dialect,
    all: <R extends Row>(s: SqlStatement, params: readonly unknown[] = []) =>
      db.$queryRawUnsafe<R[]>(text(s), ...args(params)),
    run: (s: SqlStatement, params: readonly unknown[] = []) => db.$executeRawUnsafe(text(s), ...args(params)),
    batch: (items) => runInTurn(sql, items),
  };
  return sql;
}
