/**
 * The production build (`npm run build`'s build/: the Remix build, build/server.js,
 * build/worker.js, build/ops/*.js) for a test file that runs an entry point as
 * production does: a private copy made before its tests (built first when older than
 * the sources) and removed after. Call at the top of the file; call the result inside a test.
 */
import { join } from "node:path";
import { afterAll, beforeAll } from "vitest";
import { ensurePreviewBuild, removePreviewBuild } from "./preview-server";

export function useBuiltApp(): () => string {
  let dir: string | undefined;
  beforeAll(async () => {
    dir = await ensurePreviewBuild();
  }, 300_000);
  afterAll(() => {
    if (dir) removePreviewBuild(dir);
  });
  return () => {
    if (!dir) throw new Error("the build is not ready yet");
    return dir;
  };
}

/** An operator command as `npm run <name>` runs it: node on build/ops/<script>.js of the copy. */
export const opsScript = (buildDir: string, script: string) => join(buildDir, "build", "ops", `${script}.js`);
