/**
 * Which test files run a second time on PostgreSQL: those that reach a
 * database, decided from the code rather than kept in a list. A database is
 * opened only through a door — the tests' helper (`test/helpers/db.ts`), the
 * app's client (`app/db.server.ts`, `app/db/client.ts`) — so a file runs on
 * PostgreSQL when its value imports, followed through test/, app/, scripts/,
 * sandbox/ and shopify-admin/, reach a door. A pure test (the mapper, the
 * Seller API client, the sandbox) reaches none and runs once.
 *
 * Read by vitest.config.ts when it starts: plain text scanning, no TypeScript
 * compiler, a few milliseconds for the whole tree.
 */
import { existsSync, readFileSync, readdirSync, statSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";

const ROOT = resolve(import.meta.dirname, "..", "..");
/** The modules that open a database. */
export const DATABASE_DOORS = ["test/helpers/db.ts", "app/db.server.ts", "app/db/client.ts"];

const EXTENSIONS = ["", ".ts", ".tsx", ".js", "/index.ts", "/index.tsx"];
// import x from "a"; import { b } from "a"; export { c } from "a"; export * from "a"; import "a"; import("a")
const STATIC =
  /(?:^|\n)\s*(import|export)\s+(type\s+)?([^;]*?)\s*from\s*["']([^"']+)["']|(?:^|\n)\s*import\s*["']([^"']+)["']|import\(\s*["']([^"']+)["']\s*\)/g;

export interface ImportGraph {
  /** Repository-relative file -> what it loads at run time (repository files, or package names). */
  edges: Map<string, string[]>;
}

function resolveFile(fromFile: string, spec: string): string | null {
  const base = resolve(ROOT, dirname(fromFile), spec);
  for (const ext of EXTENSIONS) {
    const path = base + ext;
    if (existsSync(path) && statSync(path).isFile()) return relative(ROOT, path).split("\\").join("/");
  }
  if (spec.endsWith(".js")) {
    const ts = base.slice(0, -3) + ".ts";
    if (existsSync(ts)) return relative(ROOT, ts).split("\\").join("/");
  }
  return null;
}

/** Only type names: erased at run time, loads nothing. */
function typeOnly(clause: string): boolean {
  const braces = clause.match(/^\{([\s\S]*)\}$/);
  if (!braces) return false;
  const names = braces[1]
    .split(",")
    .map((n) => n.trim())
    .filter(Boolean);
  return names.length > 0 && names.every((n) => n.startsWith("type "));
}

/** What one file loads at run time: its value imports, resolved. */
export function runtimeImports(file: string): string[] {
  const text = readFileSync(join(ROOT, file), "utf8");
  const out: string[] = [];
  for (const m of text.matchAll(STATIC)) {
    const spec = m[4] ?? m[5] ?? m[6];
    if (!spec) continue;
    if (m[2] || (m[3] && typeOnly(m[3].trim()))) continue;
    if (spec.startsWith(".")) {
      const target = resolveFile(file, spec);
      if (target) out.push(target);
    } else {
      out.push(spec.startsWith("@") ? spec.split("/").slice(0, 2).join("/") : spec.split("/")[0]);
    }
  }
  return out;
}

/** Every file a test file loads, itself included. */
export function closureOf(file: string, cache = new Map<string, string[]>()): Set<string> {
  const seen = new Set<string>();
  const stack = [file];
  while (stack.length > 0) {
    const next = stack.pop()!;
    if (seen.has(next)) continue;
    seen.add(next);
    if (!/\.(ts|tsx|js|mjs)$/.test(next) || next.startsWith("node_modules/")) continue;
    let imports = cache.get(next);
    if (!imports) {
      imports = runtimeImports(next);
      cache.set(next, imports);
    }
    stack.push(...imports);
  }
  return seen;
}

function testFiles(dir = "test"): string[] {
  const files: string[] = [];
  for (const entry of readdirSync(join(ROOT, dir), { withFileTypes: true })) {
    const path = `${dir}/${entry.name}`;
    if (entry.isDirectory()) {
      if (path !== "test/e2e" && path !== "test/fixtures") files.push(...testFiles(path));
    } else if (/\.test\.tsx?$/.test(entry.name)) files.push(path);
  }
  return files.sort();
}

export interface DatabaseTestSelection {
  /** Files that reach a database: they run on both databases. */
  database: string[];
  /** Files that reach none: they run once. */
  pure: string[];
}

export function selectDatabaseTests(): DatabaseTestSelection {
  const cache = new Map<string, string[]>();
  const selection: DatabaseTestSelection = { database: [], pure: [] };
  for (const file of testFiles()) {
    const closure = closureOf(file, cache);
    (DATABASE_DOORS.some((door) => closure.has(door)) ? selection.database : selection.pure).push(file);
  }
  return selection;
}
