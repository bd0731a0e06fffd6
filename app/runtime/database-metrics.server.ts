/**
 * The metrics read from the database at scrape time: the queue's depth and its
 * oldest due job by kind, the shops paused by reason, and this process's
 * PostgreSQL pool. They are the same for every process on one database, so
 * dashboards aggregate them with max(), and METRICS_DATABASE_GAUGES=false
 * turns them off on processes that need not export them. Read at most every
 * 5 s whatever the number of scrapers: two grouped counts over the Job
 * table's (state, runAt) index (finished jobs are not read), two over Shop.
 */
import client from "prom-client";
import type { PrismaClient } from "@prisma/client";
import { postgresPoolOf } from "../db/client";
import { processEnv } from "../env.server";
import { log } from "./logger.server";
import { metrics } from "./metrics.server";

const REFRESH_MS = 5_000;
const WAITING = ["pending", "failed"];

interface Snapshot {
  ok: boolean;
  jobs: { kind: string; state: "due" | "scheduled" | "running" | "dead"; count: number }[];
  oldestDue: Map<string, number>;
  paused: Map<string, number>;
  installed: number;
}

/** Reads what the gauges show (exported for tests). */
export async function readDatabaseSnapshot(db: PrismaClient, now: Date = new Date()): Promise<Snapshot> {
  const [byState, due, paused, installed] = await Promise.all([
    db.job.groupBy({
      by: ["kind", "state"],
      where: { state: { in: [...WAITING, "running", "dead"] } },
      _count: { _all: true },
    }),
    db.job.groupBy({
      by: ["kind"],
      where: { state: { in: WAITING }, runAt: { lte: now } },
      _count: { _all: true },
      _min: { runAt: true },
    }),
    db.shop.groupBy({
      by: ["pausedReason"],
      where: { pausedReason: { not: null }, uninstalledAt: null },
      _count: { _all: true },
    }),
    db.shop.count({ where: { uninstalledAt: null } }),
  ]);
  const jobs: Snapshot["jobs"] = [];
  const waiting = new Map<string, number>();
  for (const row of byState) {
    if (row.state === "running" || row.state === "dead")
      jobs.push({ kind: row.kind, state: row.state, count: row._count._all });
    else waiting.set(row.kind, (waiting.get(row.kind) ?? 0) + row._count._all);
  }
  const oldestDue = new Map<string, number>();
  for (const row of due) {
    jobs.push({ kind: row.kind, state: "due", count: row._count._all });
    oldestDue.set(row.kind, row._min.runAt ? Math.max(0, now.getTime() - row._min.runAt.getTime()) / 1000 : 0);
  }
  for (const [kind, count] of waiting) {
    const dueCount = due.find((d) => d.kind === kind)?._count._all ?? 0;
    jobs.push({ kind, state: "scheduled", count: count - dueCount });
  }
  return {
    ok: true,
    jobs,
    oldestDue,
    paused: new Map(paused.map((p) => [p.pausedReason ?? "unknown", p._count._all])),
    installed,
  };
}

declare global {
  var __codLeadSyncDatabaseGauges: boolean | undefined;
}

/**
 * Adds the database's gauges (unless METRICS_DATABASE_GAUGES=false) and this
 * process's pool to its metrics, read through `db` (the app's own client).
 * Once per process.
 */
export function registerDatabaseMetrics(
  db: PrismaClient,
  gauges: boolean = processEnv().METRICS_DATABASE_GAUGES,
): void {
  if (globalThis.__codLeadSyncDatabaseGauges) return;
  globalThis.__codLeadSyncDatabaseGauges = true;
  const registers = [metrics().registry];
  registerPoolGauge(db, registers);
  if (gauges) registerSnapshotGauges(db, registers);
}

function registerPoolGauge(db: PrismaClient, registers: client.Registry[]): void {
  const pool = postgresPoolOf(db);
  if (!pool) return;
  new client.Gauge({
    name: "cod_db_pool_connections",
    help: "This process's PostgreSQL connections by state (in_use, idle, waiting: queries waiting for a connection, max: DATABASE_POOL_SIZE)",
    labelNames: ["state"],
    registers,
    collect() {
      this.set({ state: "in_use" }, pool.totalCount - pool.idleCount);
      this.set({ state: "idle" }, pool.idleCount);
      this.set({ state: "waiting" }, pool.waitingCount);
      this.set({ state: "max" }, pool.options.max ?? 10);
    },
  });
}

function registerSnapshotGauges(db: PrismaClient, registers: client.Registry[]): void {
  let cached: { at: number; snapshot: Promise<Snapshot> } | undefined;
  let loggedFailureAt = 0;
  const kindsSeen = new Set<string>();
  const reasonsSeen = new Set<string>(["key_rejected"]);

  const snapshot = (): Promise<Snapshot> => {
    if (cached && Date.now() - cached.at < REFRESH_MS) return cached.snapshot;
    const read = readDatabaseSnapshot(db).catch((error: unknown) => {
      // One line a minute at most: a scraper every few seconds would flood the log.
      if (Date.now() - loggedFailureAt > 60_000) {
        loggedFailureAt = Date.now();
        log.warn("metrics: the database could not be read", { err: error });
      }
      return { ok: false, jobs: [], oldestDue: new Map(), paused: new Map(), installed: 0 } satisfies Snapshot;
    });
    cached = { at: Date.now(), snapshot: read };
    return read;
  };

  new client.Gauge({
    name: "cod_database_up",
    help: "1 when this process's last read of the database for metrics succeeded",
    registers,
    async collect() {
      this.set((await snapshot()).ok ? 1 : 0);
    },
  });
  new client.Gauge({
    name: "cod_queue_jobs",
    help: "Jobs in the queue by kind and state: due (waiting past their time), scheduled (waiting for a later time), running, dead",
    labelNames: ["kind", "state"],
    registers,
    async collect() {
      const { jobs, ok } = await snapshot();
      if (!ok) return;
      this.reset();
      for (const job of jobs) kindsSeen.add(job.kind);
      for (const kind of kindsSeen)
        for (const state of ["due", "scheduled", "running", "dead"]) this.set({ kind, state }, 0);
      for (const job of jobs) this.set({ kind: job.kind, state: job.state }, job.count);
    },
  });
  new client.Gauge({
    name: "cod_queue_oldest_due_seconds",
    help: "How long the oldest due job of each kind has waited past its time (0 when none is due)",
    labelNames: ["kind"],
    registers,
    async collect() {
      const { oldestDue, ok } = await snapshot();
      if (!ok) return;
      this.reset();
      for (const kind of oldestDue.keys()) kindsSeen.add(kind);
      for (const kind of kindsSeen) this.set({ kind }, oldestDue.get(kind) ?? 0);
    },
  });
  new client.Gauge({
    name: "cod_shops_paused",
    help: "Installed shops whose jobs are paused, by reason (key_rejected: the platform answered 401 to their key)",
    labelNames: ["reason"],
    registers,
    async collect() {
      const { paused, ok } = await snapshot();
      if (!ok) return;
      this.reset();
      for (const reason of paused.keys()) reasonsSeen.add(reason);
      for (const reason of reasonsSeen) this.set({ reason }, paused.get(reason) ?? 0);
    },
  });
  new client.Gauge({
    name: "cod_shops_installed",
    help: "Shops with the app installed",
    registers,
    async collect() {
      const { installed, ok } = await snapshot();
      if (ok) this.set(installed);
    },
  });
}
