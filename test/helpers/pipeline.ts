/**
 * A shop wired to a real sandbox over loopback and a real database: its
 * sealed key, the pipeline's handlers and a worker to drain the queue.
 */
import type { PrismaClient } from "@prisma/client";
import { createWorker } from "../../app/queue/worker.server";
import type { JobHandlers } from "../../app/queue/types";
import { createJobHandlers } from "../../app/sync/job-handlers.server";
import { createPipelineDeps, type PipelineDeps } from "../../app/sync/pipeline-deps.server";
import { leadEventsTask, tellPendingLeadEvents } from "../../app/sync/lead-events.server";
import { callLogTask } from "../../app/sync/call-log.server";
import { connectShop, SHOP } from "../../scripts/dev/lib/connected-shop";
import { type AdminFor } from "../../app/shopify/admin-graphql.server";

export { SHOP };
export const connectTestShop = connectShop;

export interface TestPipeline {
  deps: PipelineDeps;
  handlers: JobHandlers;
  /** Runs due jobs, and tells recorded lead events, until neither is left; returns how many jobs ran. */
  drain(options?: { timeoutMs?: number; kinds?: string[] }): Promise<number>;
  /** Tells the lead events the pipeline recorded, as the worker does in batches. */
  tellLeadEvents(): Promise<void>;
}

/** No write-back to Shopify unless a test passes an Admin client. */
const noAdmin: AdminFor = async () => {
  throw new Error("no Shopify Admin API in this test");
};

export function testPipeline(
  db: PrismaClient,
  options: { adminFor?: AdminFor; clock?: () => Date; /** The platform calls' time limit. */ timeoutMs?: number } = {},
): TestPipeline {
  const deps = createPipelineDeps(db, { clock: options.clock, timeoutMs: options.timeoutMs ?? 5_000 });
  const handlers = createJobHandlers({ ...deps, adminFor: options.adminFor ?? noAdmin });
  return {
    deps,
    handlers,
    async tellLeadEvents() {
      while ((await tellPendingLeadEvents(db)).told > 0);
    },
    // A bound for a queue that never empties, not a speed (a loaded machine drains slower).
    async drain({ timeoutMs = 300_000, kinds } = {}) {
      const worker = createWorker({
        db,
        handlers,
        kinds,
        logger: { info: () => {}, warn: () => {}, error: () => {} },
        backoff: { baseMs: 1, capMs: 5 },
        tasks: [leadEventsTask(db), callLogTask(db)],
      });
      return worker.drain({ timeoutMs });
    },
  };
}
