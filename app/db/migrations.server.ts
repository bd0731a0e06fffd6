/**
 * Applies the migrations to a database without Prisma's CLI.
 *
 * SQLite: prisma/migrations to a fresh libsql database, exactly as `prisma
 * migrate deploy` would on an empty one (same SQL files, same order).
 *
 * PostgreSQL: prisma/migrations-postgres (generated beside the SQLite ones by
 * `npm run db:new-migration`), because `prisma migrate` cannot run on
 * PostgreSQL offline (docs/decisions/0002-two-migration-trees.md). Each migration
 * runs in its own transaction under a transaction-scoped advisory lock and is
 * recorded in "_cod_migrations" in that transaction: several app servers and
 * workers starting at once apply each migration exactly once, the others wait
 * for the lock and find it recorded, and a failed migration leaves nothing behind.
 */
import { readdirSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { createClient } from "@libsql/client";
import pg from "pg";
import { databaseKind } from "./url";

/** Any constant both sides agree on: the lock serialises migrators of this app only. */
const MIGRATION_LOCK_KEY = 0x636f645f6d6967n; // "cod_mig"
export const MIGRATIONS_TABLE = "_cod_migrations";

/** prisma/migrations → prisma/migrations-postgres: the PostgreSQL history lives beside the SQLite one. */
export function postgresMigrationsDir(sqliteMigrationsDir: string): string {
  return join(dirname(sqliteMigrationsDir), "migrations-postgres");
}

export function migrationNames(migrationsDir: string): string[] {
  return readdirSync(migrationsDir, { withFileTypes: true })
    .filter((d) => d.isDirectory())
    .map((d) => d.name)
    .sort();
}

/**
 * Applies the migrations `url` lacks; `migrationsDir` is the SQLite history
 * (prisma/migrations), the PostgreSQL one is found beside it. Returns the names
 * applied by this call.
 */
export async function applyMigrations(url: string, migrationsDir: string): Promise<string[]> {
  if (databaseKind(url) === "postgres") return applyPostgresMigrations(url, postgresMigrationsDir(migrationsDir));
  const client = createClient({ url });
  try {
    const dirs = migrationNames(migrationsDir);
    for (const dir of dirs)
      await client.executeMultiple(readFileSync(join(migrationsDir, dir, "migration.sql"), "utf8"));
    return dirs;
  } finally {
    client.close();
  }
}

export async function applyPostgresMigrations(url: string, migrationsDir: string): Promise<string[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  const applied: string[] = [];
  try {
    for (const name of migrationNames(migrationsDir)) {
      const sql = readFileSync(join(migrationsDir, name, "migration.sql"), "utf8");
      await client.query("BEGIN");
      try {
        await client.query("SELECT pg_advisory_xact_lock($1)", [MIGRATION_LOCK_KEY.toString()]);
        // Under the lock: a concurrent CREATE TABLE IF NOT EXISTS can still collide on the type's name.
        await client.query(
          `CREATE TABLE IF NOT EXISTS "${MIGRATIONS_TABLE}" ("name" TEXT PRIMARY KEY, "appliedAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP)`,
        );
        const done = await client.query(`SELECT 1 FROM "${MIGRATIONS_TABLE}" WHERE "name" = $1`, [name]);
        if (done.rowCount === 0) {
          // No parameters: the simple protocol, which runs a file of several statements.
          await client.query(sql);
          await client.query(`INSERT INTO "${MIGRATIONS_TABLE}" ("name") VALUES ($1)`, [name]);
          applied.push(name);
        }
        await client.query("COMMIT");
      } catch (error) {
        await client.query("ROLLBACK").catch(() => {});
        throw new MigrationFailedError(name, error);
      }
    }
    return applied;
  } finally {
    await client.end();
  }
}

export class MigrationFailedError extends Error {
  constructor(
    readonly migration: string,
    cause: unknown,
  ) {
    super(`migration ${migration} failed: ${cause instanceof Error ? cause.message : String(cause)}`, { cause });
    this.name = "MigrationFailedError";
  }
}
