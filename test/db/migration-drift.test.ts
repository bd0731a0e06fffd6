/**
 * The data model (prisma/schema.prisma) and the SQLite migration history agree:
 * a database built by the migrations is exactly the one the model describes. A
 * model change without `npm run db:new-migration` fails here
 * (migration-drift.postgres.test.ts checks the PostgreSQL history).
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { postgresSchema } from "../../scripts/dev/lib/postgres-schema";
import { applyMigrations, postgresMigrationsDir } from "../../app/db/migrations.server";
import { prisma, root } from "../helpers/prisma-cli";

const schemaPath = join(root, "prisma", "schema.prisma");
const postgresSchemaPath = join(root, "prisma", "postgres", "schema.prisma");
const migrationsDir = join(root, "prisma", "migrations");
const scratch = mkdtempSync(join(tmpdir(), "cod-drift-"));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

describe("migrations and data model", () => {
  it("prisma/postgres/schema.prisma is the one generated from prisma/schema.prisma (npm run db:generate)", () => {
    expect(readFileSync(postgresSchemaPath, "utf8")).toBe(postgresSchema(readFileSync(schemaPath, "utf8")));
    // What the last PostgreSQL migration led to: db:new-migration diffs the next one from it.
    expect(readFileSync(join(postgresMigrationsDir(migrationsDir), "schema.prisma"), "utf8")).toBe(
      readFileSync(postgresSchemaPath, "utf8"),
    );
  });

  // The SQLite history is read back with `db pull` (SQLite only); migration-drift.postgres.test.ts checks the PostgreSQL one.
  it("SQLite: the migrations build exactly the database prisma/schema.prisma describes", async () => {
    const url = `file:${join(scratch, "drift.sqlite")}`;
    await applyMigrations(url, migrationsDir);
    const migrated = join(scratch, "migrated.prisma");
    writeFileSync(migrated, prisma(["db", "pull", "--print"], url).replace(/^[\s\S]*?(?=generator )/, ""));
    const diff = prisma(
      ["migrate", "diff", "--from-schema-datamodel", migrated, "--to-schema-datamodel", schemaPath, "--script"],
      url,
    );
    expect(diff).not.toMatch(/\b(CREATE|ALTER|DROP)\b/);
    // Every migration applied, then Prisma's CLI twice: minutes on a loaded machine.
  }, 300_000);
});
