/**
 * The demo's database: a fresh SQLite file (the default), an embedded
 * PostgreSQL server started for the run (`--postgres`), or the user's own
 * PostgreSQL database (`--database-url`), migrated by the project's runner.
 */
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import pg from "pg";
import { applyMigrations } from "../../../app/db/migrations.server";
import { createDatabase, databaseUrl, startEmbeddedPostgres } from "../lib/embedded-postgres";
import { freshDatabase } from "./demo-shop";
import type { DemoOptions } from "./options";
import type { Shutdown } from "./shutdown";

export interface DemoDatabase {
  url: string;
  /** For the demo's log: never the password. */
  description: string;
}

/** The demo adds its shops and their history: on a database that already has shops, it would mix with them. */
export class DemoDatabaseNotEmptyError extends Error {
  constructor(where: string) {
    super(
      `The database at ${where} already holds shops: give the demo an empty PostgreSQL database (or none: --postgres starts one).`,
    );
    this.name = "DemoDatabaseNotEmptyError";
  }
}

const DEMO_DATABASE = "cod_lead_sync_demo";

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
  choice: DemoOptions["database"],
  dataDir: string,
  migrationsDir: string,
  shutdown: Shutdown,
): Promise<DemoDatabase> {
  // The demo's logs go there whatever the database.
  mkdirSync(dataDir, { recursive: true });
  if (choice.kind === "sqlite") {
    const url = await freshDatabase(dataDir, migrationsDir);
    return { url, description: `${join(dataDir, "demo.sqlite")} (SQLite, fresh, migrations applied)` };
  }
  if (choice.kind === "embedded-postgres") {
    // Throw-away data: durability traded for speed, as in the tests. Its log beside the demo's others.
    const server = await startEmbeddedPostgres({ throwAway: true, logFile: join(dataDir, "postgres.log") });
    shutdown.add("PostgreSQL", () => server.stop());
    await createDatabase(server.url(), DEMO_DATABASE);
    const url = databaseUrl(server.url(), DEMO_DATABASE);
    await applyMigrations(url, migrationsDir);
    return {
      url,
      description: `PostgreSQL 17, embedded, on 127.0.0.1:${server.port} (fresh, migrations applied; gone when the demo stops)`,
    };
  }
  const applied = await applyMigrations(choice.url, migrationsDir);
  if ((await shopCount(choice.url)) > 0) throw new DemoDatabaseNotEmptyError(shownUrl(choice.url));
  return {
    url: choice.url,
    description: `PostgreSQL at ${shownUrl(choice.url)} (${applied.length} migration(s) applied now)`,
  };
}
