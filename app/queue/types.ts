/**
 * Shapes shared by the queue's data access, its worker and the handlers it runs.
 */
import type { Prisma } from "@prisma/client";
import type { BatchItem, Sql } from "../db/sql";

/**
 * pending: waits for runAt. running: leased by a worker until leaseExpiresAt.
 * done: finished. failed: the last attempt failed and a retry is scheduled at runAt.
 * dead: out of attempts, or refused for good; only a merchant's retry revives it.
 */
export const JOB_STATES = ["pending", "running", "done", "failed", "dead"] as const;
export type JobState = (typeof JOB_STATES)[number];

/** A PrismaClient or the client of an interactive transaction: the queue needs only `job`. */
export type QueueDb = Prisma.TransactionClient;

/** A job as its handler sees it, while this worker holds its lease. */
export interface ClaimedJob {
  readonly id: string;
  readonly kind: string;
  readonly key: string;
  readonly shop: string | null;
  /** The enqueued payload, parsed from JSON; handlers validate it. */
  readonly payload: unknown;
  /** This attempt's number, 1-based (the claim counted it). */
  readonly attempts: number;
  readonly maxAttempts: number;
  readonly runAt: Date;
  readonly createdAt: Date;
  /** The previous attempt's error, if any. */
  readonly lastError: string | null;
  readonly leaseOwner: string;
  readonly leaseExpiresAt: Date;
}

export interface JobContext {
  /** Aborted when the lease is lost or the worker stops and gives up waiting. */
  signal: AbortSignal;
  /** Renews the lease now (the worker also renews it every half lease); throws LeaseLostError. */
  extendLease(): Promise<void>;
  /**
   * Marks the job done inside the handler's last transaction, with the work it
   * commits (a commit saved). True when done; false when the job was re-enqueued
   * meanwhile or the lease was lost: the worker then settles it as usual. The
   * handler must not fail after a true.
   */
  completeIn(tx: Sql): Promise<boolean>;
  /**
   * The same as a statement for the handler's last batch of writes (Sql.batch):
   * `completed` takes the rows the statement changed (1: done).
   */
  completion(): { item: BatchItem; completed(changed: number): boolean };
}

export type JobHandler = (job: ClaimedJob, ctx: JobContext) => Promise<void>;

export interface BatchJobContext {
  /** Aborted when the worker stops and gives up waiting. */
  signal: AbortSignal;
  /**
   * Marks these jobs done inside the handler's last transaction, in one
   * statement: the ids marked done. One not marked (re-enqueued meanwhile, lease
   * lost) is settled by the worker as usual.
   */
  completeIn(tx: Sql, jobs: readonly ClaimedJob[]): Promise<Set<string>>;
}

/**
 * Due jobs of one shop and kind run together (at most `size`): one claim, one
 * read and one commit for all of them. `run` gives back the jobs that failed,
 * each with its error (RetryLaterError, PermanentJobError or any other, as a
 * single handler would throw it); every other job succeeded.
 */
export interface BatchJobHandler {
  readonly size: number;
  run(jobs: readonly ClaimedJob[], ctx: BatchJobContext): Promise<ReadonlyMap<string, unknown>>;
}

export const isBatchHandler = (handler: JobHandler | BatchJobHandler): handler is BatchJobHandler =>
  typeof handler !== "function";

/** Handlers by job kind. */
export type JobHandlers = Record<string, JobHandler | BatchJobHandler>;

/** `fields`: the job's key, kind, shop, attempt, duration and outcome, for a structured log. */
export interface QueueLogger {
  info(message: string, fields?: Record<string, unknown>): void;
  warn(message: string, fields?: Record<string, unknown>): void;
  error(message: string, fields?: Record<string, unknown>): void;
}

/** How an attempt ended: done, retried (failed, retry scheduled), postponed, dead, lost (lease lost), rerun (re-enqueued meanwhile). */
export type JobSettlement = "done" | "retried" | "postponed" | "dead" | "lost" | "rerun";

/** Told of the worker's life, for metrics and readiness; must not throw. */
export interface WorkerObserver {
  /** A look for a due job ended: without error, or with the error that stopped it. */
  polled?(error?: unknown): void;
  /** A job's attempt ended and its outcome was recorded (durationMs null when no handler ran). */
  settled?(job: ClaimedJob, outcome: JobSettlement, durationMs: number | null): void;
}

/**
 * Work a worker does besides jobs, now and then (app-level batches, such as
 * telling recorded lead events): every `everyMs`, at once again while `more`,
 * until none is left when the worker drains, and once more when it stops.
 */
export interface WorkerTask {
  name: string;
  everyMs: number;
  run(): Promise<{ handled: number; more: boolean }>;
}
