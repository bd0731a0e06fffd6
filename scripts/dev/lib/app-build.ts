/**
 * The production build of the app for scripts that serve it: built when build/
 * is missing or older than the sources (the Remix build, then the entry points:
 * build/server.js, build/worker.js, build/ops/*.js, as `npm run build` makes
 * them), then copied to a directory of the caller's so a later build cannot swap
 * files under a running server. Builds and copies take a lock directory, so two
 * demos (or a demo and a test) never write build/ at the same time. The copy also
 * holds the Shopify Admin stand-in's preload built to JavaScript: the app's
 * processes run as production runs them, with no TypeScript loader.
 */
import { execFile } from "node:child_process";
import { createHash } from "node:crypto";
import { cpSync, existsSync, mkdirSync, readdirSync, rmSync, statSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { promisify } from "node:util";
import { build } from "esbuild";
import { buildEntries, entryPoints } from "../../build/entries";

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

/** What a build holds: the Remix server bundle, the client assets and every entry point. */
function builtFiles(root: string): string[] {
  return [
    join("build", "server", "index.js"),
    ...Object.keys(entryPoints(root)).map((name) => join("build", `${name}.js`)),
  ];
}

export function buildIsFresh(root: string): boolean {
  const files = builtFiles(root).map((file) => join(root, file));
  if (!files.every((file) => existsSync(file)) || !existsSync(join(root, "build", "client"))) return false;
  const sources = Math.max(
    // The entry points' sources: the app, the entries and the operator commands (their helpers included).
    ...["app", "vite.config.ts", "server.ts", "worker.ts", join("scripts", "ops"), join("scripts", "build")].map(
      (path) => newestMtime(join(root, path)),
    ),
  );
  return Math.min(...files.map((file) => statSync(file).mtimeMs)) > sources;
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
      if (
        builtFiles(root).every((file) => existsSync(join(dest, file))) &&
        existsSync(join(dest, "build", "client", "assets"))
      )
        break;
      if (attempt === 5) throw new BuildError("build/ has no server bundle or client assets after building");
      await new Promise((r) => setTimeout(r, 2000));
    }
    await buildStandInPreload(root, dest);
    return { dir: dest, built };
  });
}

/**
 * shopify-admin/register.ts as JavaScript in the copy (stand-in/register.js), packages left
 * to node_modules: it and the app's build share one @shopify/shopify-api, whose fetch it rewrites.
 */
async function buildStandInPreload(root: string, dest: string): Promise<void> {
  await build({
    absWorkingDir: root,
    entryPoints: [join(root, "shopify-admin", "register.ts")],
    outfile: join(dest, "stand-in", "register.js"),
    bundle: true,
    platform: "node",
    format: "esm",
    target: "node22",
    packages: "external",
    logLevel: "warning",
  });
}

async function runBuild(root: string): Promise<void> {
  const cli = join(root, "node_modules", "@remix-run", "dev", "dist", "cli.js");
  try {
    await promisify(execFile)(process.execPath, [cli, "vite:build"], { cwd: root, maxBuffer: 64 * 1024 * 1024 });
    await buildEntries(root);
  } catch (error) {
    const e = error as { stdout?: string; stderr?: string; message?: string };
    throw new BuildError(`${e.stdout ?? ""}${e.stderr ?? ""}` || (e.message ?? String(error)));
  }
}

/**
 * The arguments after `node` that start the production server as `npm start` does
 * (build/server.js over build/server/index.js), from a build copy (`buildDir` holds build/).
 * First the Shopify Admin stand-in's preload, inert unless the child's environment sets
 * SHOPIFY_ADMIN_STAND_IN_URL.
 */
export function appServerArgs(buildDir: string): string[] {
  return [
    ...standInPreloadArgs(buildDir),
    join(buildDir, "build", "server.js"),
    join(buildDir, "build", "server", "index.js"),
  ];
}

/** `npm run worker` from a build copy: build/worker.js, after the stand-in's preload. */
export function appWorkerArgs(buildDir: string): string[] {
  return [...standInPreloadArgs(buildDir), join(buildDir, "build", "worker.js")];
}

/** `--import <the stand-in's preload>` (JavaScript, in the build copy), for any app process. */
export function standInPreloadArgs(buildDir: string): string[] {
  return ["--import", pathToFileURL(join(buildDir, "stand-in", "register.js")).href];
}

/** `--import tsx` (by absolute path, so it resolves from any working directory), for the stand-ins' own TypeScript processes. */
export function tsxArgs(root: string): string[] {
  return ["--import", pathToFileURL(createRequire(join(root, "package.json")).resolve("tsx")).href];
}
