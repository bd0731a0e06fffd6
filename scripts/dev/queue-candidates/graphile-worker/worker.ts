/**
 * The candidate worker process: `worker.ts` with graphile-worker claiming
 * (runner.ts), started by the benchmarks' `--engine graphile` on a database
 * where install.ts ran. Same environment as `npm run worker` (DATABASE_URL,
 * WORKER_CONCURRENCY, WORKER_LEASE_MS, WORKER_STOP_TIMEOUT_MS, METRICS_PORT),
 * plus GRAPHILE_POLL_MS (graphile's poll, default its own 2 s). SIGTERM stops it
 * gracefully. Not the app's: nothing in app/, server.ts or worker.ts imports it.
 */
import { databaseUrl, processEnv, workerEnv } from "../../../../app/env.server";
import prisma from "../../../../app/db.server";
import { stopOnShutdownSignal } from "../../../../app/queue/shutdown";
import { registerDatabaseMetrics } from "../../../../app/runtime/database-metrics.server";
import { startLoopDelayMonitor, WORKER_LOOP_SAMPLE_MS } from "../../../../app/runtime/event-loop.server";
import { routeConsoleToLogger, setProcessRole } from "../../../../app/runtime/logger.server";
import { startMetricsListener } from "../../../../app/runtime/metrics-server.server";
import { recordProcessRole } from "../../../../app/runtime/metrics.server";
import { limitHeapGrowth } from "../../../../app/runtime/process-memory.server";
import { readinessResponse, workerInstruments, workerStopping } from "../../../../app/runtime/readiness.server";
import { jobHandlers, workerTasks } from "../../../../app/worker.server";
import { startGraphileRunner } from "./runner";

limitHeapGrowth();
const log = setProcessRole("worker");
routeConsoleToLogger(log);
recordProcessRole("worker");
const config = workerEnv();
const { METRICS_PORT, METRICS_HOST, METRICS_TOKEN } = processEnv();
const pollMs = process.env.GRAPHILE_POLL_MS ? Number(process.env.GRAPHILE_POLL_MS) : undefined;
const runner = await startGraphileRunner({
  connectionString: databaseUrl(),
  concurrency: config.WORKER_CONCURRENCY,
  pollIntervalMs: pollMs,
  db: prisma,
  handlers: jobHandlers,
  tasks: workerTasks,
  leaseMs: config.WORKER_LEASE_MS,
  stopTimeoutMs: config.WORKER_STOP_TIMEOUT_MS,
  ...workerInstruments(),
});
startLoopDelayMonitor(WORKER_LOOP_SAMPLE_MS);
registerDatabaseMetrics(prisma);
const { owner } = runner.worker;
log.info(`graphile-worker candidate ${owner} started`, { owner, concurrency: config.WORKER_CONCURRENCY });
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
    await runner.stop();
    await prisma.$disconnect();
    log.info(`graphile-worker candidate ${owner} stopped`, { owner });
  },
  {
    afterStop: () => process.exit(0),
    onError: (error) => log.error("the candidate worker did not stop cleanly", { err: error }),
  },
);
