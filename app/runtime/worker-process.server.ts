/**
 * What a worker process does around its engine, the same for `npm run worker`
 * and the benchmarks' graphile-worker candidate: it marks itself a worker (logs,
 * metrics, heap limit), serves /metrics there with METRICS_PORT, and stops
 * gracefully on SIGTERM/SIGINT. Only how jobs are claimed differs, so the
 * candidate is measured against the very process production runs.
 */
import prisma from "../db.server";
import { processEnv, workerEnv } from "../env.server";
import { stopOnShutdownSignal } from "../queue/shutdown";
import { routeConsoleToLogger, setProcessRole, type Logger } from "./logger.server";
import { startMetricsListener } from "./metrics-server.server";
import { recordProcessRole } from "./metrics.server";
import { limitHeapGrowth } from "./process-memory.server";
import { readinessResponse, workerStopping } from "./readiness.server";

/** Marks this process a worker and reads its settings; before the engine is made, so a bad setting stops it first. */
export function beginWorkerProcess() {
  limitHeapGrowth();
  const log = setProcessRole("worker");
  routeConsoleToLogger(log);
  recordProcessRole("worker");
  return { log, config: workerEnv(), env: processEnv() };
}

export interface ServeWorkerOptions {
  log: Logger;
  env: ReturnType<typeof processEnv>;
  /** Stops the engine; readiness already says stopping, and the database is let go after it. */
  stop: () => Promise<void>;
  stoppedMessage: string;
  stopFailedMessage: string;
  owner: string;
}

/** Once the engine runs: the metrics listener (with METRICS_PORT), then the stop on a shutdown signal. */
export async function serveWorkerProcess(options: ServeWorkerOptions): Promise<void> {
  const { log, env, owner } = options;
  if (env.METRICS_PORT !== undefined) {
    await startMetricsListener({
      port: env.METRICS_PORT,
      host: env.METRICS_HOST,
      token: env.METRICS_TOKEN,
      readiness: () => readinessResponse(prisma),
    });
  }
  stopOnShutdownSignal(
    async () => {
      workerStopping();
      await options.stop();
      await prisma.$disconnect();
      log.info(options.stoppedMessage, { owner });
    },
    {
      afterStop: () => process.exit(0),
      onError: (error) => log.error(options.stopFailedMessage, { err: error }),
    },
  );
}
