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

const prisma: PrismaClient = globalThis.__codLeadSyncPrisma ?? createPrismaClient();
// Cached only in development, where Vite reloads modules; tests want a client per file.
if (process.env.NODE_ENV === "development") globalThis.__codLeadSyncPrisma = prisma;

export default prisma;
