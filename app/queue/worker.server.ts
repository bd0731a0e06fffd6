/**
 * The worker: claims due jobs with a lease, runs their handler, records the outcome.
 * Handlers steer it with RetryLaterError and PermanentJobError; any other error is a
 * transient failure retried with backoff until maxAttempts. While a handler runs,
 * its lease is renewed every half lease, so only a dead process loses its jobs.
 */
import { randomUUID } from "node:crypto";
import { hostname } from "node:os";
import type { BackoffOptions } from "./backoff";
import { databaseValueProblem } from "./database-value-error";
import { DrainTimeoutError, errorMessage, LeaseLostError, PermanentJobError, RetryLaterError } from "./errors";
import {
  claimBatchJobs,
  claimJobById,
  claimNext,
  completeJob,
  completeJobsIn,
  completionItem,
  extendLease,
  failJob,
  rescheduleJob,
  type Settled,
} from "./jobs.server";
import {
  isBatchHandler,
  type BatchJobHandler,
  type ClaimedJob,
  type JobHandlers,
  type JobSettlement,
  type QueueDb,
  type QueueLogger,
  type WorkerObserver,
  type WorkerTask,
} from "./types";
import type { PrismaClient } from "@prisma/client";
import { postgresPoolOf } from "../db/client";
import type { Sql } from "../db/sql";
import { listenForJobs, type WakeUps } from "./wake-ups.server";

export interface WorkerOptions {
  db: QueueDb;
  /** Looked up on every job, so a registry object may be updated in place. */
  handlers: JobHandlers;
  /** Stored as leaseOwner; unique per worker instance by default. */
  owner?: string;
  leaseMs?: number;
  /**
   * Pause after finding no due job: 5 s while PostgreSQL's wake-ups are heard
   * (they bring new work at once, and later work by a timer at its runAt; the
   * poll is the safety net that finds expired leases and what a dropped
   * connection or a worker started later missed), 500 ms without them.
   */
  pollIntervalMs?: number;
  /** Listen for wake-ups on new work (wake-ups.server.ts; default: when the client is the app's own, see postgresPoolOf). */
  wakeUps?: boolean;
  /**
   * Jobs run at the same time by this worker; 0: it claims none and listens for
   * no wake-ups, running only its tasks and the jobs handed to runById (another
   * runner chooses them).
   */
  concurrency?: number;
  /** Only claim these kinds (default: any; a kind without a handler goes dead). */
  kinds?: readonly string[];
  /** Jobs of one shop and kind running at once across all workers (see ClaimOptions). */
  maxRunningPerShop?: number;
  /**
   * stop() waits this long for running handlers, then aborts their signal; a
   * handler still running a moment later has its job released (back to pending,
   * the attempt given back) so another worker takes it at once.
   */
  stopTimeoutMs?: number;
  backoff?: BackoffOptions;
  now?: () => Date;
  logger?: QueueLogger;
  /** Work besides jobs (see WorkerTask). */
  tasks?: readonly WorkerTask[];
  /** Told of each look for a job and each outcome (metrics, readiness). */
  observer?: WorkerObserver;
}

export interface Worker {
  readonly owner: string;
  /** Starts the polling loops; a no-op when already started. */
  start(): void;
  /** Stops claiming, waits for running jobs (bounded by stopTimeoutMs), releases the rest. */
  stop(): Promise<void>;
  /** Claims and runs one due job; false when none was due. */
  runOnce(): Promise<boolean>;
  /** Leases the job with this id if it is due and runs it as runOnce would; false when it was not due. */
  runById(id: string): Promise<boolean>;
  /** Runs due jobs and the tasks until neither has anything left; returns how many jobs ran. Throws DrainTimeoutError. */
  drain(options?: { timeoutMs?: number }): Promise<number>;
}

export const defaultWorkerOwner = (): string => `${hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`;

const STOP_REASON = "worker stopping";

