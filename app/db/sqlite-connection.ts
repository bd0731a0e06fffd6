/**
 * A SQLite connection for Prisma's libsql adapter that prepares each statement
 * once (a bounded cache, least recently used out) and keeps rows as arrays,
 * where @libsql/client prepares on every call and builds an object per row
 * (docs/decisions/0009-sqlite-connection.md).
 *
 * It offers the part of @libsql/client's Client that the adapter and
 * client.ts use (execute, executeMultiple, close, protocol); transactions
 * are client.ts's own, on this one connection.
 */
import Database from "libsql";

/** Distinct statement texts kept prepared: Prisma's shapes, plus IN lists of every length in use. */
const STATEMENT_CACHE_SIZE = 500;

type Value = null | string | number | bigint | ArrayBuffer;
type Connection = InstanceType<typeof Database>;
type Statement = ReturnType<Connection["prepare"]>;

interface Prepared {
  statement: Statement;
  /** Column names and declared types; empty for statements that return no rows. */
  columns: string[];
  columnTypes: string[];
}

export interface SqliteResult {
  columns: string[];
  columnTypes: string[];
  rows: Value[][];
  rowsAffected: number;
  lastInsertRowid: bigint | undefined;
}

export interface SqliteStatement {
  sql: string;
  args?: unknown[];
}

/** `file:path`, `file:///abs/path` or `file://localhost/abs/path` → the path libsql opens. */
export function sqliteFilePath(url: string): string {
  if (!url.startsWith("file:")) throw new Error("A SQLite database URL starts with file:");
  const path = url
    .slice("file:".length)
    .split("?")[0]
    .replace(/^\/\/(localhost)?(?=\/)/, "");
  return decodeURIComponent(path);
}

const MIN_SAFE = BigInt(Number.MIN_SAFE_INTEGER);
const MAX_SAFE = BigInt(Number.MAX_SAFE_INTEGER);

/** As @libsql/client's default intMode "number": integers as numbers, refused beyond 2^53. */
function fromSql(value: unknown): Value {
  if (typeof value === "bigint") {
    if (value < MIN_SAFE || value > MAX_SAFE) {
      throw new RangeError("Received integer which cannot be safely represented as a JavaScript number");
    }
    return Number(value);
  }
  if (Buffer.isBuffer(value))
    return value.buffer.slice(value.byteOffset, value.byteOffset + value.byteLength) as ArrayBuffer;
  return value as Value;
}

function toSql(value: unknown): unknown {
  if (typeof value === "boolean") return value ? 1 : 0;
  if (value instanceof ArrayBuffer) return Buffer.from(value);
  if (value instanceof Date) return value.valueOf();
  if (value === undefined) throw new TypeError("undefined cannot be passed as argument to the database");
  return value;
}

export class SqliteConnection {
  readonly protocol = "file";
  closed = false;
  readonly #db: Connection;
  readonly #prepared = new Map<string, Prepared>();

  constructor(url: string) {
    this.#db = new Database(sqliteFilePath(url));
  }

  #prepare(sql: string): Prepared {
    const cached = this.#prepared.get(sql);
    if (cached) {
      // Most recently used last: Map keeps insertion order.
      this.#prepared.delete(sql);
      this.#prepared.set(sql, cached);
      return cached;
    }
    const statement = this.#db.prepare(sql);
    statement.safeIntegers(true);
    const reader = statement.reader;
    if (reader) statement.raw(true);
    const described = reader ? statement.columns() : [];
    const prepared = {
      statement,
      columns: described.map((c) => c.name),
      columnTypes: described.map((c) => c.type ?? ""),
    };
    this.#prepared.set(sql, prepared);
    if (this.#prepared.size > STATEMENT_CACHE_SIZE) this.#prepared.delete(this.#prepared.keys().next().value!);
    return prepared;
  }

  #checkOpen(): void {
    if (this.closed) throw new Error("The SQLite connection is closed");
  }

  async execute(stmt: string | SqliteStatement): Promise<SqliteResult> {
    this.#checkOpen();
    const { sql, args = [] } = typeof stmt === "string" ? { sql: stmt } : stmt;
    const { statement, columns, columnTypes } = this.#prepare(sql);
    const bound = args.map(toSql);
    if (columns.length > 0) {
      const rows = (statement.all(bound) as unknown[][]).map((row) => row.map(fromSql));
      return { columns, columnTypes, rows, rowsAffected: 0, lastInsertRowid: undefined };
    }
    const info = statement.run(bound);
    return {
      columns,
      columnTypes,
      rows: [],
      rowsAffected: info.changes,
      lastInsertRowid: BigInt(info.lastInsertRowid),
    };
  }

  async executeMultiple(sql: string): Promise<void> {
    this.#checkOpen();
    this.#db.exec(sql);
  }

  close(): void {
    if (this.closed) return;
    this.closed = true;
    this.#prepared.clear();
    this.#db.close();
  }
}
