/**
 * The candidate runner: graphile-worker claims (its queues, run_at, LISTEN/NOTIFY
 * and poll), our worker runs and settles. Its one task, `cod_job`, leases our Job
 * row by id and runs it with the app's handlers through our worker
 * (`Worker.runById`, concurrency 0: it claims nothing itself), so a job is
 * settled exactly as our own worker settles it: RetryLaterError back to pending
 * at its runAt without spending an attempt, PermanentJobError dead, any other
 * error failed with backoff; each of those writes re-adds the graphile job
 * through the trigger (install.ts). A row that is not due when its graphile job
 * runs (done, leased in a batch by another job, re-enqueued for later) is left
 * alone: the graphile job ends, and the row's next change adds another.
 *
 * Batch kinds run as our worker runs them: the leased job with up to the
 * handler's size more of its shop and kind (our batch claim); their own graphile
 * jobs then find them leased and end. The worker's tasks (lead events, the call
 * log) run on their own interval in this process, as in ours: graphile's cron
 * fires at most once a minute, and they run every few seconds.
 */
import { run, type Runner } from "graphile-worker";
import { createWorker, type Worker, type WorkerOptions } from "../../../../app/queue/worker.server";
import { GRAPHILE_TASK } from "./install";
import { quietLogger } from "./logger";

export interface GraphileRunnerOptions extends Pick<
  WorkerOptions,
  "db" | "handlers" | "tasks" | "owner" | "leaseMs" | "stopTimeoutMs" | "logger" | "observer"
> {
  connectionString: string;
  /** Jobs at once (graphile's concurrency). */
  concurrency: number;
  /** graphile's poll for jobs whose run_at came (new ones arrive by LISTEN/NOTIFY); its default is 2 s. */
  pollIntervalMs?: number;
}

export interface GraphileRunner {
  readonly worker: Worker;
  /** Graceful: graphile stops taking jobs and waits for the running ones, then the tasks run once more. */
  stop(): Promise<void>;
}

export async function startGraphileRunner(options: GraphileRunnerOptions): Promise<GraphileRunner> {
  const { connectionString, concurrency, pollIntervalMs, ...ours } = options;
  const worker = createWorker({ ...ours, concurrency: 0, wakeUps: false });
  const runner: Runner = await run({
    connectionString,
    concurrency,
    // Its pool: a connection per lane, its listener and one for its bookkeeping.
    maxPoolSize: concurrency + 2,
    pollInterval: pollIntervalMs,
    noHandleSignals: true,
    // Completions batched (within a tick): a graceful stop then waits for the last ones to be written.
    // Unbatched (the default), a job finished while the pool stopped could stay locked, and its queue with it.
    preset: { worker: { completeJobBatchDelay: 0, failJobBatchDelay: 0 } },
    logger: quietLogger(),
    taskList: {
      [GRAPHILE_TASK]: async (payload) => {
        await worker.runById(jobIdOf(payload));
      },
    },
  });
  worker.start();
  return {
    worker,
    async stop() {
      await runner.stop();
      await worker.stop();
    },
  };
}

function jobIdOf(payload: unknown): string {
  const id = (payload as { id?: unknown } | null)?.id;
  if (typeof id !== "string") throw new Error(`${GRAPHILE_TASK}: the payload has no job id`);
  return id;
}
