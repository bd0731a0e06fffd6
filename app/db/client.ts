/**
 * Builds Prisma clients on driver adapters (no native query engine): libsql for
 * a SQLite URL, node-postgres for a PostgreSQL one. Kept apart from db.server.ts
 * so tests and scripts can open a database without touching the app's default one.
 */
import { createRequire } from "node:module";
import { PrismaClient } from "@prisma/client";
import { PrismaLibSQL } from "@prisma/adapter-libsql";
import { PrismaPg } from "@prisma/adapter-pg";
import pg from "pg";

// The adapter bundles its own @libsql/client: take its types, not the root package's.
type Config = ConstructorParameters<typeof PrismaLibSQL>[0];
type Client = ReturnType<PrismaLibSQL["createClient"]>;
type TransactionMode = "write" | "read" | "deferred";
import { databaseKind } from "./url";
import { SqliteConnection, type SqliteResult } from "./sqlite-connection";
import { ConnectionGate } from "./connection-gate";
import { registerSqlDatabase } from "./sql";
import { postgresDatabase, sqliteDatabase, type SqliteAccess } from "./sql-drivers";

const BUSY_TIMEOUT_MS = 10_000;
/**
 * Per-connection settings. synchronous=NORMAL (WAL): a crash loses no commit, a
 * power cut may lose the last ones (docs/decisions/0009-sqlite-connection.md).
 */
const CONNECTION_PRAGMAS = [`PRAGMA busy_timeout = ${BUSY_TIMEOUT_MS}`, "PRAGMA synchronous = NORMAL"];

/** PRAGMAs answer with a row, which executeMultiple refuses: one execute each. */
async function applyConnectionPragmas(client: Client): Promise<void> {
  for (const pragma of CONNECTION_PRAGMAS) await client.execute(pragma);
}

/**
 * Writers wait for the lock (busy timeout) and take it up front (BEGIN
 * IMMEDIATE), on the client's one connection (docs/decisions/0009-sqlite-connection.md).
 * The connection is shared with the prepared statements of app/db/sql, so every
 * user passes its gate (connection-gate.ts): a transaction holds it from BEGIN
 * to COMMIT, a lone statement for its run; Prisma's adapter holds its own lock as well.
 */
export function prepareForConcurrentProcesses(client: Client, options: SqliteClientOptions = {}): Client {
  if (client.protocol !== "file") return client;
  // libsql runs each statement synchronously on call, so these apply before any query.
  // A failure here resurfaces on the first real query, with Prisma's error handling.
  client.execute("PRAGMA journal_mode = WAL").catch(() => {});
  applyConnectionPragmas(client).catch(() => {});
  const slices = sliceStatements(client, () => options.turnsInTransactions ?? false);
  const inside = slices.execute;
  const gate = new ConnectionGate();
  client.execute = (...statement: Parameters<Client["execute"]>) => gate.hold(() => inside(...statement));
  client.transaction = async (mode?: TransactionMode) => {
    await gate.acquire();
    try {
      await inside(mode === "read" ? "BEGIN DEFERRED" : "BEGIN IMMEDIATE");
    } catch (error) {
      gate.release();
      throw error;
    }
    slices.inTransaction = true;
    return sameConnectionTransaction(client, inside, () => {
      slices.inTransaction = false;
      gate.release();
    });
  };
  const access: SqliteAccess = {
    execute: (statement) => inside(statement as never) as unknown as Promise<SqliteResult>,
    gate,
    setInTransaction: (open) => void (slices.inTransaction = open),
  };
  (client as ClientWithAccess)[SQLITE_ACCESS] = access;
  return client;
}

const SQLITE_ACCESS = Symbol("sqlite access");
type ClientWithAccess = Client & { [SQLITE_ACCESS]?: SqliteAccess };

export interface SqliteClientOptions {
  /**
   * Give the event loop turns inside transactions too (see sliceStatements);
   * read at each statement, so it may change. Only for the process's one
   * client of the file: the app's (db.server.ts).
   */
  turnsInTransactions?: boolean;
}

/** Longest run of statements in one turn of the event loop (see sliceStatements). */
const STATEMENTS_SLICE_MS = 8;

/**
 * libsql runs each statement synchronously, so a chain of awaited statements
 * never leaves the microtask queue: a statement that would start more than
 * STATEMENTS_SLICE_MS after the loop's last turn first gives the loop a turn
 * (one per slice, so a lone query never waits). Inside a transaction only with
 * turnsInTransactions: a second client of the file in this process would wait
 * for the write lock on this very loop, a deadlock until the busy timeout
 * (docs/decisions/0009-sqlite-connection.md).
 */
function sliceStatements(
  client: Client,
  turnsInTransactions: () => boolean,
): { inTransaction: boolean; execute: Client["execute"] } {
  const execute = client.execute.bind(client);
  const state = { inTransaction: false, execute };
  let sliceStart = 0;
  let inSlice = false;
  const startSlice = () => {
    inSlice = true;
    sliceStart = performance.now();
    // Runs once the loop has turned: the next statement starts a new slice.
    setImmediate(() => {
      inSlice = false;
    });
  };
  state.execute = async (...statement: Parameters<Client["execute"]>) => {
    if (!inSlice) startSlice();
    else if (performance.now() - sliceStart > STATEMENTS_SLICE_MS && (!state.inTransaction || turnsInTransactions())) {
      await new Promise<void>((resolve) => setImmediate(resolve));
      startSlice();
    }
    return execute(...statement);
  };
  return state;
}

