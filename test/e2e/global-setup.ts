/**
 * Finds the Chromium to drive (scripts/dev/lib/chromium-path.ts) and builds the app
 * once for every browser test file (skipped while build/ is fresher than the
 * sources); hands both to the tests.
 */
import { execFileSync } from "node:child_process";
import type { TestProject } from "vitest/node";
import { resolveChromium } from "../../scripts/dev/lib/chromium-path";
import { ensurePreviewBuild, removePreviewBuild } from "../helpers/preview-server";

declare module "vitest" {
  export interface ProvidedContext {
    previewBuildDir: string;
    chromiumPath: string;
  }
}

export default async function setup(project: TestProject) {
  const chromium = await resolveChromium();
  const version = execFileSync(chromium.path, ["--version"], { encoding: "utf8" }).trim();
  console.log(`[e2e] Chromium: ${version} at ${chromium.path} (${chromium.source})`);
  project.provide("chromiumPath", chromium.path);
  const dir = await ensurePreviewBuild();
  project.provide("previewBuildDir", dir);
  return () => removePreviewBuild(dir);
}
