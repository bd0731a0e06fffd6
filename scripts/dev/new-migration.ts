/**
 * `npm run db:new-migration -- NAME`: writes
 * prisma/migrations/<timestamp>_NAME/migration.sql, the SQL that takes the
 * database from the last migration to prisma/schema.prisma; nothing when the
 * history already matches the model.
 *
 * Not `prisma migrate dev`: offline, Prisma's JavaScript schema engine builds no
 * shadow database and cannot migrate PostgreSQL (docs/decisions/0002-two-migration-trees.md).
 * Instead the snapshot prisma/migrations/schema.prisma (the model the last
 * migration led to) is diffed to the model, rendered by an embedded server
 * started for the moment, and the snapshot moves on.
 */
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { EmbeddedPostgresStartError, startEmbeddedPostgres } from "../lib/embedded-postgres";

const name = process.argv[2];
if (!name || !/^[a-z0-9_]+$/.test(name)) {
  console.error("usage: npm run db:new-migration -- <name_in_snake_case>");
  process.exit(2);
}

const root = join(import.meta.dirname, "..", "..");
const schemaPath = join(root, "prisma", "schema.prisma");
const migrationsDir = join(root, "prisma", "migrations");
const snapshotPath = join(migrationsDir, "schema.prisma");
const stamp = new Date().toISOString().replace(/\D/g, "").slice(0, 14);

const prisma = (args: string[], databaseUrl: string) =>
  execFileSync(process.execPath, [join(root, "node_modules", "prisma", "build", "index.js"), ...args], {
    cwd: root,
    env: { ...process.env, DATABASE_URL: databaseUrl, PRISMA_HIDE_UPDATE_MESSAGE: "1" },
    encoding: "utf8",
    stdio: ["ignore", "pipe", "inherit"],
  });

const changesSomething = (sql: string) => /\b(CREATE|ALTER|DROP|INSERT)\b/.test(sql);

const wanted = readFileSync(schemaPath, "utf8");
const migrated = existsSync(snapshotPath) ? readFileSync(snapshotPath, "utf8") : null;
if (migrated === wanted) {
  console.log("The migrations match prisma/schema.prisma, nothing to write.");
  process.exit(0);
}
const server = await startEmbeddedPostgres({ throwAway: true }).catch((error: unknown) => {
  if (!(error instanceof EmbeddedPostgresStartError)) throw error;
  console.error(error.message);
  process.exit(1);
});
try {
  const from = migrated === null ? ["--from-empty"] : ["--from-schema-datamodel", snapshotPath];
  const sql = prisma(["migrate", "diff", ...from, "--to-schema-datamodel", schemaPath, "--script"], server.url());
  if (changesSomething(sql)) {
    const target = join(migrationsDir, `${stamp}_${name}`);
    mkdirSync(target, { recursive: true });
    writeFileSync(join(target, "migration.sql"), sql.replace(/^[\s\S]*?(?=--)/, ""));
    console.log(`wrote ${join(target, "migration.sql")}`);
  } else console.log("No SQL to run for this change.");
  mkdirSync(migrationsDir, { recursive: true });
  writeFileSync(snapshotPath, wanted);
} finally {
  await server.stop();
}