type Transaction = Awaited<ReturnType<Client["transaction"]>>;

function sameConnectionTransaction(client: Client, execute: Client["execute"], onEnd: () => void): Transaction {
  let closed = false;
  const end = async (sql: "COMMIT" | "ROLLBACK") => {
    if (closed) return;
    closed = true;
    try {
      await execute(sql);
    } finally {
      onEnd();
    }
  };
  const transaction = {
    execute: (stmt: Parameters<Client["execute"]>[0]) => execute(stmt),
    executeMultiple: (sql: string) => client.executeMultiple(sql),
    // A batch is its own transaction in libsql; inside this one, run the statements in order.
    batch: async (stmts: Parameters<Client["execute"]>[0][]) => {
      const results = [];
      for (const stmt of stmts) results.push(await execute(stmt));
      return results;
    },
    commit: () => end("COMMIT"),
    rollback: () => end("ROLLBACK"),
    close: () => {
      if (!closed) end("ROLLBACK").catch(() => {});
    },
    get closed() {
      return closed;
    },
  };
  return transaction as unknown as Transaction;
}

export class ConcurrentLibSQLAdapter extends PrismaLibSQL {
  #connection: Client | undefined;

  constructor(
    private readonly config: Config,
    private readonly sqliteOptions: SqliteClientOptions = {},
  ) {
    super(config);
  }

  override createClient(config: Config): Client {
    // A local file gets a connection that keeps its prepared statements (sqlite-connection.ts).
    if (!config.url.startsWith("file:")) return super.createClient(config);
    // Prisma's connection and the prepared driver's are one (see connection()).
    if (config.url === this.config.url) return this.connection();
    return prepareForConcurrentProcesses(new SqliteConnection(config.url) as unknown as Client, this.sqliteOptions);
  }

  /** The process's one connection to the file, opened on first use and again after a close. */
  connection(): Client {
    if (!this.#connection || this.#connection.closed) {
      this.#connection = prepareForConcurrentProcesses(
        new SqliteConnection(this.config.url) as unknown as Client,
        this.sqliteOptions,
      );
    }
    return this.#connection;
  }

  /** What the prepared driver (app/db/sql) needs of that connection. */
  access(): SqliteAccess {
    const access = (this.connection() as ClientWithAccess)[SQLITE_ACCESS];
    if (!access) throw new Error("the SQLite connection was opened without its gate");
    return access;
  }
}

/**
 * PostgreSQL's own generated client (Prisma bakes the provider in), sharing
 * @prisma/client's runtime so the app keeps one PrismaClient type; loaded only
 * for a PostgreSQL URL (docs/decisions/0001-sqlite-and-postgresql.md).
 */
function postgresClientClass(): typeof PrismaClient {
  const load = createRequire(import.meta.url);
  return (load(".prisma/client-pg") as { PrismaClient: typeof PrismaClient }).PrismaClient;
}

const pools = new WeakMap<PrismaClient, pg.Pool>();

/** A PostgreSQL client's connection pool (undefined on SQLite: one connection, no pool). */
export function postgresPoolOf(
  client: PrismaClient,
): Pick<pg.Pool, "totalCount" | "idleCount" | "waitingCount" | "options"> | undefined {
  return pools.get(client);
}

/**
 * `postgresPoolSize`: connections this process keeps to PostgreSQL (DATABASE_POOL_SIZE);
 * web servers x workers x this must fit max_connections.
 */
export function createPrismaClient(url: string, sqlite: SqliteClientOptions = {}, postgresPoolSize = 10): PrismaClient {
  if (databaseKind(url) === "postgres") {
    const PostgresPrismaClient = postgresClientClass();
    // One pool for Prisma and the prepared statements (app/db/sql): DATABASE_POOL_SIZE stays the process's bound.
    const pool = new pg.Pool({ connectionString: url, max: postgresPoolSize });
    // An idle connection the server closed (restart, failover) is dropped by the pool and opened
    // again on next use; without a listener its error event would end the process.
    pool.on("error", (error) => console.warn(`database: an idle connection was closed: ${error.message}`));
    const client = new PostgresPrismaClient({ adapter: new PrismaPg(pool) });
    registerSqlDatabase(client, postgresDatabase(pool));
    // Read by the metrics (connections in use).
    pools.set(client, pool);
    const disconnect = client.$disconnect.bind(client);
    let ended = false;
    client.$disconnect = async () => {
      await disconnect();
      if (ended) return;
      ended = true;
      await pool.end();
    };
    return client;
  }
  const adapter = new ConcurrentLibSQLAdapter({ url }, sqlite);
  const client = new PrismaClient({ adapter });
  if (url.startsWith("file:"))
    registerSqlDatabase(
      client,
      sqliteDatabase(() => adapter.access()),
    );
  return client;
}
