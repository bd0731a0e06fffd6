/**
 * The app's Prisma client: one per process; in development it survives Vite's
 * module reloads.
 */
import type { PrismaClient } from "@prisma/client";
import { createPrismaClient, type SqliteClientOptions } from "./db/client";

export type Db = PrismaClient;
export { createPrismaClient };

declare global {
  var __codLeadSyncPrisma: PrismaClient | undefined;
}

/**
 * How the app's client runs SQLite transactions, read at each statement: it is the
 * process's one client of the file, so its transactions give the event loop
 * turns (app/db/client.ts). The worker in a process of its own turns them off
 * (scripts/worker.ts).
 */
export const sqliteSettings: SqliteClientOptions = { turnsInTransactions: true };

const prisma: PrismaClient = globalThis.__codLeadSyncPrisma ?? createPrismaClient(undefined, sqliteSettings);
// Cached only in development, where Vite reloads modules; tests want a client per file.
if (process.env.NODE_ENV === "development") globalThis.__codLeadSyncPrisma = prisma;

export default prisma;
