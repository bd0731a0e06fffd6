/**
 * Every job kind the worker runs, given the pipeline's dependencies (the
 * database, the shops' Seller Order API connections, Shopify's Admin API).
 */
import type { JobHandlers } from "../queue/types";
import { POST_LEAD_JOB } from "./order-intake.server";
import type { PipelineDeps } from "./pipeline-deps.server";
import { runPostLead } from "./post-lead.server";
import { REFRESH_LEAD_JOB, runRefreshLeadJob, runSyncStatusesJob, SYNC_STATUSES_JOB } from "./status-sync.server";
import { runWriteBackJob, type AdminFor } from "./write-back-task.server";
import { WRITE_BACK_JOB } from "./write-back-job.server";
import { RETENTION_JOB, runRetentionJob } from "./retention.server";
import { BACKFILL_JOB, runBackfillJob } from "./backfill/backfill.server";
import { FLOW_TRIGGER_JOB, runFlowTriggerJob } from "../flow/flow-triggers.server";

/** Shopify's Admin API for a shop, from its stored offline session (loaded lazily: it needs the app's env). */
const adminFromSession: AdminFor = async (shop) => {
  const { unauthenticated } = await import("../shopify.server");
  const { admin } = await unauthenticated.admin(shop);
  return admin;
};

export function createJobHandlers(deps: PipelineDeps & { adminFor?: AdminFor }): JobHandlers {
  const withAdmin = { ...deps, adminFor: deps.adminFor ?? adminFromSession };
  return {
    [POST_LEAD_JOB]: (job) => runPostLead(deps, job),
    [SYNC_STATUSES_JOB]: (job) => runSyncStatusesJob(deps, job),
    [REFRESH_LEAD_JOB]: (job) => runRefreshLeadJob(deps, job),
    [WRITE_BACK_JOB]: (job) => runWriteBackJob(withAdmin, job),
    [RETENTION_JOB]: (job) => runRetentionJob(deps, job),
    [BACKFILL_JOB]: (job, ctx) => runBackfillJob(withAdmin, job, ctx),
    [FLOW_TRIGGER_JOB]: (job) => runFlowTriggerJob(withAdmin, job),
  };
}
