/**
 * limitHeapGrowth bounds how far V8's old generation grows past what survived
 * the last full collection: a process that keeps ~50 MB live while replacing it
 * (test/helpers/heap-workload.ts) stays near its live size with the app's
 * setting, and reaches several times it with V8's own factor.
 */
import { execFile } from "node:child_process";
import { join } from "node:path";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";
import { parseProcessEnv } from "../../app/env.server";

const workload = join(import.meta.dirname, "..", "helpers", "heap-workload.ts");

async function runWorkload(percent: number | "default") {
  const { stdout } = await promisify(execFile)(
    process.execPath,
    ["--expose-gc", "--import", "tsx", workload, String(percent)],
    {
      env: { PATH: process.env.PATH ?? "", NODE_ENV: "test" },
    },
  );
  return JSON.parse(stdout.trim().split("\n").pop()!) as { maxOldMb: number; liveMb: number };
}

describe("heap growth", () => {
  it(
    "keeps the old generation near its live size with the app's setting, not with V8's own",
    { timeout: 60_000 },
    async () => {
      const limited = await runWorkload(parseProcessEnv({}).HEAP_GROWTH_PERCENT);
      const unlimited = await runWorkload("default");
      expect(limited.liveMb).toBeGreaterThan(30);
      expect(unlimited.liveMb).toBeGreaterThan(30);
      // 1.5x the live size, plus what the program allocates while marking runs (measured: 1.96x against 4.7x).
      expect(limited.maxOldMb).toBeLessThan(limited.liveMb * 2.5);
      expect(unlimited.maxOldMb).toBeGreaterThan(unlimited.liveMb * 3.5);
    },
  );

  it("reads HEAP_GROWTH_PERCENT, 0 leaving V8's factor, and names anything else", () => {
    expect(parseProcessEnv({}).HEAP_GROWTH_PERCENT).toBe(50);
    expect(parseProcessEnv({ HEAP_GROWTH_PERCENT: "0" }).HEAP_GROWTH_PERCENT).toBe(0);
    expect(parseProcessEnv({ HEAP_GROWTH_PERCENT: "120" }).HEAP_GROWTH_PERCENT).toBe(120);
    expect(() => parseProcessEnv({ HEAP_GROWTH_PERCENT: "lots" })).toThrow(/HEAP_GROWTH_PERCENT/);
  });
});
