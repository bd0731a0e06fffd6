/**
 * Every job kind the worker runs, given the pipeline's dependencies (the
 * database, the shops' Seller Order API connections, Shopify's Admin API).
 */
import type { JobHandlers } from "../queue/types";
import type { PipelineDeps } from "./pipeline-deps.server";
import { runPostLead } from "./post-lead.server";
import { runRefreshLeadJob, runSyncStatusesJob } from "./status-sync.server";
import { runWriteBackJobs, WRITE_BACK_BATCH } from "./write-back-task.server";
import { runRetentionJob } from "./retention.server";
import { runBackfillJob } from "./backfill/backfill.server";
import { reconcileConfig, runReconcileJob, type ReconcileConfig } from "./reconcile/pass.server";
import { FLOW_TRIGGER_BATCH, runFlowTriggerJobs } from "../flow/flow-triggers.server";
import { ShopifyBudget } from "../shopify/points-budget";
import { runPaymentOverdueJob } from "../flow/payment-overdue.server";
import { runOddsFitJob } from "../customers/odds-fit.server";
import { runRiskAssessmentJob } from "./risk-assessment.server";
import { runAdFeedJob, type AdFeedDeps } from "../ad-feed/send.server";
import { adPlatformClients } from "../ad-feed/clients.server";
import { secretBoxFromEnv } from "../env.server";
import { log } from "../runtime/logger.server";
import {
  POST_LEAD_JOB,
  REFRESH_LEAD_JOB,
  SYNC_STATUSES_JOB,
  WRITE_BACK_JOB,
  RETENTION_JOB,
  BACKFILL_JOB,
  FLOW_TRIGGER_JOB,
  PAYMENT_OVERDUE_JOB,
  RECONCILE_JOB,
  ODDS_FIT_JOB,
  RISK_ASSESSMENT_JOB,
  AD_FEED_JOB,
} from "../models/job-kinds";
import { type AdminFor } from "../shopify/admin-graphql.server";

/**
 * `reconcile`: the reconciliation's interval, bound and threshold (read from the environment when not given);
 * `adFeed`: the ad platforms' clients and the secret box (from the environment when not given, on first use).
 */
export function createJobHandlers(
  deps: PipelineDeps & {
    adminFor: AdminFor;
    reconcile?: ReconcileConfig;
    adFeed?: Pick<AdFeedDeps, "meta" | "tiktok" | "secretBox">;
  },
): JobHandlers {
  const reconcile = deps.reconcile ?? reconcileConfig();
  let adFeed: AdFeedDeps | undefined;
  const adFeedDeps = (): AdFeedDeps =>
    (adFeed ??= {
      db: deps.db,
      now: deps.now,
      ...(deps.adFeed ?? { ...adPlatformClients(), secretBox: secretBoxFromEnv() }),
      log: (line) => log.warn(line),
    });
  // The worker's line for each shop's Shopify points (write-back and Flow triggers share it).
  const shopifyBudget = new ShopifyBudget();
  return {
    [POST_LEAD_JOB]: (job, ctx) => runPostLead(deps, job, ctx),
    [SYNC_STATUSES_JOB]: (job) => runSyncStatusesJob(deps, job),
    [REFRESH_LEAD_JOB]: (job) => runRefreshLeadJob(deps, job),
    // Batches: a shop's due write-backs (and firings) share one claim, one read and one commit.
    [WRITE_BACK_JOB]: {
      size: WRITE_BACK_BATCH,
      run: (jobs, ctx) => runWriteBackJobs({ ...deps, shopifyBudget }, jobs, ctx),
    },
    [RETENTION_JOB]: (job) => runRetentionJob(deps, job),
    [BACKFILL_JOB]: (job, ctx) => runBackfillJob(deps, job, ctx),
    [FLOW_TRIGGER_JOB]: {
      size: FLOW_TRIGGER_BATCH,
      run: (jobs, ctx) => runFlowTriggerJobs({ ...deps, shopifyBudget }, jobs, ctx),
    },
    [PAYMENT_OVERDUE_JOB]: (job) => runPaymentOverdueJob(deps, job),
    [RECONCILE_JOB]: (job, ctx) => runReconcileJob(deps, job, ctx, reconcile),
    [ODDS_FIT_JOB]: (job) => runOddsFitJob(deps, job),
    [RISK_ASSESSMENT_JOB]: (job, ctx) => runRiskAssessmentJob(deps, job, ctx),
    [AD_FEED_JOB]: (job) => runAdFeedJob(adFeedDeps(), job),
  };
}
