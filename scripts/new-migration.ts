/**
 * `npm run db:new-migration -- NAME`: writes prisma/migrations/<timestamp>_NAME/migration.sql
 * with the SQL that takes the existing migrations to prisma/schema.prisma.
 *
 * Why not `prisma migrate dev`: with the JavaScript schema engine (the only one
 * that works offline) Prisma cannot build a shadow database, so it diffs against
 * an empty one. Here the existing migrations are applied to a scratch SQLite
 * file, introspected with `db pull`, and diffed datamodel to datamodel.
 */
import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createClient } from "@libsql/client";

const name = process.argv[2];
if (!name || !/^[a-z0-9_]+$/.test(name)) {
  console.error("usage: npm run db:new-migration -- <name_in_snake_case>");
  process.exit(2);
}

const migrationsDir = join("prisma", "migrations");
const scratch = mkdtempSync(join(tmpdir(), "cod-migration-"));
const url = `file:${join(scratch, "scratch.sqlite")}`;
const prisma = (args: string[]) =>
  execFileSync(process.execPath, [join("node_modules", "prisma", "build", "index.js"), ...args], {
    env: { ...process.env, DATABASE_URL: url, PRISMA_HIDE_UPDATE_MESSAGE: "1" },
    encoding: "utf8",
    stdio: ["ignore", "pipe", "inherit"],
  });

try {
  const client = createClient({ url });
  for (const dir of readdirSync(migrationsDir, { withFileTypes: true }).filter((d) => d.isDirectory()).map((d) => d.name).sort()) {
    await client.executeMultiple(readFileSync(join(migrationsDir, dir, "migration.sql"), "utf8"));
  }
  client.close();
  const current = join(scratch, "current.prisma");
  writeFileSync(current, prisma(["db", "pull", "--print"]).replace(/^[\s\S]*?(?=generator )/, ""));
  const sql = prisma(["migrate", "diff", "--from-schema-datamodel", current, "--to-schema-datamodel", join("prisma", "schema.prisma"), "--script"]);
  if (!/\b(CREATE|ALTER|DROP|INSERT)\b/.test(sql)) {
    console.log("prisma/schema.prisma matches the migrations: nothing to write.");
  } else {
    const stamp = new Date().toISOString().replace(/\D/g, "").slice(0, 14);
    const dir = join(migrationsDir, `${stamp}_${name}`);
    mkdirSync(dir);
    writeFileSync(join(dir, "migration.sql"), sql.replace(/^[\s\S]*?(?=--)/, ""));
    console.log(`wrote ${join(dir, "migration.sql")}`);
  }
} finally {
  rmSync(scratch, { recursive: true, force: true });
}
