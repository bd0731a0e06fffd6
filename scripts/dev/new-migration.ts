/**
 * `npm run db:new-migration -- NAME`: writes the migrations that take the
 * databases to prisma/schema.prisma, both with the same <timestamp>_NAME:
 * - prisma/migrations/<timestamp>_NAME/migration.sql for SQLite;
 * - prisma/migrations-postgres/<timestamp>_NAME/migration.sql for PostgreSQL,
 *   from prisma/postgres/schema.prisma (generated from prisma/schema.prisma).
 * Either is skipped when its history already matches the model.
 *
 * Not `prisma migrate dev`: offline, Prisma's JavaScript schema engine builds no
 * shadow database and cannot migrate PostgreSQL (docs/decisions/0002-two-migration-trees.md).
 * SQLite: the migrations applied to a scratch file, read back with `db pull`, diffed
 * to the model. PostgreSQL: the snapshot prisma/migrations-postgres/schema.prisma
 * diffed to the new schema, rendered by an embedded server started for the moment.
 */
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createClient } from "@libsql/client";
import { migrationNames } from "../../app/db/migrations.server";
import { postgresSchema } from "./lib/postgres-schema";
import { EmbeddedPostgresStartError, startEmbeddedPostgres } from "./lib/embedded-postgres";

const name = process.argv[2];
if (!name || !/^[a-z0-9_]+$/.test(name)) {
  console.error("usage: npm run db:new-migration -- <name_in_snake_case>");
  process.exit(2);
}

const root = join(import.meta.dirname, "..", "..");
const migrationsDir = join(root, "prisma", "migrations");
const postgresMigrationsDir = join(root, "prisma", "migrations-postgres");
const postgresSchemaPath = join(root, "prisma", "postgres", "schema.prisma");
const postgresSnapshotPath = join(postgresMigrationsDir, "schema.prisma");
const stamp = new Date().toISOString().replace(/\D/g, "").slice(0, 14);
const scratch = mkdtempSync(join(tmpdir(), "cod-migration-"));

const prisma = (args: string[], databaseUrl: string) =>
  execFileSync(process.execPath, [join(root, "node_modules", "prisma", "build", "index.js"), ...args], {
    cwd: root,
    env: { ...process.env, DATABASE_URL: databaseUrl, PRISMA_HIDE_UPDATE_MESSAGE: "1" },
    encoding: "utf8",
    stdio: ["ignore", "pipe", "inherit"],
  });

const changesSomething = (sql: string) => /\b(CREATE|ALTER|DROP|INSERT)\b/.test(sql);

function writeMigration(dir: string, sql: string): void {
  const target = join(dir, `${stamp}_${name}`);
  mkdirSync(target, { recursive: true });
  writeFileSync(join(target, "migration.sql"), sql.replace(/^[\s\S]*?(?=--)/, ""));
  console.log(`wrote ${join(target, "migration.sql")}`);
}

async function sqliteMigration(): Promise<void> {
  const url = `file:${join(scratch, "scratch.sqlite")}`;
  const client = createClient({ url });
  for (const dir of migrationNames(migrationsDir)) {
    await client.executeMultiple(readFileSync(join(migrationsDir, dir, "migration.sql"), "utf8"));
  }
  client.close();
  const current = join(scratch, "current.prisma");
  writeFileSync(current, prisma(["db", "pull", "--print"], url).replace(/^[\s\S]*?(?=generator )/, ""));
  const sql = prisma(
    [
      "migrate",
      "diff",
      "--from-schema-datamodel",
      current,
      "--to-schema-datamodel",
      join(root, "prisma", "schema.prisma"),
      "--script",
    ],
    url,
  );
  if (changesSomething(sql)) writeMigration(migrationsDir, sql);
  else console.log("SQLite: the migrations match prisma/schema.prisma, nothing to write.");
}

async function postgresMigration(): Promise<void> {
  const wanted = postgresSchema(readFileSync(join(root, "prisma", "schema.prisma"), "utf8"));
  writeFileSync(postgresSchemaPath, wanted);
  const migrated = existsSync(postgresSnapshotPath) ? readFileSync(postgresSnapshotPath, "utf8") : null;
  if (migrated === wanted) {
    console.log("PostgreSQL: the migrations match prisma/schema.prisma, nothing to write.");
    return;
  }
  const server = await startEmbeddedPostgres({ throwAway: true });
  try {
    const from = migrated === null ? ["--from-empty"] : ["--from-schema-datamodel", postgresSnapshotPath];
    const config = join(root, "prisma", "postgres", "prisma.config.ts");
    const sql = prisma(
      ["migrate", "diff", "--config", config, ...from, "--to-schema-datamodel", postgresSchemaPath, "--script"],
      server.url(),
    );
    if (changesSomething(sql)) writeMigration(postgresMigrationsDir, sql);
    else console.log("PostgreSQL: no SQL to run for this change.");
    mkdirSync(postgresMigrationsDir, { recursive: true });
    writeFileSync(postgresSnapshotPath, wanted);
  } finally {
    await server.stop();
  }
}

try {
  await sqliteMigration();
  await postgresMigration();
} catch (error) {
  if (!(error instanceof EmbeddedPostgresStartError)) throw error;
  console.error(error.message);
  process.exitCode = 1;
} finally {
  rmSync(scratch, { recursive: true, force: true });
}
