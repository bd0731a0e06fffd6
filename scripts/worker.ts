/**
 * `npm run worker`: runs queued jobs in a process of its own, the production
 * default (the server runs none unless WORKER_IN_PROCESS=true; both at once is
 * also safe: leases keep any job from running twice at the same time).
 * WORKER_CONCURRENCY jobs at once (default 4). SIGTERM drains: no new claim, the
 * running jobs finish (or, past WORKER_STOP_TIMEOUT_MS, go back to pending without
 * losing an attempt), then the process exits.
 */
import prisma, { sqliteSettings } from "../app/db.server";
import { stopOnShutdownSignal } from "../app/queue/shutdown";
import type { JobHandlers } from "../app/queue/types";
import { createWorker } from "../app/queue/worker.server";
import { CLAIM_ORDERS, type ClaimOrder } from "../app/queue/jobs.server";
import { workerConcurrency } from "../app/queue/in-process.server";
import { startLoopDelayMonitor } from "../app/runtime/event-loop.server";
import { limitHeapGrowth } from "../app/runtime/process-memory.server";
import { jobHandlers } from "../app/sync/handlers.server";

limitHeapGrowth();
// The app's own client, not a second one: the handlers use it too, and one client
// serialises this process's statements instead of making them collide (SQLITE_BUSY).
const handlers: JobHandlers = jobHandlers;
// On SQLite the web server waits for this process's write lock synchronously (on its event loop):
// a turn given inside a transaction here would lengthen that wait (app/db/client.ts).
sqliteSettings.turnsInTransactions = false;
// WORKER_LEASE_MS: how long a crashed worker's job stays claimed (default 60 s).
const leaseMs = Number(process.env.WORKER_LEASE_MS) || undefined;
// QUEUE_CLAIM_ORDER=fifo: the oldest due job first, whatever its shop (benchmark baseline).
const claimOrder = CLAIM_ORDERS.find((o) => o === process.env.QUEUE_CLAIM_ORDER) as ClaimOrder | undefined;
// WORKER_STOP_TIMEOUT_MS: how long SIGTERM waits for running jobs before releasing them (default 30 s).
const stopTimeoutMs = Number(process.env.WORKER_STOP_TIMEOUT_MS) || undefined;
// WORKER_MAX_RUNNING_PER_SHOP: one shop's jobs of one kind running at once across workers (default 2, 0 = no cap).
const cap = process.env.WORKER_MAX_RUNNING_PER_SHOP;
const maxRunningPerShop = cap !== undefined && /^\d+$/.test(cap) ? Number(cap) : undefined;
const worker = createWorker({ db: prisma, handlers, leaseMs, concurrency: workerConcurrency(), claimOrder, stopTimeoutMs, maxRunningPerShop });
startLoopDelayMonitor("worker");

worker.start();
console.info(`worker ${worker.owner} started`);

stopOnShutdownSignal(
  async () => {
    console.info(`worker ${worker.owner} stopping`);
    await worker.stop();
    await prisma.$disconnect();
    console.info(`worker ${worker.owner} stopped`);
  },
  { afterStop: () => process.exit(0) },
);
