/**
 * Applies the migrations of prisma/migrations (written by `npm run
 * db:new-migration`) without Prisma's CLI, whose `migrate` cannot run on
 * PostgreSQL offline (docs/decisions/0002-two-migration-trees.md). Each
 * migration runs in its own transaction under a transaction-scoped advisory
 * lock and is recorded in "_cod_migrations" in that transaction: several app
 * servers and workers starting at once apply each migration exactly once, the
 * others wait for the lock and find it recorded, and a failed migration leaves
 * nothing behind.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import pg from "pg";

/** Any constant both sides agree on: the lock serialises migrators of this app only. */
const MIGRATION_LOCK_KEY = 0x636f645f6d6967n; // "cod_mig"
export const MIGRATIONS_TABLE = "_cod_migrations";

export function migrationNames(migrationsDir: string): string[] {
  return readdirSync(migrationsDir, { withFileTypes: true })
    .filter((d) => d.isDirectory())
    .map((d) => d.name)
    .sort();
}

/** Applies the migrations `url` lacks; returns the names applied by this call. */
export async function applyMigrations(url: string, migrationsDir: string): Promise<string[]> {
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
