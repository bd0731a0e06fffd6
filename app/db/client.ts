/**
 * Builds Prisma clients on PostgreSQL through the node-postgres driver adapter
 * (no native query engine). Kept apart from db.server.ts so tests and scripts
 * can open a database without touching the app's default one.
 */
import { PrismaClient } from "@prisma/client";
import { PrismaPg } from "@prisma/adapter-pg";
import pg from "pg";
import { registerSqlDatabase } from "./sql";
import { postgresDatabase } from "./sql-driver";

const pools = new WeakMap<PrismaClient, pg.Pool>();

/** A client's connection pool (undefined for a client made elsewhere). */
export function postgresPoolOf(
  client: PrismaClient,
): Pick<pg.Pool, "totalCount" | "idleCount" | "waitingCount" | "options"> | undefined {
  return pools.get(client);
}

/**
 * `poolSize`: connections this process keeps to PostgreSQL (DATABASE_POOL_SIZE);
 * web servers x workers x this must fit max_connections.
 */
export function createPrismaClient(url: string, poolSize = 10): PrismaClient {
  // One pool for Prisma and the prepared statements (app/db/sql): DATABASE_POOL_SIZE stays the process's bound.
  const pool = new pg.Pool({ connectionString: url, max: poolSize });
  // An idle connection the server closed (restart, failover) is dropped by the pool and opened
  // again on next use; without a listener its error event would end the process.
  pool.on("error", (error) => console.warn(`database: an idle connection was closed: ${error.message}`));
  const client = new PrismaClient({ adapter: new PrismaPg(pool) });
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
