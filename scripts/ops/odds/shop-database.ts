/**
 * The database `odds:evaluate --shop` reads: DATABASE_URL when it is set; else the
 * demo's, on the embedded PostgreSQL `npm run demo` keeps in its data folder
 * (DIR/postgres, the demo's --data-dir, default .demo), started for the read and
 * stopped after it. The last demo run's database stays there until the next run.
 */
import { existsSync } from "node:fs";
import { join, relative } from "node:path";
import pg from "pg";
import type { PrismaClient } from "@prisma/client";
import { createPrismaClient } from "../../../app/db/client";
import { databaseEnv } from "../../../app/env.server";

/** The demo's data folder by default, as `npm run demo` has it. */
export const DEFAULT_DEMO_DATA_DIR = ".demo";

/** No database to read: no DATABASE_URL, and no demo database in the folder named. */
export class NoShopDatabaseError extends Error {
  constructor(reason: string) {
    super(`${reason}: run \`npm run demo\` first (its --data-dir), or set DATABASE_URL to the app's database`);
    this.name = "NoShopDatabaseError";
  }
}

async function hasDatabase(serverUrl: string, name: string): Promise<boolean> {
  const client = new pg.Client({ connectionString: serverUrl });
  await client.connect();
  try {
    return ((await client.query("SELECT 1 FROM pg_database WHERE datname = $1", [name])).rowCount ?? 0) > 0;
  } finally {
    await client.end();
  }
}

/** Runs `read` with a client of the database `--shop` reads, and closes all it opened. */
export async function withShopDatabase<T>(
  dataDir: string,
  read: (db: PrismaClient, where: string) => Promise<T>,
): Promise<T> {
  const url = databaseEnv().DATABASE_URL;
  if (url) {
    const db = createPrismaClient(url, 2);
    try {
      return await read(db, "DATABASE_URL");
    } finally {
      await db.$disconnect();
    }
  }
  const { DEMO_DATABASE, postgresFolder } = await import("../../lib/demo-data");
  const { databaseUrl, EmbeddedPostgresStartError, startEmbeddedPostgres } =
    await import("../../lib/embedded-postgres");
  const folder = postgresFolder(dataDir);
  const shown = relative(process.cwd(), folder) || folder;
  // Never a new cluster: only the one a demo run left.
  if (!existsSync(join(folder, "pgdata")))
    throw new NoShopDatabaseError(`no DATABASE_URL, and no demo database in ${shown}`);
  let server;
  try {
    server = await startEmbeddedPostgres({ dataDir: folder });
  } catch (error) {
    if (!(error instanceof EmbeddedPostgresStartError)) throw error;
    throw new NoShopDatabaseError(
      `the demo's PostgreSQL in ${shown} did not start (is the demo still running? stop it first) — ${error.message}`,
    );
  }
  try {
    if (!(await hasDatabase(server.url(), DEMO_DATABASE)))
      throw new NoShopDatabaseError(`the PostgreSQL in ${shown} holds no demo database`);
    const db = createPrismaClient(databaseUrl(server.url(), DEMO_DATABASE), 2);
    try {
      return await read(db, `the demo's database in ${shown}`);
    } finally {
      await db.$disconnect();
    }
  } finally {
    await server.stop();
  }
}
