/**
 * `npm run db:migrate`: applies the migrations DATABASE_URL lacks. SQLite
 * (default prisma/dev.sqlite): `prisma migrate deploy`. PostgreSQL: the
 * project's runner (app/db/migrations.server.ts), safe to run from several
 * processes at once; `prisma migrate` cannot run on PostgreSQL offline.
 */
// First: production defaults (app/env.server.ts: NODE_ENV, .env); the app's log lines are JSON, named for the
// command. What the command tells the operator (counts, usage) stays plain text on stdout and stderr.
import { setProcessRole } from "../../app/runtime/logger.server";
import { execFileSync } from "node:child_process";
import { join } from "node:path";
import { databaseKind, UnsupportedDatabaseUrlError } from "../../app/db/url";
import { childProcessEnv, databaseEnv, EnvError } from "../../app/env.server";
import { applyMigrations, MigrationFailedError } from "../../app/db/migrations.server";

setProcessRole("migrate");

const root = join(import.meta.dirname, "..", "..");

let kind;
let url = "";
try {
  url = databaseEnv().DATABASE_URL;
  kind = databaseKind(url);
  if (kind === "postgres") {
    const applied = await applyMigrations(url, join(root, "prisma", "migrations"));
    console.log(applied.length ? `applied ${applied.join(", ")}` : "PostgreSQL: every migration was already applied.");
  }
} catch (error) {
  // Known failures in one line (a failed migration was rolled back whole); anything else with its stack.
  if (!(
    error instanceof EnvError ||
    error instanceof UnsupportedDatabaseUrlError ||
    error instanceof MigrationFailedError
  ))
    throw error;
  console.error(error.message);
  process.exit(1);
}
if (kind === "sqlite") {
  execFileSync(process.execPath, [join(root, "node_modules", "prisma", "build", "index.js"), "migrate", "deploy"], {
    cwd: root,
    env: childProcessEnv({ DATABASE_URL: url }),
    stdio: "inherit",
  });
}