export function createWorker(options: WorkerOptions): Worker {
  const { db, handlers } = options;
  const owner = options.owner ?? defaultWorkerOwner();
  const leaseMs = options.leaseMs ?? 60_000;
  const wakeUpUrl =
    options.wakeUps === false ? undefined : postgresPoolOf(db as PrismaClient)?.options.connectionString;
  const pollIntervalMs = options.pollIntervalMs ?? (wakeUpUrl ? 5_000 : 500);
  const concurrency = Math.max(0, Math.floor(options.concurrency ?? 1));
  const stopTimeoutMs = options.stopTimeoutMs ?? 30_000;
  const now = options.now ?? (() => new Date());
  const logger = options.logger ?? console;
  const observer = options.observer ?? {};

  let loops: Promise<void>[] = [];
  let stopping = false;
  /** Idle loops, woken by stop() (all) or by new work (the job lanes'). */
  const wakers = new Set<() => void>();
  const laneWakers = new Set<() => void>();
  /** Jobs being run (one, or a batch), with the controller that aborts their handler. */
  const active = new Map<Promise<void>, { jobs: readonly ClaimedJob[]; controller: AbortController }>();

  /**
   * One claim at a time in this worker: lanes that claimed together would read
   * the same candidates and race each other for them, a lost update (and a
   * fresh read) for every lane but one.
   */
  let claiming: Promise<unknown> = Promise.resolve();
  /** Until when a claim found nothing: idle lanes do not ask again before (one poll per interval, not one per lane). */
  let nothingDueUntil = 0;
  /**
   * The last claim saw nothing else it could lease but jobs of these capped
   * kinds, and no wake-up came since (null when not, or it could not tell).
   */
  let quietSince: { wakeUps: number; capped: ReadonlySet<string> } | null = null;
  function claimOne(idleLane: boolean): Promise<ClaimedJob | null> {
    const claim = claiming.then(async () => {
      const seen = wakeUpCount;
      if (idleLane && Date.now() < nothingDueUntil) return null;
      const { job, quiet, capped } = await claimNext(db, {
        owner,
        leaseMs,
        now: now(),
        kinds: options.kinds,
        maxRunningPerShop: options.maxRunningPerShop,
      });
      // Woken meanwhile: the work that woke it may have committed after this claim's read.
      const nothingElse = (!job || quiet) && wakeUpCount === seen;
      nothingDueUntil = nothingElse ? Date.now() + pollIntervalMs : 0;
      // Only while wake-ups are heard: they bring what comes after; without them, the poll would.
      quietSince = nothingElse && quiet && wakeUps ? { wakeUps: seen, capped: new Set(capped) } : null;
      return job;
    });
    claiming = claim.catch(() => undefined);
    return claim;
  }

  /**
   * Claims and runs one job: "none" when none was claimed; "quiet" when, as
   * the last claim saw it, nothing else can be leased now and the job that
   * ended frees no capped kind's slot (the lane then claims again only as an
   * idle one would: after a wake-up, or at the poll); else "ran".
   */
  async function runNext(idleLane: boolean): Promise<"none" | "quiet" | "ran"> {
    const job = await claimOne(idleLane);
    if (!job) return "none";
    await runClaimed(job);
    const quiet = quietSince && quietSince.wakeUps === wakeUpCount && !quietSince.capped.has(job.kind);
    return quiet ? "quiet" : "ran";
  }

  const runOnce = async (): Promise<boolean> => (await runNext(false)) !== "none";

  /** Runs a job this worker leased, with a batch of its shop and kind when its handler takes batches, and settles it. */
  async function runClaimed(job: ClaimedJob): Promise<void> {
    const controller = new AbortController();
    const handler = Object.hasOwn(handlers, job.kind) ? handlers[job.kind] : undefined;
    const batch = handler && isBatchHandler(handler) ? handler : undefined;
    const jobs = batch ? [job, ...(await claimMore(job, batch.size - 1))] : [job];
    const run = batch ? runBatch(batch, jobs, controller) : runJob(job, controller);
    active.set(run, { jobs, controller });
    try {
      await run;
    } finally {
      active.delete(run);
    }
  }

  /** The batch's other jobs; none when the claim fails (the first runs alone). */
  async function claimMore(first: ClaimedJob, limit: number): Promise<ClaimedJob[]> {
    try {
      return await claimBatchJobs(db, first, { owner, leaseMs, now: now(), limit });
    } catch (error) {
      logger.warn(`worker ${owner}: could not claim a batch with ${first.key}: ${errorMessage(error)}; it runs alone`);
      return [];
    }
  }

  async function runJob(job: ClaimedJob, controller: AbortController): Promise<void> {
    const label = `job ${job.key} attempt ${job.attempts} of ${job.maxAttempts}`;
    const handler = Object.hasOwn(handlers, job.kind) ? handlers[job.kind] : undefined;
    if (handler && isBatchHandler(handler)) return runBatch(handler, [job], controller);
    if (!handler) {
      const error = new PermanentJobError(`no handler registered for job kind "${job.kind}"`);
      await record(job, "failed", error.message, () => failJob(db, job, owner, error, { now: now(), permanent: true }));
      return;
    }

    const renew = async () => {
      if (!(await extendLease(db, job, owner, { leaseMs, now: now() }))) {
        const lost = new LeaseLostError(job.key);
        controller.abort(lost);
        throw lost;
      }
    };
    const heartbeat = startHeartbeat(label, renew, leaseMs / 2);
    const startedAt = Date.now();
    let failure: { error: unknown } | undefined;
    let completedInHandler = false;
    const completion = () => ({
      item: completionItem(job, owner, now()),
      completed: (changed: number) => (completedInHandler = changed === 1),
    });
    const completeIn = async (tx: Sql) => {
      const { item, completed } = completion();
      return completed(await tx.run(item.statement, item.params));
    };
    try {
      await handler(job, { signal: controller.signal, extendLease: renew, completeIn, completion });
    } catch (error) {
      failure = { error };
    } finally {
      heartbeat.stop();
    }
    await settleAttempt(job, {
      failure,
      completedInHandler,
      abortReason: controller.signal.reason,
      durationMs: Date.now() - startedAt,
    });
  }

  /**
   * Runs a batch of one shop's jobs of one kind through its handler: each job's
   * lease renewed, each settled as a single job would be, from the handler's
   * answer for it (a failure of the whole batch fails each job).
   */
  async function runBatch(
    handler: BatchJobHandler,
    jobs: readonly ClaimedJob[],
    controller: AbortController,
  ): Promise<void> {
    const lost = new Set<string>();
    const renewAll = async () => {
      for (const job of jobs) {
        if (!lost.has(job.id) && !(await extendLease(db, job, owner, { leaseMs, now: now() }))) lost.add(job.id);
      }
      if (lost.size === jobs.length) {
        const error = new LeaseLostError(jobs[0].key);
        controller.abort(error);
        throw error;
      }
    };
    const heartbeat = startHeartbeat(`batch of ${jobs.length} from job ${jobs[0].key}`, renewAll, leaseMs / 2);
    const startedAt = Date.now();
    const completed = new Set<string>();
    const completeIn = async (tx: Sql, done: readonly ClaimedJob[]) => {
      const ids = await completeJobsIn(tx, done, owner, now());
      for (const id of ids) completed.add(id);
      return ids;
    };
    let failures: ReadonlyMap<string, unknown> = new Map();
    let batchFailure: { error: unknown } | undefined;
    try {
      failures = await handler.run(jobs, { signal: controller.signal, completeIn });
    } catch (error) {
      batchFailure = { error };
    } finally {
      heartbeat.stop();
    }
    const durationMs = Date.now() - startedAt;
    const doneInHandler: ClaimedJob[] = [];
    for (const job of jobs) {
      const failure = failures.has(job.id) ? { error: failures.get(job.id) } : batchFailure;
      const abortReason = lost.has(job.id) ? new LeaseLostError(job.key) : controller.signal.reason;
      if (!failure && !lost.has(job.id) && completed.has(job.id)) doneInHandler.push(job);
      else await settleAttempt(job, { failure, completedInHandler: completed.has(job.id), abortReason, durationMs });
    }
    // Settled in the handler's commit: one line for them all (each is still told to the observer).
    if (doneInHandler.length > 0) {
      const [first] = doneInHandler;
      logger.info(`batch of ${doneInHandler.length} ${first.kind} job(s) completed after ${durationMs} ms`, {
        kind: first.kind,
        shop: first.shop,
        jobs: doneInHandler.map((j) => j.key),
        durationMs,
        outcome: "done",
      });
      for (const job of doneInHandler) tell(() => observer.settled?.(job, "done", durationMs));
    }
  }

  /** Records how an attempt ended, from what its handler did. */
  async function settleAttempt(
    job: ClaimedJob,
    attempt: {
      failure: { error: unknown } | undefined;
      completedInHandler: boolean;
      abortReason: unknown;
      durationMs: number;
    },
  ): Promise<void> {
    const { failure, completedInHandler, abortReason, durationMs } = attempt;
    const label = `job ${job.key} attempt ${job.attempts} of ${job.maxAttempts}`;
    const took = `after ${durationMs} ms`;
    if (abortReason instanceof LeaseLostError) {
      logger.warn(
        `${label}: lease lost ${took}; another worker owns the job now, result discarded`,
        fieldsOf(job, "lost", durationMs),
      );
      tell(() => observer.settled?.(job, "lost", durationMs));
      return;
    }
    if (!failure && completedInHandler) {
      // Settled in the handler's last transaction: logged and told as any completion, nothing left to write.
      await record(job, "completed", took, async () => ({ state: "done", runAt: now() }) as const, durationMs);
      return;
    }
    if (!failure) {
      const complete = async () =>
        (await completeJob(db, job, owner, now())) ? ({ state: "done", runAt: now() } as const) : false;
      await record(job, "completed", took, complete, durationMs);
      return;
    }
    const { error } = failure;
    if (abortReason === STOP_REASON) {
      // Cut short by our own shutdown: not the job's fault.
      const reason = "interrupted: worker stopped";
      await record(
        job,
        "postponed",
        reason,
        () => rescheduleJob(db, job, owner, { runAt: now(), countAttempt: false, reason }),
        durationMs,
      );
    } else if (error instanceof RetryLaterError) {
      const counted = error.countAttempt ? "" : " (attempt not counted)";
      const reschedule = () =>
        rescheduleJob(db, job, owner, {
          runAt: error.runAtFrom(now()),
          countAttempt: error.countAttempt,
          reason: error.reason,
        });
      await record(job, "postponed", `${error.reason}${counted}`, reschedule, durationMs);
    } else {
      // A value the database refuses is refused again on every attempt: dead now, with a reason to read.
      const problem = databaseValueProblem(error);
      const failure = problem ? new PermanentJobError(problem, { cause: error }) : error;
      const permanent = failure instanceof PermanentJobError;
      const fail = () => failJob(db, job, owner, failure, { now: now(), permanent, backoff: options.backoff });
      await record(job, "failed", errorMessage(failure), fail, durationMs);
    }
  }

  /**
   * Writes the outcome and logs it, e.g. "job post-lead:shop:123 attempt 2 of 10
   * failed: timeout; retry at ...". If the write fails the lease simply expires.
   */
  async function record(
    job: ClaimedJob,
    verb: "completed" | "failed" | "postponed",
    detail: string,
    write: () => Promise<Settled | false>,
    durationMs: number | null = null,
  ): Promise<void> {
    const label = `job ${job.key} attempt ${job.attempts} of ${job.maxAttempts}`;
    let settled: Settled | false;
    try {
      settled = await write();
    } catch (dbError) {
      logger.error(
        `${label} ${verb} (${detail}) but the outcome could not be recorded: ${errorMessage(dbError)}; it runs again once its lease expires`,
        fieldsOf(job, "lost", durationMs),
      );
      return;
    }
    const head = verb === "completed" ? `${label} completed ${detail}` : `${label} ${verb}: ${detail}`;
    const outcome: JobSettlement = !settled
      ? "lost"
      : settled.state === "done" || settled.state === "dead"
        ? settled.state
        : settled.state === "failed"
          ? "retried"
          : verb === "postponed"
            ? "postponed"
            : "rerun";
    const fields = {
      ...fieldsOf(job, outcome, durationMs),
      ...(verb === "completed" ? {} : { detail }),
      ...(settled && outcome !== "done" && outcome !== "dead" ? { runAt: settled.runAt.toISOString() } : {}),
    };
    if (!settled) logger.warn(`${head}; lease lost meanwhile, outcome discarded (another worker owns the job)`, fields);
    else if (settled.state === "done") logger.info(head, fields);
    else if (settled.state === "dead") logger.error(`${head}; dead, no attempt left`, fields);
    else if (settled.state === "failed") logger.warn(`${head}; retry at ${settled.runAt.toISOString()}`, fields);
    else if (verb === "postponed") logger.info(`${head}; runs again at ${settled.runAt.toISOString()}`, fields);
    else logger.info(`${head}; re-enqueued meanwhile, runs again at ${settled.runAt.toISOString()}`, fields);
    tell(() => observer.settled?.(job, outcome, durationMs));
  }

  async function release(job: ClaimedJob): Promise<void> {
    const reason = "released: worker stopped before the attempt finished";
    await record(job, "postponed", reason, () =>
      rescheduleJob(db, job, owner, { runAt: now(), countAttempt: false, reason }),
    );
  }

  function startHeartbeat(label: string, renew: () => Promise<void>, everyMs: number) {
    let timer: ReturnType<typeof setTimeout> | undefined;
    let stopped = false;
    const tick = async () => {
      try {
        await renew();
      } catch (error) {
        if (error instanceof LeaseLostError) {
          logger.warn(`${label}: lease lost; aborting the handler`);
          return;
        }
        logger.warn(`${label}: could not extend lease (${errorMessage(error)})`);
      }
      if (!stopped) timer = setTimeout(tick, everyMs);
    };
    timer = setTimeout(tick, everyMs);
    return {
      stop() {
        stopped = true;
        clearTimeout(timer);
      },
    };
  }

  function idle(ms: number, lane = false): Promise<void> {
    return new Promise((resolve) => {
      const wake = () => {
        clearTimeout(timer);
        wakers.delete(wake);
        laneWakers.delete(wake);
        resolve();
      };
      const timer = setTimeout(wake, ms);
      wakers.add(wake);
      if (lane) laneWakers.add(wake);
    });
  }

  /** New work is due: the idle lanes claim again now. */
  function wakeLanes(): void {
    wakeUpCount++;
    nothingDueUntil = 0;
    for (const wake of [...laneWakers]) wake();
  }

  let wakeUps: WakeUps | undefined;
  /** Wake-ups so far: a lane woken while it claimed claims again instead of idling. */
  let wakeUpCount = 0;
  const wakeUpTimes = new WakeUpTimes(wakeLanes);

  const tasks = options.tasks ?? [];

  async function runTask(task: WorkerTask): Promise<{ handled: number; more: boolean }> {
    try {
      return await task.run();
    } catch (error) {
      logger.error(`worker ${owner}: task ${task.name} failed: ${errorMessage(error)}`);
      return { handled: 0, more: false };
    }
  }

  async function taskLoop(task: WorkerTask): Promise<void> {
    while (!stopping) {
      const { more } = await runTask(task);
      if (!more && !stopping) await idle(task.everyMs);
    }
  }

  async function loop(): Promise<void> {
    let last: "none" | "quiet" | "ran" = "ran";
    while (!stopping) {
      const seen = wakeUpCount;
      try {
        last = await runNext(last !== "ran");
        tell(() => observer.polled?.());
      } catch (error) {
        last = "none";
        logger.error(`worker ${owner}: ${errorMessage(error)}`);
        tell(() => observer.polled?.(error));
      }
      if (last === "none" && !stopping && wakeUpCount === seen)
        await idle(
          nothingDueUntil > Date.now() ? Math.min(pollIntervalMs, nothingDueUntil - Date.now()) : pollIntervalMs,
          true,
        );
    }
  }

  return {
    owner,

    start() {
      if (loops.length > 0) return;
      stopping = false;
      if (wakeUpUrl && concurrency > 0)
        wakeUps = listenForJobs(wakeUpUrl, (runAtMs) => wakeUpTimes.add(runAtMs ?? Date.now()), logger);
      loops = [...Array.from({ length: concurrency }, () => loop()), ...tasks.map((task) => taskLoop(task))];
    },

    async stop() {
      stopping = true;
      const listening = wakeUps;
      wakeUps = undefined;
      wakeUpTimes.clear();
      await listening?.close();
      for (const wake of [...wakers]) wake();
      const finished = Promise.allSettled([...loops, ...active.keys()]);
      const inTime = await Promise.race([finished.then(() => true), delay(stopTimeoutMs).then(() => false)]);
      if (!inTime) {
        logger.warn(
          `worker ${owner}: ${active.size} job(s) still running after ${stopTimeoutMs} ms; aborting them (their leases expire if they ignore it)`,
        );
        for (const { controller } of active.values()) controller.abort(STOP_REASON);
        await Promise.race([finished, delay(Math.min(1000, stopTimeoutMs))]);
        // Handlers that ignore the abort: give their jobs back now rather than
        // leave them leased until the lease expires. Their own late outcome is
        // then discarded (the lease is no longer theirs).
        for (const { jobs } of [...active.values()]) for (const job of jobs) await release(job);
      }
      // A last run, for what the jobs that just finished left.
      for (const task of tasks) await runTask(task);
      loops = [];
    },

    runOnce,

    async runById(id) {
      const job = await claimJobById(db, id, { owner, leaseMs, now: now() });
      if (!job) return false;
      await runClaimed(job);
      return true;
    },

    async drain({ timeoutMs = 30_000 } = {}) {
      const deadline = Date.now() + timeoutMs;
      let processed = 0;
      let timedOut = false;
      const lane = async () => {
        for (;;) {
          if (Date.now() >= deadline) return void (timedOut = true);
          if (!(await runOnce())) return;
          processed++;
        }
      };
      for (;;) {
        const before = processed;
        await Promise.all(Array.from({ length: concurrency }, lane));
        if (timedOut) throw new DrainTimeoutError(timeoutMs, processed);
        let handled = 0;
        for (const task of tasks) {
          for (;;) {
            const run = await runTask(task);
            handled += run.handled;
            if (run.handled === 0 || Date.now() >= deadline) break;
          }
        }
        // What the tasks did may have queued jobs, and jobs may have left the tasks work.
        if (handled === 0 && processed === before) return processed;
        if (handled === 0 && tasks.length === 0) return processed;
        if (Date.now() >= deadline) throw new DrainTimeoutError(timeoutMs, processed);
      }
    },
  };
}

