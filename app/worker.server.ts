/**
 * The worker's job handlers wired to the app's database, environment and
 * Shopify's offline sessions, and the tasks it runs besides jobs (telling
 * recorded lead events, writing the call log): what the in-process worker
 * (entry.server.tsx) and `npm run worker` (worker.ts) run.
 */
import prisma from "./db.server";
import { sellerApiEnv } from "./env.server";
import type { JobHandlers, WorkerTask } from "./queue/types";
import type { AdminFor } from "./shopify/admin-graphql.server";
import { cachedAdminFor } from "./shopify/admin-client-cache";
import { createJobHandlers } from "./sync/job-handlers.server";
import { createPipelineDeps } from "./sync/pipeline-deps.server";
import { leadEventsTask } from "./sync/lead-events.server";
import { callLogTask } from "./sync/call-log.server";

/** Shopify's Admin API for a shop, from its stored offline session (shopify.server loaded on first use: it needs the app's whole env), kept a minute. */
const adminFromSession: AdminFor = cachedAdminFor(async (shop) => {
  const { unauthenticated } = await import("./shopify.server");
  const { admin, session } = await unauthenticated.admin(shop);
  return { admin, expires: session.expires ?? null };
});

const { SELLER_API_TIMEOUT_MS: timeoutMs, SELLER_API_RATE_REFRESH_MS: rateRefreshMs } = sellerApiEnv();

export const jobHandlers: JobHandlers = createJobHandlers({
  ...createPipelineDeps(prisma, { timeoutMs, rateRefreshMs }),
  adminFor: adminFromSession,
});

export const workerTasks: WorkerTask[] = [leadEventsTask(prisma), callLogTask(prisma)];
