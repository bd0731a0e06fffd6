/**
 * What the soak reads while it runs: processes' RSS from /proc, the app's
 * /healthz (its own latency and the event-loop delay it reports), the backlog
 * in the database, and the status-sync cycle reports in the logs.
 */
import { readFileSync, statSync } from "node:fs";
import type { PrismaClient } from "@prisma/client";

/** Resident set size in MB, or NaN when the process is gone. */
export function rssMb(pid: number): number {
  try {
    const status = readFileSync(`/proc/${pid}/status`, "utf8");
    const kb = Number(/VmRSS:\s+(\d+)\s+kB/.exec(status)?.[1]);
    return kb / 1024;
  } catch {
    return NaN;
  }
}

/** The SQLite file and its WAL, in bytes. */
export function sqliteBytes(file: string): number {
  let total = 0;
  for (const suffix of ["", "-wal"]) {
    try {
      total += statSync(file + suffix).size;
    } catch {
      // no WAL yet
    }
  }
  return total;
}

/** The database's size on PostgreSQL (tables, indexes and TOAST of the current database). */
export async function postgresBytes(db: { $queryRawUnsafe<T>(sql: string): Promise<T> }): Promise<number> {
  const [row] = await db.$queryRawUnsafe<{ bytes: bigint | number }[]>("SELECT pg_database_size(current_database()) AS bytes");
  return Number(row.bytes);
}

export interface Probe {
  at: number;
  latencyMs: number;
  ok: boolean;
  /** Event-loop delay the app reported (its current and previous windows). */
  loopP99Ms: number;
  loopMaxMs: number;
}

interface HealthBody {
  eventLoop?: { current?: { p99Ms?: number; maxMs?: number }; previous?: { p99Ms?: number; maxMs?: number } | null };
}

export async function probeHealth(url: string): Promise<Probe> {
  const at = Date.now();
  const t0 = performance.now();
  try {
    const response = await fetch(`${url}/healthz`, { signal: AbortSignal.timeout(60_000) });
    const body = (await response.json().catch(() => ({}))) as HealthBody;
    const windows = [body.eventLoop?.current, body.eventLoop?.previous].filter(Boolean) as { p99Ms?: number; maxMs?: number }[];
    return {
      at,
      latencyMs: performance.now() - t0,
      ok: response.ok,
      loopP99Ms: maxOf(windows.map((w) => w.p99Ms ?? NaN)),
      loopMaxMs: maxOf(windows.map((w) => w.maxMs ?? NaN)),
    };
  } catch {
    return { at, latencyMs: performance.now() - t0, ok: false, loopP99Ms: NaN, loopMaxMs: NaN };
  }
}

/** Orders the worker has not settled yet, and post-lead jobs not finished. */
export async function backlog(db: PrismaClient, shop: string): Promise<{ links: number; jobs: number }> {
  const [links, jobs] = await Promise.all([
    db.orderLink.count({ where: { shop, state: { in: ["received", "posting", "retrying"] } } }),
    db.job.count({ where: { kind: "post-lead", state: { in: ["pending", "running", "failed"] } } }),
  ]);
  return { links, jobs };
}

export interface SyncCycle {
  tracked: number;
  listCalls: number;
  detailCalls: number;
  rowsWritten: number;
  wallMs: number;
}

/** The status sync's per-cycle log lines: `[status-sync] {...json}`. */
export function parseSyncCycles(log: string): SyncCycle[] {
  const cycles: SyncCycle[] = [];
  for (const match of log.matchAll(/^\[status-sync\] (\{.*\})$/gm)) {
    try {
      const r = JSON.parse(match[1]) as Partial<SyncCycle>;
      cycles.push({
        tracked: r.tracked ?? 0,
        listCalls: r.listCalls ?? 0,
        detailCalls: r.detailCalls ?? 0,
        rowsWritten: r.rowsWritten ?? 0,
        wallMs: r.wallMs ?? 0,
      });
    } catch {
      // a line cut by the log's buffering: skipped
    }
  }
  return cycles;
}

/** The latest `[memory] <name>:` line's heap in use, MB (NaN before the first minute). */
export function lastHeapUsedMb(log: string, name: string): number {
  let heap = NaN;
  for (const match of log.matchAll(/^\[memory\] (\S+): rss [\d.]+ MB, heap ([\d.]+) of/gm)) if (match[1] === name) heap = Number(match[2]);
  return heap;
}

/** The old sync (before cycle reports): "job sync-statuses:... completed after N ms". */
export function parseSyncJobDurations(log: string): number[] {
  return [...log.matchAll(/job sync-statuses:\S+ attempt \d+ of \d+ completed after (\d+) ms/g)].map((m) => Number(m[1]));
}

export function percentile(values: readonly number[], p: number): number {
  if (values.length === 0) return NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))];
}

/** The largest finite value, NaN when there is none. */
export function maxOf(values: readonly number[]): number {
  let max = NaN;
  for (const v of values) if (Number.isFinite(v) && !(v <= max)) max = v;
  return max;
}

/** Least-squares slope of y over x. */
export function slope(points: readonly { x: number; y: number }[]): number {
  const pts = points.filter((p) => Number.isFinite(p.x) && Number.isFinite(p.y));
  if (pts.length < 2) return NaN;
  const mx = pts.reduce((s, p) => s + p.x, 0) / pts.length;
  const my = pts.reduce((s, p) => s + p.y, 0) / pts.length;
  const num = pts.reduce((s, p) => s + (p.x - mx) * (p.y - my), 0);
  const den = pts.reduce((s, p) => s + (p.x - mx) ** 2, 0);
  return den === 0 ? NaN : num / den;
}
