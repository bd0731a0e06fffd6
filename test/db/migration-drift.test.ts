/**
 * The data model (prisma/schema.prisma) and the migration history agree: a
 * database built by the migrations is exactly the one the model describes, and
 * concurrent migrators apply each migration once. A model change without
 * `npm run db:new-migration` fails here.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import pg from "pg";
import { describe, expect, it } from "vitest";
import { applyMigrations, migrationNames, MIGRATIONS_TABLE } from "../../app/db/migrations.server";
import { createEmptyDatabase } from "../helpers/db";
import { prisma, root } from "../helpers/prisma-cli";

const schemaPath = join(root, "prisma", "schema.prisma");
const migrationsDir = join(root, "prisma", "migrations");

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

describe("migrations and data model", () => {
  it("the snapshot beside the migrations is prisma/schema.prisma (db:new-migration diffs the next one from it)", () => {
    expect(readFileSync(join(migrationsDir, "schema.prisma"), "utf8")).toBe(readFileSync(schemaPath, "utf8"));
  });

  /**
   * Prisma cannot read a PostgreSQL database offline (its JavaScript schema engine
   * fails to introspect one), so the check compares catalogs: a database built by
   * the migrations against one built by the SQL Prisma renders from the model.
   */
  it("the migrations build exactly the database prisma/schema.prisma describes", async () => {
    const migrated = await createEmptyDatabase();
    const modelled = await createEmptyDatabase();
    try {
      await applyMigrations(migrated.url, migrationsDir);
      const sql = prisma(
        ["migrate", "diff", "--from-empty", "--to-schema-datamodel", schemaPath, "--script"],
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
    // Every migration applied, then Prisma's CLI: minutes on a loaded machine.
  }, 300_000);

  it("processes migrating at once apply each migration exactly once", async () => {
    const database = await createEmptyDatabase();
    try {
      const runs = await Promise.all([1, 2, 3, 4, 5].map(() => applyMigrations(database.url, migrationsDir)));
      const names = migrationNames(migrationsDir);
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
