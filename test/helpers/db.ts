/**
 * A fresh database per test file, with every migration applied by the
 * project's runner: a SQLite file by default, or with TEST_DATABASE=postgres a
 * database of its own on the run's embedded PostgreSQL server
 * (test/helpers/postgres-global-setup.ts), dropped at cleanup.
 */
import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { PrismaClient } from "@prisma/client";
import { createPrismaClient } from "../../app/db/client";
import { applyMigrations as applyMigrationFiles } from "../../app/db/migrations.server";
import { createDatabase, databaseUrl, dropDatabase } from "../../scripts/dev/lib/embedded-postgres";

const migrationsDir = join(import.meta.dirname, "..", "..", "prisma", "migrations");

export interface TestDatabase {
  url: string;
  prisma: PrismaClient;
  cleanup(): Promise<void>;
}

/** The run's PostgreSQL server when the tests run on PostgreSQL, else undefined. */
export function testPostgresServerUrl(): string | undefined {
  if (process.env.TEST_DATABASE !== "postgres") return undefined;
  // Never fall back to SQLite silently: a "PostgreSQL" run must be one.
  if (!process.env.TEST_POSTGRES_URL)
    throw new Error("TEST_DATABASE=postgres but no server: run through vitest's globalSetup (npm run test:postgres)");
  return process.env.TEST_POSTGRES_URL;
}

export const onPostgres = process.env.TEST_DATABASE === "postgres";

export async function applyMigrations(url: string): Promise<void> {
  await applyMigrationFiles(url, migrationsDir);
}

/**
 * An empty database's URL, not migrated: a file under `dir` on SQLite (named
 * `file`), a new database on PostgreSQL. `drop` removes it (the SQLite file goes
 * with its directory).
 */
export async function createEmptyDatabase(
  dir: string,
  file = "test.sqlite",
): Promise<{ url: string; drop(): Promise<void> }> {
  const server = testPostgresServerUrl();
  if (!server) return { url: `file:${join(dir, file)}`, drop: async () => {} };
  const name = `test_${randomBytes(6).toString("hex")}`;
  await createDatabase(server, name);
  return { url: databaseUrl(server, name), drop: () => dropDatabase(server, name) };
}

export async function createTestDatabase(): Promise<TestDatabase> {
  const dir = mkdtempSync(join(tmpdir(), "cod-lead-sync-db-"));
  const database = await createEmptyDatabase(dir);
  await applyMigrations(database.url);
  // From app/db/client, not app/db.server: importing this helper must not open
  // the app's default database before DATABASE_URL points here.
  const prisma = createPrismaClient(database.url);
  return {
    url: database.url,
    prisma,
    async cleanup() {
      await prisma.$disconnect();
      await database.drop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** The app's tables (not the migration runners' own), on either database. */
export async function appTables(prisma: PrismaClient): Promise<string[]> {
  const rows = await prisma.$queryRawUnsafe<{ name: string }[]>(
    onPostgres
      ? "SELECT table_name::text AS name FROM information_schema.tables WHERE table_schema = 'public' AND table_type = 'BASE TABLE' AND table_name <> '_cod_migrations'"
      : "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND name <> '_prisma_migrations'",
  );
  return rows.map((r) => r.name);
}
