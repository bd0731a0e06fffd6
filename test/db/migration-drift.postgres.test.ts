/**
 * The PostgreSQL migration history agrees with the model
 * (prisma/postgres/schema.prisma, generated from prisma/schema.prisma), and
 * concurrent migrators apply each migration once. Runs in `npm run
 * test:postgres` only (vitest.config.ts): it needs the run's PostgreSQL server.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import pg from "pg";
import { afterAll, describe, expect, it } from "vitest";
import {
  applyMigrations,
  migrationNames,
  MIGRATIONS_TABLE,
  postgresMigrationsDir,
} from "../../app/db/migrations.server";
import { createEmptyDatabase } from "../helpers/db";
import { prisma, root } from "../helpers/prisma-cli";

const postgresSchemaPath = join(root, "prisma", "postgres", "schema.prisma");
const migrationsDir = join(root, "prisma", "migrations");
const scratch = mkdtempSync(join(tmpdir(), "cod-drift-pg-"));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

async function withClient<T>(url: string, run: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await run(client);
  } finally {
    await client.end();
  }
}

/** Tables, columns (type, nullability, default), indexes and constraints, as PostgreSQL's catalog has them. */
async function catalog(url: string) {
  return withClient(url, async (client) => {
    const rows = async (sql: string) => (await client.query(sql)).rows;
    return {
      columns:
        await rows(`SELECT table_name::text, column_name::text, data_type::text, is_nullable::text, column_default::text,
          character_maximum_length, datetime_precision FROM information_schema.columns
        WHERE table_schema = 'public' AND table_name <> '${MIGRATIONS_TABLE}' ORDER BY 1, 2`),
      indexes: await rows(`SELECT tablename::text, indexname::text, indexdef FROM pg_indexes
        WHERE schemaname = 'public' AND tablename <> '${MIGRATIONS_TABLE}' ORDER BY 1, 2`),
      constraints:
        await rows(`SELECT conrelid::regclass::text AS "table", conname::text, pg_get_constraintdef(oid) AS def FROM pg_constraint
        WHERE connamespace = 'public'::regnamespace AND conrelid::regclass::text <> '${MIGRATIONS_TABLE}' ORDER BY 1, 2`),
    };
  });
}

describe("PostgreSQL migrations and data model", () => {
  /**
   * Prisma cannot read a PostgreSQL database offline (its JavaScript schema engine
   * fails to introspect one), so the check compares catalogs: a database built by
   * the migrations against one built by the SQL Prisma renders from the model.
   */
  it("PostgreSQL: the migrations build exactly the database prisma/postgres/schema.prisma describes", async () => {
    const migrated = await createEmptyDatabase(scratch);
    const modelled = await createEmptyDatabase(scratch);
    try {
      await applyMigrations(migrated.url, migrationsDir);
      const sql = prisma(
        [
          "migrate",
          "diff",
          "--config",
          join(root, "prisma", "postgres", "prisma.config.ts"),
          "--from-empty",
          "--to-schema-datamodel",
          postgresSchemaPath,
          "--script",
        ],
        modelled.url,
      );
      await withClient(modelled.url, (client) => client.query(sql));
      const [fromMigrations, fromModel] = [await catalog(migrated.url), await catalog(modelled.url)];
      expect(fromModel.columns.length).toBeGreaterThan(100);
      expect(fromMigrations).toEqual(fromModel);
      // Native types: instants with time zone and millisecond precision.
      expect(
        fromModel.columns
          .filter((c) => c.data_type.startsWith("timestamp"))
          .every((c) => c.data_type === "timestamp with time zone" && c.datetime_precision === 3),
      ).toBe(true);
    } finally {
      await migrated.drop();
      await modelled.drop();
    }
    // Every migration applied, then Prisma's CLI twice: minutes on a loaded machine.
  }, 300_000);

  it("PostgreSQL: processes migrating at once apply each migration exactly once", async () => {
    const database = await createEmptyDatabase(scratch);
    try {
      const runs = await Promise.all([1, 2, 3, 4, 5].map(() => applyMigrations(database.url, migrationsDir)));
      const names = migrationNames(postgresMigrationsDir(migrationsDir));
      expect(runs.flat().sort()).toEqual(names);
      const recorded = await withClient(database.url, async (c) =>
        (await c.query(`SELECT "name" FROM "${MIGRATIONS_TABLE}" ORDER BY 1`)).rows.map((r) => r.name),
      );
      expect(recorded).toEqual(names);
      // Run again later: nothing left to apply.
      expect(await applyMigrations(database.url, migrationsDir)).toEqual([]);
    } finally {
      await database.drop();
    }
  });
});
