/**
 * The demo's database: by default on an embedded PostgreSQL server whose data
 * folder is kept under the demo's data folder between runs (`--fresh` starts it
 * over), or the user's own PostgreSQL database (`--database-url`); migrated by
 * the project's runner either way.
 *
 * On the embedded server the demo's database is made again at each start: the
 * sandbox and the Shopify Admin stand-in start empty each run, and the app's
 * rows (leads, sessions, tokens) only make sense beside theirs. The last run's
 * database stays on disk until the next run.
 */
import { mkdirSync, rmSync } from "node:fs";
import pg from "pg";
import { applyMigrations } from "../../../app/db/migrations.server";
import { createDatabase, databaseUrl, dropDatabase, startEmbeddedPostgres } from "../../lib/embedded-postgres";
import type { DemoOptions } from "./options";
import type { Shutdown } from "./shutdown";
import { DEMO_DATABASE, postgresFolder } from "../../lib/demo-data";

export interface DemoDatabase {
  url: string;
  /** The embedded server's data folder; undefined on the user's database. */
  folder?: string;
  /** For the demo's log: never the password of the user's database. */
  description: string;
}

/** The demo adds its shops and their history: on a database that already has shops, it would mix with them. */
export class DemoDatabaseNotEmptyError extends Error {
  constructor(where: string) {
    super(
      `The database at ${where} already holds shops: give the demo an empty PostgreSQL database (or none: it starts its own).`,
    );
    this.name = "DemoDatabaseNotEmptyError";
  }
}

export { DEMO_DATABASE, postgresFolder };

function shownUrl(url: string): string {
  const parsed = new URL(url);
  return `${parsed.host}${parsed.pathname}`;
}

async function shopCount(url: string): Promise<number> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return Number((await client.query('SELECT count(*) AS n FROM "Shop"')).rows[0].n);
  } finally {
    await client.end();
  }
}

export async function openDemoDatabase(
  options: Pick<DemoOptions, "database" | "fresh">,
  dataDir: string,
  migrationsDir: string,
  shutdown: Shutdown,
): Promise<DemoDatabase> {
  const choice = options.database;
  // The demo's logs go there whatever the database.
  mkdirSync(dataDir, { recursive: true });
  if (choice.kind === "embedded") {
    const folder = postgresFolder(dataDir);
    if (options.fresh) rmSync(folder, { recursive: true, force: true });
    const server = await startEmbeddedPostgres({ dataDir: folder });
    shutdown.add("PostgreSQL", () => server.stop());
    await dropDatabase(server.url(), DEMO_DATABASE);
    await createDatabase(server.url(), DEMO_DATABASE);
    const url = databaseUrl(server.url(), DEMO_DATABASE);
    await applyMigrations(url, migrationsDir);
    return { url, folder, description: `${url} (PostgreSQL, embedded)` };
  }
  const applied = await applyMigrations(choice.url, migrationsDir);
  if ((await shopCount(choice.url)) > 0) throw new DemoDatabaseNotEmptyError(shownUrl(choice.url));
  return {
    url: choice.url,
    description: `PostgreSQL at ${shownUrl(choice.url)} (${applied.length} migration(s) applied now)`,
  };
}
