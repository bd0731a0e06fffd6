/**
 * Builds Prisma clients on the libsql driver adapter (no native query engine).
 * Kept apart from db.server.ts so tests and scripts can open a database
 * without touching the app's default one.
 */
import { PrismaClient } from "@prisma/client";
import { PrismaLibSQL } from "@prisma/adapter-libsql";

// The adapter bundles its own @libsql/client: take its types, not the root package's.
type Config = ConstructorParameters<typeof PrismaLibSQL>[0];
type Client = ReturnType<PrismaLibSQL["createClient"]>;
type TransactionMode = "write" | "read" | "deferred";
import { DEFAULT_DATABASE_URL } from "./db-url";

const BUSY_TIMEOUT_MS = 10_000;
/**
 * Per-connection settings. synchronous=NORMAL in WAL mode keeps every commit
 * safe from a process crash (SIGKILL) and syncs at checkpoints, not at each
 * commit: a power cut can lose the last commits, a crash cannot. It is what
 * lets one SQLite file take hundreds of webhooks a second; PostgreSQL is the
 * answer where power-loss durability matters more.
 */
const CONNECTION_PRAGMAS = [`PRAGMA busy_timeout = ${BUSY_TIMEOUT_MS}`, "PRAGMA synchronous = NORMAL"];

/** PRAGMAs answer with a row, which executeMultiple refuses: one execute each. */
async function applyConnectionPragmas(client: Client): Promise<void> {
  for (const pragma of CONNECTION_PRAGMAS) await client.execute(pragma);
}

/**
 * The app server and worker processes write to one SQLite file. libsql opens
 * connections with a busy timeout of 0 and Prisma begins transactions DEFERRED,
 * so a second writer fails at once with SQLITE_BUSY (and two deferred writers
 * can deadlock). Every connection here waits for the lock instead, and
 * transactions take the write lock up front (BEGIN IMMEDIATE). WAL lets readers
 * go on while one process writes.
 */
export function prepareForConcurrentProcesses(client: Client): Client {
  if (client.protocol !== "file") return client;
  // libsql runs each statement synchronously on call, so these apply before any query.
  // A failure here resurfaces on the first real query, with Prisma's error handling.
  client.execute("PRAGMA journal_mode = WAL").catch(() => {});
  applyConnectionPragmas(client).catch(() => {});
  const begin = client.transaction.bind(client);
  client.transaction = async (mode?: TransactionMode) => {
    const tx = await begin(mode === "read" ? "read" : "write");
    // The client hands its connection to the transaction and opens a fresh
    // one on next use: give that one the same settings.
    await applyConnectionPragmas(client);
    return tx;
  };
  return client;
}

export class ConcurrentLibSQLAdapter extends PrismaLibSQL {
  override createClient(config: Config): Client {
    return prepareForConcurrentProcesses(super.createClient(config));
  }
}

export function createPrismaClient(url: string = process.env.DATABASE_URL || DEFAULT_DATABASE_URL): PrismaClient {
  return new PrismaClient({ adapter: new ConcurrentLibSQLAdapter({ url }) });
}
