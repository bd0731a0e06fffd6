/**
 * Builds the app once for every browser test file (skipped while build/ is
 * fresher than the sources) and hands the copy's directory to the tests.
 */
import type { TestProject } from "vitest/node";
import { ensurePreviewBuild, removePreviewBuild } from "../helpers/preview-server";

declare module "vitest" {
  export interface ProvidedContext {
    previewBuildDir: string;
  }
}

export default async function setup(project: TestProject) {
  const dir = await ensurePreviewBuild();
  project.provide("previewBuildDir", dir);
  return () => removePreviewBuild(dir);
}
