/**
 * The production build, made once before the first test file of a whole run
 * when build/ is older than the sources (a fresh clone has none). Made by the
 * first file that serves it instead, it held every other such file (a worker
 * each, the chaos threads) on the build lock for the minute or more it takes on
 * a loaded machine, and shared the cores with the files starting meanwhile. A
 * run of chosen files (`vitest run some/file`) leaves it to the files that need
 * it, so editing app/ and running one unit test does not wait for a build.
 */
import { join } from "node:path";
import type { TestProject } from "vitest/node";
import { freshBuild } from "../../scripts/dev/lib/app-build";

const root = join(import.meta.dirname, "..", "..");

export default async function setup(project: TestProject) {
  // Vitest keeps the command line's file filters here (not a public field: absent, the run counts as chosen files).
  const filters = (project.vitest as unknown as { filenamePattern?: string[] }).filenamePattern;
  if (!("filenamePattern" in project.vitest) || (filters && filters.length > 0)) return;
  const started = Date.now();
  if (await freshBuild(root))
    console.log(`[build] the production build, made once for the run (${Math.round((Date.now() - started) / 1000)} s)`);
}
