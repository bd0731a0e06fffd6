/**
 * The demo's own database: an embedded PostgreSQL whose data folder is kept
 * under the demo's --data-dir between runs (started over with --fresh), the
 * demo's database in it made afresh and migrated at each start, and a URL any
 * tool can connect to while it runs.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import pg from "pg";
import { afterAll, describe, expect, it } from "vitest";
import { openDemoDatabase } from "../../../scripts/dev/demo/database";
import { createShutdown } from "../../../scripts/dev/demo/shutdown";

const root = join(import.meta.dirname, "..", "..", "..");
const migrationsDir = join(root, "prisma", "migrations");
const dataDir = mkdtempSync(join(tmpdir(), "cod-demo-db-"));
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

async function query<T>(url: string, sql: string): Promise<T[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query(sql)).rows as T[];
  } finally {
    await client.end();
  }
}

/** One demo start and stop: what `run` saw on the database it was given. */
async function demoRun<T>(fresh: boolean, run: (url: string) => Promise<T>): Promise<T> {
  const shutdown = createShutdown((name, error) => {
    throw new Error(`${name}: ${String(error)}`);
  });
  try {
    const database = await openDemoDatabase(
      { database: { kind: "embedded" }, fresh },
      dataDir,
      migrationsDir,
      shutdown,
    );
    expect(database.folder).toBe(join(dataDir, "postgres"));
    expect(database.url).toMatch(/^postgresql:\/\/postgres:\w+@127\.0\.0\.1:\d+\/cod_lead_sync_demo$/);
    return await run(database.url);
  } finally {
    await shutdown.run();
  }
}

const maintenance = (url: string) => Object.assign(new URL(url), { pathname: "/postgres" }).toString();
const kept = (url: string) =>
  query<{ n: string }>(maintenance(url), "SELECT count(*) AS n FROM pg_database WHERE datname = 'kept_by_a_user'");

describe("the demo's embedded database", () => {
  it("GIVEN a first run that writes in the demo's database and makes a database of its own WHEN the demo runs again THEN the server's data was kept, its demo database made afresh and migrated; WITH --fresh nothing was kept", async () => {
    await demoRun(false, async (url) => {
      await query(url, "CREATE TABLE left_behind (x int)");
      await query(maintenance(url), "CREATE DATABASE kept_by_a_user");
    });

    const second = await demoRun(false, async (url) => ({
      leftBehind: await query(url, "SELECT to_regclass('left_behind') AS t"),
      migrated: await query(url, `SELECT "name" FROM "_cod_migrations"`),
      kept: await kept(url),
    }));
    expect(second.leftBehind).toEqual([{ t: null }]);
    expect(second.migrated.length).toBeGreaterThan(0);
    expect(second.kept).toEqual([{ n: "1" }]);

    expect(await demoRun(true, kept)).toEqual([{ n: "0" }]);
  }, 240_000);
});
