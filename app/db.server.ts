/**
 * The app's Prisma client: one per process; in development it survives Vite's
 * module reloads.
 */
import type { PrismaClient } from "@prisma/client";
import { createPrismaClient } from "./db-client";

export type Db = PrismaClient;
export { createPrismaClient };

declare global {
  var __codLeadSyncPrisma: PrismaClient | undefined;
}

// The process's one client of the database: on SQLite its transactions may give the event loop turns.
const prisma: PrismaClient = globalThis.__codLeadSyncPrisma ?? createPrismaClient(undefined, { turnsInTransactions: true });
// Cached only in development, where Vite reloads modules; tests want a client per file.
if (process.env.NODE_ENV === "development") globalThis.__codLeadSyncPrisma = prisma;

export default prisma;
