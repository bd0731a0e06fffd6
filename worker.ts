/**
 * `npm run worker`: runs queued jobs in a process of its own, the production
 * default (the server runs none unless WORKER_IN_PROCESS=true; both at once is
 * also safe: leases keep any job from running twice at the same time).
 * WORKER_CONCURRENCY jobs at once (default 4). SIGTERM drains: no new claim, the
 * running jobs finish (or, past WORKER_STOP_TIMEOUT_MS, go back to pending without
 * losing an attempt), then the process exits. It logs JSON lines (one per job)
 * and, with METRICS_PORT, serves /metrics, /healthz and /readyz there. Built to
 * build/worker.js by `npm run build`; production runs that file.
 */
// First: NODE_ENV defaults to production (the address guard, JSON logs) before anything reads it.
import "./app/env.server";
import prisma from "./app/db.server";
import { createWorker } from "./app/queue/worker.server";
import { registerDatabaseMetrics } from "./app/runtime/database-metrics.server";
import { startLoopDelayMonitor, WORKER_LOOP_SAMPLE_MS } from "./app/runtime/event-loop.server";
import { workerInstruments } from "./app/runtime/readiness.server";
import { beginWorkerProcess, serveWorkerProcess } from "./app/runtime/worker-process.server";
import { jobHandlers, workerTasks } from "./app/worker.server";

const { log, config, env } = beginWorkerProcess();
// The app's own client, not a second one: the handlers use it too, and one pool bounds the process's connections.
const worker = createWorker({
  db: prisma,
  handlers: jobHandlers,
  tasks: workerTasks,
  leaseMs: config.WORKER_LEASE_MS,
  concurrency: config.WORKER_CONCURRENCY,
  stopTimeoutMs: config.WORKER_STOP_TIMEOUT_MS,
  maxRunningPerShop: config.WORKER_MAX_RUNNING_PER_SHOP,
  ...workerInstruments(),
});
startLoopDelayMonitor(WORKER_LOOP_SAMPLE_MS);
registerDatabaseMetrics(prisma);

worker.start();
log.info(`worker ${worker.owner} started`, { owner: worker.owner, concurrency: config.WORKER_CONCURRENCY });
await serveWorkerProcess({
  log,
  env,
  owner: worker.owner,
  stop: async () => {
    log.info(`worker ${worker.owner} stopping`, { owner: worker.owner });
    await worker.stop();
  },
  stoppedMessage: `worker ${worker.owner} stopped`,
  stopFailedMessage: "the worker did not stop cleanly",
});
