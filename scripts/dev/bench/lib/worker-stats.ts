/**
 * Reads the statement and CPU counts of a process started with the
 * count-statements preload: SIGUSR2, then its `[bench-stats]` line on stderr.
 * Every other stderr line is passed through.
 */
import type { ChildProcess } from "node:child_process";
import { join } from "node:path";
import { createInterface } from "node:readline";
import { pathToFileURL } from "node:url";

export interface ProcessStats {
  statements: number;
  begins: number;
  commits: number;
  rollbacks: number;
  cpuMs: number;
}

/** The node arguments that load the preload (after `--import tsx`). */
export const countStatementsImport = ["--import", pathToFileURL(join(import.meta.dirname, "count-statements.ts")).href];

export function statsReader(
  child: ChildProcess,
  name = "worker",
): { read(timeoutMs?: number): Promise<ProcessStats | null> } {
  const waiting: ((stats: ProcessStats) => void)[] = [];
  const lines = createInterface({ input: child.stderr! });
  lines.on("line", (line) => {
    if (line.startsWith("[bench-stats] ")) {
      const stats = JSON.parse(line.slice("[bench-stats] ".length)) as ProcessStats;
      for (const resolve of waiting.splice(0)) resolve(stats);
    } else {
      process.stderr.write(`${name}: ${line}\n`);
    }
  });
  return {
    read(timeoutMs = 5_000) {
      if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve(null);
      return new Promise((resolve) => {
        const timer = setTimeout(() => resolve(null), timeoutMs);
        waiting.push((stats) => {
          clearTimeout(timer);
          resolve(stats);
        });
        child.kill("SIGUSR2");
      });
    },
  };
}

export function sumStats(all: readonly (ProcessStats | null)[]): ProcessStats {
  const sum: ProcessStats = { statements: 0, begins: 0, commits: 0, rollbacks: 0, cpuMs: 0 };
  for (const s of all) {
    if (!s) continue;
    for (const k of Object.keys(sum) as (keyof ProcessStats)[]) sum[k] += s[k];
  }
  return sum;
}

/** What a process did between two readings (the whole of `end` without a start). */
export function minusStats(end: ProcessStats, start: ProcessStats | null | undefined): ProcessStats {
  if (!start) return end;
  const out = { ...end };
  for (const k of Object.keys(out) as (keyof ProcessStats)[]) out[k] -= start[k];
  return out;
}
