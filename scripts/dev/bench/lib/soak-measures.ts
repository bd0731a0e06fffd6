/**
 * What the soak reads while it runs: the app's and the worker's figures from
 * their metrics (RSS, heap, event-loop delay, status-sync cycles: what an
 * operator's scraper reads), the app's /healthz latency, the backlog in the
 * database, and /proc for a process without metrics (the sandbox).
 */
import { readFileSync } from "node:fs";
import type { PrismaClient } from "@prisma/client";
import { scrape, type Scrape } from "./process-metrics";

/** Resident set size in MB from /proc (processes without metrics), or NaN when the process is gone. */
export function rssMb(pid: number): number {
  try {
    const status = readFileSync(`/proc/${pid}/status`, "utf8");
    const kb = Number(/VmRSS:\s+(\d+)\s+kB/.exec(status)?.[1]);
    return kb / 1024;
  } catch {
    return NaN;
  }
}

/** The database's size (tables, indexes and TOAST of the current database). */
export async function postgresBytes(db: { $queryRawUnsafe<T>(sql: string): Promise<T> }): Promise<number> {
  const [row] = await db.$queryRawUnsafe<{ bytes: bigint | number }[]>(
    "SELECT pg_database_size(current_database()) AS bytes",
  );
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

/**
 * /healthz's latency; the event-loop delay from the process's metrics at
 * `metricsUrl` (its last 10-20 s), else from the health body.
 */
export async function probeHealth(url: string, metricsUrl?: string): Promise<Probe> {
  const at = Date.now();
  const t0 = performance.now();
  try {
    const response = await fetch(`${url}/healthz`, { signal: AbortSignal.timeout(60_000) });
    const body = (await response.json().catch(() => ({}))) as HealthBody;
    const latencyMs = performance.now() - t0;
    if (metricsUrl) {
      const s = await scrape(metricsUrl, { timeoutMs: 60_000 });
      const loop = (quantile: string) => s.value("cod_event_loop_delay_seconds", { quantile }) * 1000;
      return { at, latencyMs, ok: response.ok, loopP99Ms: loop("0.99"), loopMaxMs: loop("1") };
    }
    const windows = [body.eventLoop?.current, body.eventLoop?.previous].filter(Boolean) as {
      p99Ms?: number;
      maxMs?: number;
    }[];
    return {
      at,
      latencyMs,
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

/** The status sync's figures so far, summed over the processes that run it (from their metrics). */
export interface SyncTotals {
  cycles: number;
  wallSeconds: number;
  leadsTracked: number;
  listCalls: number;
  detailCalls: number;
  leadsChanged: number;
  /** Cycles at or under each bucket's bound (seconds), for the longest cycle between two readings. */
  buckets: Map<number, number>;
}

export function syncTotals(scrapes: readonly Scrape[]): SyncTotals {
  const sum = (name: string, labels: Record<string, string> = {}) =>
    scrapes.reduce((t, s) => t + s.count(name, labels), 0);
  const buckets = new Map<number, number>();
  for (const s of scrapes) {
    for (const b of s.series("cod_status_sync_cycle_seconds_bucket")) {
      const le = Number(b.labels.le === "+Inf" ? Infinity : b.labels.le);
      buckets.set(le, (buckets.get(le) ?? 0) + b.value);
    }
  }
  return {
    cycles: sum("cod_status_sync_cycle_seconds_count"),
    wallSeconds: sum("cod_status_sync_cycle_seconds_sum"),
    leadsTracked: sum("cod_status_sync_leads_tracked_sum"),
    listCalls: sum("cod_status_sync_calls_total", { kind: "list" }),
    detailCalls: sum("cod_status_sync_calls_total", { kind: "detail" }),
    leadsChanged: sum("cod_status_sync_leads_changed_total"),
    buckets,
  };
}

/** The cycles between two readings: how many, their mean, and the bound of the longest one's bucket (ms). */
export function syncBetween(
  before: SyncTotals,
  after: SyncTotals,
): { cycles: number; meanMs: number; maxUnderMs: number } {
  const cycles = after.cycles - before.cycles;
  if (cycles <= 0) return { cycles: 0, meanMs: NaN, maxUnderMs: NaN };
  // The smallest bound under which every new cycle falls.
  const bounds = [...after.buckets.keys()].sort((a, b) => a - b);
  const bound = bounds.find((le) => (after.buckets.get(le) ?? 0) - (before.buckets.get(le) ?? 0) >= cycles) ?? Infinity;
  return { cycles, meanMs: ((after.wallSeconds - before.wallSeconds) / cycles) * 1000, maxUnderMs: bound * 1000 };
}

export const NO_SYNC: SyncTotals = {
  cycles: 0,
  wallSeconds: 0,
  leadsTracked: 0,
  listCalls: 0,
  detailCalls: 0,
  leadsChanged: 0,
  buckets: new Map(),
};

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
