/**
 * `npm run db:migrate`: applies the migrations DATABASE_URL lacks, with the
 * project's runner (app/db/migrations.server.ts), safe to run from several
 * processes at once; `prisma migrate` cannot run on PostgreSQL offline.
 */
// First: production defaults (app/env.server.ts: NODE_ENV, .env); the app's log lines are JSON, named for the
// command. What the command tells the operator (counts, usage) stays plain text on stdout and stderr.
import { setProcessRole } from "../../app/runtime/logger.server";
import { join } from "node:path";
import { databaseUrl, EnvError } from "../../app/env.server";
import { applyMigrations, MigrationFailedError } from "../../app/db/migrations.server";

setProcessRole("migrate");

const root = join(import.meta.dirname, "..", "..");

try {
  const applied = await applyMigrations(databaseUrl(), join(root, "prisma", "migrations"));
  console.log(applied.length ? `applied ${applied.join(", ")}` : "every migration was already applied.");
} catch (error) {
  // Known failures in one line (a failed migration was rolled back whole); anything else with its stack.
  if (!(error instanceof EnvError || error instanceof MigrationFailedError)) throw error;
  console.error(error.message);
  process.exit(1);
}
