/** `npm run rotate-key` as an operator runs it: build/ops/rotate-key.js in its own process, on the test's database, with the keys given. */
import { execFile } from "node:child_process";
import { join } from "node:path";
import { promisify } from "node:util";
import { opsScript } from "../helpers/built-app";

export async function runRotateKey(
  buildDir: string,
  databaseUrl: string,
  env: Record<string, string>,
): Promise<{ code: number; out: string }> {
  try {
    const { stdout, stderr } = await promisify(execFile)(process.execPath, [opsScript(buildDir, "rotate-key")], {
      cwd: join(import.meta.dirname, "..", ".."),
      env: { PATH: process.env.PATH, NODE_ENV: "production", DATABASE_URL: databaseUrl, ...env },
    });
    return { code: 0, out: stdout + stderr };
  } catch (error) {
    const failed = error as { code: number; stdout: string; stderr: string };
    return { code: failed.code, out: failed.stdout + failed.stderr };
  }
}
