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
import { processEnv, workerEnv } from "./app/env.server";
import prisma from "./app/db.server";
import { stopOnShutdownSignal } from "./app/queue/shutdown";
import { createWorker } from "./app/queue/worker.server";
import { registerDatabaseMetrics } from "./app/runtime/database-metrics.server";
import { startLoopDelayMonitor, WORKER_LOOP_SAMPLE_MS } from "./app/runtime/event-loop.server";
import { routeConsoleToLogger, setProcessRole } from "./app/runtime/logger.server";
import { startMetricsListener } from "./app/runtime/metrics-server.server";
import { recordProcessRole } from "./app/runtime/metrics.server";
import { limitHeapGrowth } from "./app/runtime/process-memory.server";
import { readinessResponse, workerInstruments, workerStopping } from "./app/runtime/readiness.server";
import { jobHandlers, workerTasks } from "./app/worker.server";

limitHeapGrowth();
const log = setProcessRole("worker");
routeConsoleToLogger(log);
recordProcessRole("worker");
const config = workerEnv();
const { METRICS_PORT, METRICS_HOST, METRICS_TOKEN } = processEnv();
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
if (METRICS_PORT !== undefined) {
  await startMetricsListener({
    port: METRICS_PORT,
    host: METRICS_HOST,
    token: METRICS_TOKEN,
    readiness: () => readinessResponse(prisma),
  });
}

stopOnShutdownSignal(
  async () => {
    workerStopping();
    log.info(`worker ${worker.owner} stopping`, { owner: worker.owner });
    await worker.stop();
    await prisma.$disconnect();
    log.info(`worker ${worker.owner} stopped`, { owner: worker.owner });
  },
  {
    afterStop: () => process.exit(0),
    onError: (error) => log.error("the worker did not stop cleanly", { err: error }),
  },
);
