/**
 * The worker inside the app server: one per process, started on first call. The
 * instance lives on globalThis so Vite's module reloads in development find it
 * instead of starting a second one; later calls refresh its handlers in place.
 *
 * In production jobs run in their own process by default (`npm start` plus
 * `npm run worker`): a status-sync cycle or a burst of posts then never shares
 * the event loop that answers webhooks. WORKER_IN_PROCESS=true runs them here
 * (the demo's one process); in development they run here unless it is false.
 */
import { workerEnv, type WorkerEnv } from "../env.server";
import { stopOnShutdownSignal } from "./shutdown";
import type { JobHandlers, QueueDb } from "./types";
import { createWorker, type Worker, type WorkerOptions } from "./worker.server";

interface InProcessWorker {
  worker: Worker;
  /** The object the worker reads handlers from; refreshed on every call. */
  registry: JobHandlers;
  unsubscribe: () => void;
}

declare global {
  var __codLeadSyncWorker: InProcessWorker | undefined;
}

export type InProcessWorkerOptions = Omit<WorkerOptions, "db" | "handlers"> & {
  env?: Pick<WorkerEnv, "WORKER_IN_PROCESS" | "NODE_ENV" | "WORKER_CONCURRENCY">;
};

export function isInProcessWorkerEnabled(
  env: Pick<WorkerEnv, "WORKER_IN_PROCESS" | "NODE_ENV"> = workerEnv(),
): boolean {
  return env.WORKER_IN_PROCESS ?? env.NODE_ENV !== "production";
}

/** Starts the in-process worker once; returns it, or null when disabled by the environment. */
export function startInProcessWorker(
  db: QueueDb,
  handlers: JobHandlers,
  options: InProcessWorkerOptions = {},
): Worker | null {
  const { env = workerEnv(), ...workerOptions } = options;
  if (!isInProcessWorkerEnabled(env)) return null;

  const existing = globalThis.__codLeadSyncWorker;
  if (existing) {
    for (const kind of Object.keys(existing.registry)) delete existing.registry[kind];
    Object.assign(existing.registry, handlers);
    return existing.worker;
  }

  const registry: JobHandlers = { ...handlers };
  const worker = createWorker({ concurrency: env.WORKER_CONCURRENCY, ...workerOptions, db, handlers: registry });
  const logger = workerOptions.logger ?? console;
  worker.start();
  logger.info(`worker ${worker.owner} started in process`);
  const unsubscribe = stopOnShutdownSignal(async () => {
    await worker.stop();
    logger.info(`worker ${worker.owner} stopped`);
  });
  globalThis.__codLeadSyncWorker = { worker, registry, unsubscribe };
  return worker;
}

/** Stops and forgets the in-process worker (tests, or a server closing without a signal). */
export async function stopInProcessWorker(): Promise<void> {
  const current = globalThis.__codLeadSyncWorker;
  if (!current) return;
  globalThis.__codLeadSyncWorker = undefined;
  current.unsubscribe();
  await current.worker.stop();
}
