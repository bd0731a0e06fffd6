/**
 * The Prisma client, on the libsql driver adapter (no native query engine).
 * One instance per process; in development it survives Vite's module reloads.
 */
import { PrismaClient } from "@prisma/client";
import { PrismaLibSQL } from "@prisma/adapter-libsql";
import { DEFAULT_DATABASE_URL } from "./db-url";

export type Db = PrismaClient;

export function createPrismaClient(url: string = process.env.DATABASE_URL || DEFAULT_DATABASE_URL): PrismaClient {
  return new PrismaClient({ adapter: new PrismaLibSQL({ url }) });
}

declare global {
  var __codLeadSyncPrisma: PrismaClient | undefined;
}

const prisma: PrismaClient = globalThis.__codLeadSyncPrisma ?? createPrismaClient();
// Cached only in development, where Vite reloads modules; tests want a client per file.
if (process.env.NODE_ENV === "development") globalThis.__codLeadSyncPrisma = prisma;

export default prisma;
