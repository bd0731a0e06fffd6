/**
 * The app's Prisma client: one per process; in development it survives Vite's
 * module reloads.
 */
import type { PrismaClient } from "@prisma/client";
import { createPrismaClient, type SqliteClientOptions } from "./db/client";
import { databaseEnv, processEnv } from "./env.server";

export type Db = PrismaClient;
export { createPrismaClient };

declare global {
  var __codLeadSyncPrisma: PrismaClient | undefined;
}

/**
 * How the app's client runs SQLite transactions, read at each statement: it is the
 * process's one client of the file, so its transactions give the event loop
 * turns (app/db/client.ts). The worker in a process of its own turns them off
 * (worker.ts).
 */
export const sqliteSettings: SqliteClientOptions = { turnsInTransactions: true };

const prisma: PrismaClient =
  globalThis.__codLeadSyncPrisma ??
  createPrismaClient(databaseEnv().DATABASE_URL, sqliteSettings, databaseEnv().DATABASE_POOL_SIZE);
// Cached only in development, where Vite reloads modules; tests want a client per file.
if (processEnv().NODE_ENV === "development") globalThis.__codLeadSyncPrisma = prisma;

export default prisma;
