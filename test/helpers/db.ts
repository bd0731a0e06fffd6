/**
 * A fresh SQLite database file per test file, with every migration applied,
 * exactly as `prisma migrate deploy` would (same SQL files, same order).
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { PrismaClient } from "@prisma/client";
import { createPrismaClient } from "../../app/db-client";
import { applyMigrations as applyMigrationFiles } from "../../scripts/lib/migrations";

const migrationsDir = join(import.meta.dirname, "..", "..", "prisma", "migrations");

export interface TestDatabase {
  url: string;
  prisma: PrismaClient;
  cleanup(): Promise<void>;
}

export async function applyMigrations(url: string): Promise<void> {
  await applyMigrationFiles(url, migrationsDir);
}

export async function createTestDatabase(): Promise<TestDatabase> {
  const dir = mkdtempSync(join(tmpdir(), "cod-lead-sync-db-"));
  const url = `file:${join(dir, "test.sqlite")}`;
  await applyMigrations(url);
  // From app/db-client, not app/db.server: importing this helper must not open
  // the app's default database before DATABASE_URL points here.
  const prisma = createPrismaClient(url);
  return {
    url,
    prisma,
    async cleanup() {
      await prisma.$disconnect();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
