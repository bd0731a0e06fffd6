/**
 * The production build of the app for scripts that serve it: built when build/
 * is missing or older than the sources, then copied to a directory of the
 * caller's so a later build cannot swap files under a running server. Builds
 * and copies take a lock directory, so two demos (or a demo and a test) never
 * write build/ at the same time.
 */
import { execFile } from "node:child_process";
import { createHash } from "node:crypto";
import { cpSync, existsSync, mkdirSync, readdirSync, rmSync, statSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { promisify } from "node:util";

export class BuildError extends Error {
  constructor(readonly output: string) {
    super(`the app did not build:\n${output.split("\n").slice(-25).join("\n")}`);
    this.name = "BuildError";
  }
}

/** Newest modification time of the files under path, in ms (0 when absent). */
export function newestMtime(path: string): number {
  if (!existsSync(path)) return 0;
  const stat = statSync(path);
  if (!stat.isDirectory()) return stat.mtimeMs;
  let newest = 0;
  for (const entry of readdirSync(path)) newest = Math.max(newest, newestMtime(join(path, entry)));
  return newest;
}

export function buildIsFresh(root: string): boolean {
  const server = join(root, "build", "server", "index.js");
  if (!existsSync(server) || !existsSync(join(root, "build", "client"))) return false;
  const sources = Math.max(newestMtime(join(root, "app")), newestMtime(join(root, "vite.config.ts")));
  return statSync(server).mtimeMs > sources;
}

const LOCK_STALE_MS = 5 * 60_000;

async function withLock<T>(lockDir: string, run: () => Promise<T>): Promise<T> {
  mkdirSync(join(lockDir, ".."), { recursive: true });
  for (;;) {
    try {
      mkdirSync(lockDir);
      break;
    } catch {
      // Left by a killed process: take it over.
      const age = existsSync(lockDir) ? Date.now() - statSync(lockDir).mtimeMs : 0;
      if (age > LOCK_STALE_MS) rmSync(lockDir, { recursive: true, force: true });
      else await new Promise((r) => setTimeout(r, 250));
    }
  }
  try {
    return await run();
  } finally {
    rmSync(lockDir, { recursive: true, force: true });
  }
}

/**
 * A directory for a private copy of the build, one per key (the demo's data
 * directory), inside node_modules so the server bundle finds the project's
 * packages. Copies older than a day (left by killed runs) are removed.
 */
export function privateBuildDir(root: string, key: string): string {
  const parent = join(root, "node_modules", ".cache", "cod-lead-sync-demo");
  mkdirSync(parent, { recursive: true });
  for (const old of readdirSync(parent)) {
    const path = join(parent, old);
    if (Date.now() - statSync(path).mtimeMs > 24 * 3600_000) rmSync(path, { recursive: true, force: true });
  }
  return join(parent, createHash("sha256").update(key).digest("hex").slice(0, 12));
}

const buildLock = (root: string) => join(root, "node_modules", ".cache", "cod-lead-sync-build.lock");

/** Builds when build/ is older than the sources (under the same lock as every other build); whether it built. */
export async function freshBuild(root: string): Promise<boolean> {
  return withLock(buildLock(root), async () => {
    if (buildIsFresh(root)) return false;
    await runBuild(root);
    return true;
  });
}

export interface PreparedBuild {
  /** Directory holding build/ (serve with this as the working directory). */
  dir: string;
  built: boolean;
}

/**
 * Builds when needed (calling onBuild first) and copies build/ into dest/build.
 * dest must sit inside the project so the server bundle finds node_modules.
 */
export async function prepareBuild(root: string, dest: string, onBuild: () => void): Promise<PreparedBuild> {
  return withLock(buildLock(root), async () => {
    let built = false;
    // A build started elsewhere without the lock (a test's own `remix vite:build`) can leave
    // build/ half written for a few seconds: copy again until the copy has a server bundle.
    for (let attempt = 1; ; attempt++) {
      if (!buildIsFresh(root)) {
        if (!built) onBuild();
        await runBuild(root);
        built = true;
      }
      rmSync(join(dest, "build"), { recursive: true, force: true });
      mkdirSync(dest, { recursive: true });
      cpSync(join(root, "build"), join(dest, "build"), { recursive: true });
      if (existsSync(join(dest, "build", "server", "index.js")) && existsSync(join(dest, "build", "client", "assets")))
        break;
      if (attempt === 5) throw new BuildError("build/ has no server bundle or client assets after building");
      await new Promise((r) => setTimeout(r, 2000));
    }
    return { dir: dest, built };
  });
}

async function runBuild(root: string): Promise<void> {
  const cli = join(root, "node_modules", "@remix-run", "dev", "dist", "cli.js");
  try {
    await promisify(execFile)(process.execPath, [cli, "vite:build"], { cwd: root, maxBuffer: 64 * 1024 * 1024 });
  } catch (error) {
    const e = error as { stdout?: string; stderr?: string; message?: string };
    throw new BuildError(`${e.stdout ?? ""}${e.stderr ?? ""}` || (e.message ?? String(error)));
  }
}

/**
 * The arguments after `node` that start the production server on a server
 * build, as `npm start` does: the tsx loader by absolute path, so it resolves
 * from any working directory (servers run from their build copy). Then the
 * Shopify Admin stand-in's preload (shopify-admin/register.ts), inert unless
 * the child's environment sets SHOPIFY_ADMIN_STAND_IN_URL.
 */
export function appServerArgs(root: string, serverBuildPath: string): string[] {
  return [...tsxPreloadArgs(root), join(root, "server.ts"), serverBuildPath];
}

/** `--import tsx --import <stand-in preload>`, for any app process (server or worker). */
export function tsxPreloadArgs(root: string): string[] {
  const tsx = pathToFileURL(createRequire(join(root, "package.json")).resolve("tsx")).href;
  const standIn = pathToFileURL(join(root, "shopify-admin", "register.ts")).href;
  return ["--import", tsx, "--import", standIn];
}
