/**
 * `npm run db:migrate`: applies the migrations DATABASE_URL lacks. SQLite
 * (default prisma/dev.sqlite): `prisma migrate deploy`. PostgreSQL: the
 * project's runner (scripts/lib/migrations.ts), safe to run from several
 * processes at once; `prisma migrate` cannot run on PostgreSQL offline.
 */
import { execFileSync } from "node:child_process";
import { join } from "node:path";
import { DEFAULT_DATABASE_URL, databaseKind } from "../app/db-url";
import { applyMigrations } from "./lib/migrations";

const root = join(import.meta.dirname, "..");
const url = process.env.DATABASE_URL || DEFAULT_DATABASE_URL;

if (databaseKind(url) === "postgres") {
  const applied = await applyMigrations(url, join(root, "prisma", "migrations"));
  console.log(applied.length ? `applied ${applied.join(", ")}` : "PostgreSQL: every migration was already applied.");
} else {
  execFileSync(process.execPath, [join(root, "node_modules", "prisma", "build", "index.js"), "migrate", "deploy"], {
    cwd: root,
    env: { ...process.env, DATABASE_URL: url },
    stdio: "inherit",
  });
}
