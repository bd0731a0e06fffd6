/**
 * The candidate worker process: `worker.ts` with graphile-worker claiming
 * (runner.ts), started by the benchmarks' `--engine graphile` on a database
 * where install.ts ran. Same environment as `npm run worker` (DATABASE_URL,
 * WORKER_CONCURRENCY, WORKER_LEASE_MS, WORKER_STOP_TIMEOUT_MS, METRICS_PORT),
 * plus GRAPHILE_POLL_MS (graphile's poll, default its own 2 s). SIGTERM stops it
 * gracefully. Not the app's: nothing in app/, server.ts or worker.ts imports it.
 */
import { databaseUrl } from "../../../../app/env.server";
import prisma from "../../../../app/db.server";
import { registerDatabaseMetrics } from "../../../../app/runtime/database-metrics.server";
import { startLoopDelayMonitor, WORKER_LOOP_SAMPLE_MS } from "../../../../app/runtime/event-loop.server";
import { workerInstruments } from "../../../../app/runtime/readiness.server";
import { beginWorkerProcess, serveWorkerProcess } from "../../../../app/runtime/worker-process.server";
import { jobHandlers, workerTasks } from "../../../../app/worker.server";
import { startGraphileRunner } from "./runner";

const { log, config, env } = beginWorkerProcess();
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
await serveWorkerProcess({
  log,
  env,
  owner,
  stop: () => runner.stop(),
  stoppedMessage: `graphile-worker candidate ${owner} stopped`,
  stopFailedMessage: "the candidate worker did not stop cleanly",
});