/** Most wake-up times kept ahead; past it, the latest are left to the poll. */
const MAX_WAKE_UP_TIMES = 1_024;

/**
 * When work becomes due, as the wake-ups told: calls `wake` at once for a time
 * already past, else by a timer at the soonest time ahead (one timer at a time).
 */
class WakeUpTimes {
  private times: number[] = [];
  private timer: ReturnType<typeof setTimeout> | undefined;
  private timerAtMs = Infinity;

  constructor(private readonly wake: () => void) {}

  add(atMs: number): void {
    if (atMs <= Date.now()) return this.wake();
    if (this.times.includes(atMs)) return;
    const at = this.times.findIndex((t) => t > atMs);
    this.times.splice(at === -1 ? this.times.length : at, 0, atMs);
    if (this.times.length > MAX_WAKE_UP_TIMES) this.times.pop();
    this.arm();
  }

  clear(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    this.timerAtMs = Infinity;
    this.times = [];
  }

  private arm(): void {
    const next = this.times[0];
    if (next === undefined || next >= this.timerAtMs) return;
    clearTimeout(this.timer);
    this.timerAtMs = next;
    this.timer = setTimeout(() => this.fire(), Math.max(0, next - Date.now()));
    this.timer.unref?.();
  }

  private fire(): void {
    this.timer = undefined;
    this.timerAtMs = Infinity;
    const nowMs = Date.now();
    while (this.times.length > 0 && this.times[0] <= nowMs) this.times.shift();
    this.wake();
    this.arm();
  }
}

/** The job as log fields: which job, whose, which attempt, how long, how it ended. */
function fieldsOf(job: ClaimedJob, outcome: JobSettlement, durationMs: number | null): Record<string, unknown> {
  return {
    job: job.key,
    jobId: job.id,
    kind: job.kind,
    shop: job.shop,
    attempt: job.attempts,
    maxAttempts: job.maxAttempts,
    durationMs,
    outcome,
  };
}

/** An observer's failure never stops the worker. */
function tell(notify: () => void): void {
  try {
    notify();
  } catch {
    // metrics and readiness only
  }
}

function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms).unref?.());
}
