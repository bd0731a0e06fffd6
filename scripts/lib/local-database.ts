/**
 * One machine's database when DATABASE_URL is unset (`npm start`, `npm run dev`):
 * an embedded PostgreSQL whose data folder (.data/postgres in the working
 * directory) is kept between runs, with the app's database in it, migrated,
 * around a command that runs with DATABASE_URL pointing there.
 *
 * The command runs as a child process and the server stops after it has exited:
 * the app's own shutdown (its worker finishing its jobs) still has its database.
 */
import { spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import pg from "pg";
import { applyMigrations } from "../../app/db/migrations.server";
import { databaseUrl, startEmbeddedPostgres } from "./embedded-postgres";

/** The data folder, under the working directory (npm runs scripts from the package's root). */
export const LOCAL_DATA_DIR = join(".data", "postgres");
const LOCAL_DATABASE = "cod_lead_sync";

export interface LocalCommand {
  file: string;
  args: readonly string[];
  /** The command's environment, to which DATABASE_URL is added. */
  env: NodeJS.ProcessEnv;
}

export interface LocalDatabaseOptions {
  /** Default: prisma/migrations of the checkout this module is in (or was built into). */
  migrationsDir?: string;
  /** Default LOCAL_DATA_DIR. */
  dataDir?: string;
  log(line: string): void;
}

/** prisma/migrations in the nearest folder above `from` that has one: the sources, or a build inside the checkout. */
export function migrationsDirAbove(from: string): string {
  for (let dir = resolve(from); ; dir = dirname(dir)) {
    const candidate = join(dir, "prisma", "migrations");
    if (existsSync(candidate)) return candidate;
    if (dirname(dir) === dir) throw new Error(`no prisma/migrations above ${from}`);
  }
}

async function ensureDatabase(serverUrl: string, name: string): Promise<void> {
  const client = new pg.Client({ connectionString: serverUrl });
  await client.connect();
  try {
    const found = await client.query("SELECT 1 FROM pg_database WHERE datname = $1", [name]);
    if (found.rowCount === 0) await client.query(`CREATE DATABASE "${name}"`);
  } finally {
    await client.end();
  }
}

/** Runs `command` on the local database; resolves with its exit code once the server has stopped too. */
export async function runOnLocalDatabase(command: LocalCommand, options: LocalDatabaseOptions): Promise<number> {
  const dataDir = resolve(options.dataDir ?? LOCAL_DATA_DIR);
  const server = await startEmbeddedPostgres({ dataDir });
  try {
    await ensureDatabase(server.url(), LOCAL_DATABASE);
    const url = databaseUrl(server.url(), LOCAL_DATABASE);
    const applied = await applyMigrations(url, options.migrationsDir ?? migrationsDirAbove(import.meta.dirname));
    const shown = Object.assign(new URL(url), { password: "" }).toString();
    options.log(
      `database: PostgreSQL (embedded) at ${shown}, its data in ${relative(process.cwd(), dataDir) || "."} kept between runs ` +
        `(password in ${join(relative(process.cwd(), dataDir), "password")}); ${applied.length} migration(s) applied now`,
    );
    const child = spawn(command.file, [...command.args], {
      env: { ...command.env, DATABASE_URL: url },
      stdio: "inherit",
    });
    // Ctrl-C reaches the child from the terminal; a signal sent to this process alone is passed on.
    const forward = (signal: NodeJS.Signals) => child.kill(signal);
    for (const signal of ["SIGINT", "SIGTERM"] as const) process.on(signal, forward);
    const code = await new Promise<number>((done) => {
      child.once("error", (error) => {
        options.log(`could not run ${command.file}: ${error.message}`);
        done(1);
      });
      child.once("exit", (exitCode, signal) => done(exitCode ?? (signal ? 1 : 0)));
    });
    for (const signal of ["SIGINT", "SIGTERM"] as const) process.removeListener(signal, forward);
    return code;
  } finally {
    await server.stop();
  }
}
