/**
 * The app's Prisma client: one per process; in development it survives Vite's
 * module reloads.
 */
import type { PrismaClient } from "@prisma/client";
import { createPrismaClient } from "./db/client";
import { databaseEnv, databaseUrl, processEnv } from "./env.server";

export type Db = PrismaClient;
export { createPrismaClient };

declare global {
  var __codLeadSyncPrisma: PrismaClient | undefined;
}

const prisma: PrismaClient =
  globalThis.__codLeadSyncPrisma ?? createPrismaClient(databaseUrl(), databaseEnv().DATABASE_POOL_SIZE);
// Cached only in development, where Vite reloads modules; tests want a client per file.
if (processEnv().NODE_ENV === "development") globalThis.__codLeadSyncPrisma = prisma;

export default prisma;
