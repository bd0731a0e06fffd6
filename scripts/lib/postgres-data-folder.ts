/**
 * Where the embedded PostgreSQL keeps its cluster (PGDATA), its log and its
 * password. A throw-away server keeps everything in a fresh temporary folder.
 * A persistent one keeps them in the folder its caller names, between runs;
 * when the server's user cannot enter that folder (we are root and a folder
 * above it is private), the cluster itself lives in a root-owned place it can
 * reach, tied to the requested folder by a link, `pgdata`, inside it; a cluster
 * there whose folder is gone is removed at the next such start.
 */
import { createHash, randomBytes } from "node:crypto";
import {
  chmodSync,
  chownSync,
  existsSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { EmbeddedPostgresStartError } from "./postgres-start-error";
import { canEnter, type ServerUser } from "./postgres-server-user";

export interface DataFolder {
  /** The cluster's folder (PGDATA), owned by the server's user. */
  cluster: string;
  /** Where the server's output goes (we open it: the server's user needs no access). */
  logFile: string;
  password: string;
  /** Said in the log when the cluster is not where the caller asked. */
  note?: string;
  /** Whether the cluster was made before (initdb is for an empty one only). */
  initialised: boolean;
  /** After a stop (`started`) or a failed start: what goes. A failed start's log stays. */
  remove(started: boolean): void;
}

/** Persistent clusters of folders the server's user cannot enter (root only). */
export const ROOT_DATA = "/var/lib/cod-lead-sync/postgres";

/** Beside each cluster in ROOT_DATA: the requested folder it is for. */
const OWNER = ".for";

function serverRunsOn(cluster: string): boolean {
  try {
    const pid = Number(readFileSync(join(cluster, "postmaster.pid"), "utf8").split("\n")[0]);
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

function readIfPresent(file: string): string | null {
  try {
    return readFileSync(file, "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return null;
    throw error;
  }
}

/**
 * Removes the clusters in ROOT_DATA whose requested folder is gone or links
 * elsewhere (a test's temporary folder, a demo folder deleted), unless a server
 * still runs on one: each is a whole PostgreSQL cluster that nothing can reach.
 */
function removeOrphans(): void {
  if (!existsSync(ROOT_DATA)) return;
  for (const name of readdirSync(ROOT_DATA)) {
    const cluster = join(ROOT_DATA, name);
    // Another clone's start may remove an orphan between the listing and these reads: gone is skipped.
    if (name.endsWith(OWNER) || !lstatSync(cluster, { throwIfNoEntry: false })?.isDirectory()) continue;
    const owner = readIfPresent(`${cluster}${OWNER}`);
    const link = owner === null ? undefined : lstatSync(join(owner, "pgdata"), { throwIfNoEntry: false });
    const linked = link?.isSymbolicLink() && readlinkSync(join(owner!, "pgdata")) === cluster;
    if (linked || serverRunsOn(cluster)) continue;
    rmSync(cluster, { recursive: true, force: true });
    rmSync(`${cluster}${OWNER}`, { force: true });
  }
}

/** A folder the server's user owns, mode 0700 as PostgreSQL wants. */
function ownedFolder(dir: string, user: ServerUser): void {
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  chmodSync(dir, 0o700);
  if (user.ids) chownSync(dir, user.ids.uid, user.ids.gid);
}

function hasCluster(dir: string): boolean {
  return existsSync(join(dir, "PG_VERSION"));
}

export function throwAwayFolder(user: ServerUser, logFile?: string): DataFolder {
  // A private TMPDIR is no place for a server that runs as another user.
  const base = canEnter(user, tmpdir()) ? tmpdir() : "/tmp";
  const parent = mkdtempSync(join(base, "cod-postgres-"));
  chmodSync(parent, 0o755);
  const cluster = join(parent, "data");
  ownedFolder(cluster, user);
  return {
    cluster,
    logFile: logFile ?? join(parent, "postgres.log"),
    password: randomBytes(12).toString("hex"),
    initialised: false,
    remove(started) {
      if (started || logFile) rmSync(parent, { recursive: true, force: true });
      else rmSync(cluster, { recursive: true, force: true });
    },
  };
}

/** The requested folder's password, made with its cluster and kept beside it (mode 0600). */
function keptPassword(file: string, clusterExists: boolean): string {
  if (existsSync(file)) return readFileSync(file, "utf8").trim();
  if (clusterExists) {
    throw new EmbeddedPostgresStartError(
      `the data folder ${dirname(file)} holds a cluster but not its password file (${file})`,
      `Remove ${dirname(file)} to start afresh (its databases are lost)`,
      null,
    );
  }
  const password = randomBytes(12).toString("hex");
  writeFileSync(file, `${password}\n`, { mode: 0o600 });
  return password;
}

/**
 * The cluster of an unreachable requested folder: in ROOT_DATA under a name
 * tied to the requested path, linked from it. A cluster there without the link
 * belonged to a requested folder since removed (a reset): it goes too.
 */
function reachableCluster(requested: string, link: string, user: ServerUser): { cluster: string; note: string } {
  const linked = lstatSync(link, { throwIfNoEntry: false });
  if (linked && !linked.isSymbolicLink()) {
    throw new EmbeddedPostgresStartError(
      `the server's user (${user.name}) cannot enter ${requested}, where its cluster ${link} is (a folder above it is private)`,
      `Make every folder above it enterable (chmod o+x), or remove ${link} to keep a new cluster where that user can reach`,
      null,
    );
  }
  removeOrphans();
  const key = createHash("sha256").update(requested).digest("hex").slice(0, 16);
  const cluster = linked ? readlinkSync(link) : join(ROOT_DATA, key);
  if (!linked) {
    rmSync(cluster, { recursive: true, force: true });
    mkdirSync(ROOT_DATA, { recursive: true, mode: 0o755 });
    // Who it is for, then the link, then the cluster: a cluster that exists always has both.
    writeFileSync(`${cluster}${OWNER}`, requested);
    symlinkSync(cluster, link);
  }
  ownedFolder(cluster, user);
  return {
    cluster,
    note: `${requested} is inside a folder ${user.name} cannot enter: its cluster is kept in ${cluster} (${link} links there)`,
  };
}

export function persistentFolder(dataDir: string, user: ServerUser, logFile?: string): DataFolder {
  const requested = resolve(dataDir);
  mkdirSync(requested, { recursive: true });
  const link = join(requested, "pgdata");
  let cluster = link;
  let note: string | undefined;
  if (canEnter(user, requested)) ownedFolder(link, user);
  else ({ cluster, note } = reachableCluster(requested, link, user));
  const initialised = hasCluster(cluster);
  return {
    cluster,
    logFile: logFile ?? join(requested, "postgres.log"),
    password: keptPassword(join(requested, "password"), initialised),
    note,
    initialised,
    remove(started) {
      // A cluster this start was making is half made: the next start makes it again.
      if (!started && !initialised) rmSync(cluster, { recursive: true, force: true });
    },
  };
}
