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
import { SqliteConnection } from "./sqlite-connection";

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
 * IMMEDIATE), on the client's one connection: safe because the Prisma adapter
 * holds its lock from BEGIN to COMMIT (docs/decisions/0009-sqlite-connection.md).
 */
export function prepareForConcurrentProcesses(client: Client, options: SqliteClientOptions = {}): Client {
  if (client.protocol !== "file") return client;
  // libsql runs each statement synchronously on call, so these apply before any query.
  // A failure here resurfaces on the first real query, with Prisma's error handling.
  client.execute("PRAGMA journal_mode = WAL").catch(() => {});
  applyConnectionPragmas(client).catch(() => {});
  const slices = sliceStatements(client, () => options.turnsInTransactions ?? false);
  client.transaction = async (mode?: TransactionMode) => {
    await client.execute(mode === "read" ? "BEGIN DEFERRED" : "BEGIN IMMEDIATE");
    slices.inTransaction = true;
    return sameConnectionTransaction(client, () => {
      slices.inTransaction = false;
    });
  };
  return client;
}

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
function sliceStatements(client: Client, turnsInTransactions: () => boolean): { inTransaction: boolean } {
  const execute = client.execute.bind(client);
  const state = { inTransaction: false };
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
  client.execute = async (...statement: Parameters<Client["execute"]>) => {
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

function sameConnectionTransaction(client: Client, onEnd: () => void): Transaction {
  let closed = false;
  const end = async (sql: "COMMIT" | "ROLLBACK") => {
    if (closed) return;
    closed = true;
    try {
      await client.execute(sql);
    } finally {
      onEnd();
    }
  };
  const transaction = {
    execute: (stmt: Parameters<Client["execute"]>[0]) => client.execute(stmt),
    executeMultiple: (sql: string) => client.executeMultiple(sql),
    // A batch is its own transaction in libsql; inside this one, run the statements in order.
    batch: async (stmts: Parameters<Client["execute"]>[0][]) => {
      const results = [];
      for (const stmt of stmts) results.push(await client.execute(stmt));
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
  constructor(
    config: Config,
    private readonly sqliteOptions: SqliteClientOptions = {},
  ) {
    super(config);
  }

  override createClient(config: Config): Client {
    // A local file gets a connection that keeps its prepared statements (sqlite-connection.ts).
    if (!config.url.startsWith("file:")) return super.createClient(config);
    return prepareForConcurrentProcesses(new SqliteConnection(config.url) as unknown as Client, this.sqliteOptions);
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
export function postgresPoolOf(client: PrismaClient): Pick<pg.Pool, "totalCount" | "idleCount" | "waitingCount" | "options"> | undefined {
  return pools.get(client);
}

/**
 * `postgresPoolSize`: connections this process keeps to PostgreSQL (DATABASE_POOL_SIZE);
 * web servers x workers x this must fit max_connections.
 */
export function createPrismaClient(url: string, sqlite: SqliteClientOptions = {}, postgresPoolSize = 10): PrismaClient {
  if (databaseKind(url) === "postgres") {
    const PostgresPrismaClient = postgresClientClass();
    // The pool made here (closed by $disconnect) so its connections in use can be read (the metrics).
    const pool = new pg.Pool({ connectionString: url, max: postgresPoolSize });
    const client = new PostgresPrismaClient({ adapter: new PrismaPg(pool, { disposeExternalPool: true }) });
    pools.set(client, pool);
    return client;
  }
  return new PrismaClient({ adapter: new ConcurrentLibSQLAdapter({ url }, sqlite) });
}
