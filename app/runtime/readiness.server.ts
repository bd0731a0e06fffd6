/**
 * Readiness: can this process do its work now? A load balancer sends requests
 * only to a ready web server and a deploy waits for the new processes to be
 * ready before it stops the old ones. Liveness (/healthz) stays the cheap
 * "the process answers" check; readiness checks what serving needs:
 *
 * - the database answers;
 * - its schema is the one this build expects (every table and column of the
 *   Prisma schema exists: the migrations were applied), checked until it
 *   passes once, then trusted (migrations only add);
 * - where this process runs jobs, its worker is started, not stopping, and
 *   looked for a job (or finished one) within the last two minutes without
 *   the database failing it.
 */
import { Prisma, type PrismaClient } from "@prisma/client";
import type { ClaimedJob, JobSettlement, QueueLogger, WorkerObserver } from "../queue/types";
import { checkDatabase } from "./health.server";
import { defaultWorkerOwner } from "../queue/worker.server";
import { log } from "./logger.server";
import { recordJob, recordWorkerPoll } from "./metrics.server";

/** A worker that has not looked for a job for this long is not claiming (its loops are stuck). */
export const WORKER_STALE_MS = 120_000;

interface WorkerState {
  owner: string;
  stopping: boolean;
  lastActiveAt: number;
  /** The last look for a job failed (database error); cleared by the next one that works. */
  failing: string | null;
}

declare global {
  var __codLeadSyncReadiness: { worker: WorkerState | null; schemaOk: boolean } | undefined;
}

const state = () => (globalThis.__codLeadSyncReadiness ??= { worker: null, schemaOk: false });

/**
 * What a worker of this process is given: an owner, the process log (a job's
 * fields with each of its lines) and an observer feeding the metrics and the
 * readiness answer. One worker per process: a second call (Vite's reloads in
 * development) keeps the first one's state.
 */
export function workerInstruments(): { owner: string; logger: QueueLogger; observer: WorkerObserver } {
  const existing = state().worker;
  const worker: WorkerState = existing ?? {
    owner: defaultWorkerOwner(),
    stopping: false,
    lastActiveAt: Date.now(),
    failing: null,
  };
  state().worker = worker;
  const observer: WorkerObserver = {
    polled(error) {
      recordWorkerPoll(error);
      if (error === undefined) {
        worker.lastActiveAt = Date.now();
        worker.failing = null;
      } else {
        worker.failing = error instanceof Error ? error.name : "error";
      }
    },
    settled(job: ClaimedJob, outcome: JobSettlement, durationMs: number | null) {
      worker.lastActiveAt = Date.now();
      recordJob(job.kind, outcome, durationMs === null ? null : durationMs / 1000);
    },
  };
  return { owner: worker.owner, logger: log, observer };
}

/** The worker stops claiming (shutdown): this process is no longer ready. */
export function workerStopping(): void {
  const worker = state().worker;
  if (worker) worker.stopping = true;
}

export interface ReadinessReport {
  ready: boolean;
  database: { ok: boolean; kind: string; error?: string };
  schema: { ok: boolean; missing?: string[]; error?: string };
  /** Absent where this process runs no jobs. */
  worker?: { ok: boolean; owner: string; stopping: boolean; idleMs: number; error?: string };
}

/** Table.column of the Prisma schema that the database lacks (empty when every one exists). */
export async function missingColumns(db: PrismaClient): Promise<string[]> {
  const rows = await db.$queryRaw<
    { table: string; column: string }[]
  >`SELECT table_name::text AS "table", column_name::text AS "column" FROM information_schema.columns WHERE table_schema = current_schema()`;
  const present = new Set(rows.map((r) => `${r.table}.${r.column}`));
  const missing: string[] = [];
  for (const model of Prisma.dmmf.datamodel.models) {
    const table = model.dbName ?? model.name;
    for (const field of model.fields) {
      if (field.kind !== "scalar" && field.kind !== "enum") continue;
      const column = `${table}.${field.dbName ?? field.name}`;
      if (!present.has(column)) missing.push(column);
    }
  }
  return missing;
}

export async function checkReadiness(db: PrismaClient, now: number = Date.now()): Promise<ReadinessReport> {
  const database = await checkDatabase(db);
  const report: ReadinessReport = {
    ready: false,
    database: database.ok
      ? { ok: true, kind: database.kind }
      : { ok: false, kind: database.kind, error: database.error },
    schema: { ok: state().schemaOk },
  };
  if (database.ok && !state().schemaOk) {
    try {
      const missing = await missingColumns(db);
      state().schemaOk = missing.length === 0;
      report.schema = missing.length === 0 ? { ok: true } : { ok: false, missing: missing.slice(0, 20) };
    } catch (error) {
      report.schema = { ok: false, error: error instanceof Error ? error.name : "error" };
    }
  }
  const worker = state().worker;
  if (worker) {
    const idleMs = now - worker.lastActiveAt;
    const ok = !worker.stopping && worker.failing === null && idleMs < WORKER_STALE_MS;
    report.worker = {
      ok,
      owner: worker.owner,
      stopping: worker.stopping,
      idleMs,
      ...(worker.failing ? { error: worker.failing } : {}),
    };
  }
  report.ready = report.database.ok && report.schema.ok && (report.worker?.ok ?? true);
  return report;
}

/**
 * The readiness answer on the metrics listener: 200 when ready, 503 otherwise, with the
 * report (no secret, no driver message, but the worker's owner names the host and pid).
 */
export async function readinessResponse(db: PrismaClient): Promise<Response> {
  const report = await checkReadiness(db);
  return Response.json(report, { status: report.ready ? 200 : 503, headers: { "Cache-Control": "no-store" } });
}

/** The public answer (the app's own port, anyone may ask): ready or not, and nothing else. */
export async function publicReadinessResponse(db: PrismaClient): Promise<Response> {
  const { ready } = await checkReadiness(db);
  return Response.json({ ready }, { status: ready ? 200 : 503, headers: { "Cache-Control": "no-store" } });
}
