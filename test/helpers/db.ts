/**
 * A fresh database per test file, with every migration applied by the
 * project's runner: a database of its own on the run's embedded PostgreSQL
 * server (test/helpers/postgres-global-setup.ts), dropped at cleanup.
 */
import { randomBytes } from "node:crypto";
import { join } from "node:path";
import type { PrismaClient } from "@prisma/client";
import { createPrismaClient } from "../../app/db/client";
import { applyMigrations as applyMigrationFiles } from "../../app/db/migrations.server";
import { createDatabase, databaseUrl, dropDatabase } from "../../scripts/lib/embedded-postgres";

const migrationsDir = join(import.meta.dirname, "..", "..", "prisma", "migrations");

export interface TestDatabase {
  url: string;
  prisma: PrismaClient;
  cleanup(): Promise<void>;
}

/** The run's PostgreSQL server (its maintenance database's URL). */
export function testPostgresServerUrl(): string {
  if (!process.env.TEST_POSTGRES_URL)
    throw new Error("no PostgreSQL server for the tests: run them through vitest, whose globalSetup starts one");
  return process.env.TEST_POSTGRES_URL;
}

export async function applyMigrations(url: string): Promise<void> {
  await applyMigrationFiles(url, migrationsDir);
}

/** An empty database's URL, not migrated, on the run's server; `drop` removes it. */
export async function createEmptyDatabase(): Promise<{ url: string; drop(): Promise<void> }> {
  const server = testPostgresServerUrl();
  const name = `test_${randomBytes(6).toString("hex")}`;
  await createDatabase(server, name);
  return { url: databaseUrl(server, name), drop: () => dropDatabase(server, name) };
}

export async function createTestDatabase(): Promise<TestDatabase> {
  const database = await createEmptyDatabase();
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
    },
  };
}

/** The app's tables (not the migration runner's own). */
export async function appTables(prisma: PrismaClient): Promise<string[]> {
  const rows = await prisma.$queryRawUnsafe<{ name: string }[]>(
    "SELECT table_name::text AS name FROM information_schema.tables WHERE table_schema = 'public' AND table_type = 'BASE TABLE' AND table_name <> '_cod_migrations'",
  );
  return rows.map((r) => r.name);
}
