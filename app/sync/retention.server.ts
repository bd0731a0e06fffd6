/**
 * The "retention" job, once a day per shop: deletes what is older than the
 * shop's data-retention setting (orders and their timeline, the API call log,
 * webhook deliveries, finished jobs). Orders still on their way (posting, or a
 * lead whose status still moves) are kept whatever their age.
 *
 * In the same transaction the reconciliation's coverage start moves past the
 * retention horizon and every order removed: the reconciliation takes in only
 * orders placed since then, so a purged order that Shopify later reports as
 * updated (a note, an archive, a refund) is never taken in and posted again.
 */
import { enqueueJob } from "../queue/jobs.server";
import type { ClaimedJob } from "../queue/types";
import { readShopSettings } from "../models/shop-settings";
import type { PipelineDeps } from "./pipeline-deps.server";
import { retentionJobFor, RETENTION_JOB } from "../models/job-kinds";
import { coverFrom, ensureLedger } from "./reconcile/coverage.server";

const DAY_MS = 24 * 3600 * 1000;

export interface RetentionReport {
  orders: number;
  apiCalls: number;
  deliveries: number;
  jobs: number;
}

export async function purgeShopData(deps: PipelineDeps, domain: string): Promise<RetentionReport | undefined> {
  const { db } = deps;
  const shop = await db.shop.findUnique({ where: { domain } });
  if (!shop) return undefined;
  const cutoff = new Date(deps.now().getTime() - readShopSettings(shop.settings).retentionDays * DAY_MS);
  const expired = await db.orderLink.findMany({
    where: {
      shop: domain,
      createdAt: { lt: cutoff },
      NOT: [{ state: "posting" }, { state: { in: ["created", "damaged"] }, statusFinal: false }],
    },
    select: { id: true, orderCreatedAt: true, createdAt: true },
  });
  const ids = expired.map((l) => l.id);
  // Past the horizon, and past the newest order removed by Shopify's own clock (its created_at,
  // which can run ahead of this machine's): the reconciliation compares Shopify's times.
  const coveredFrom = new Date(
    expired.reduce(
      (at, l) => Math.max(at, l.createdAt.getTime() + 1, (l.orderCreatedAt?.getTime() ?? 0) + 1),
      cutoff.getTime(),
    ),
  );
  await ensureLedger(db, shop);
  const [, , orders, apiCalls, deliveries, jobs] = await db.$transaction([
    db.timelineEvent.deleteMany({ where: { shop: domain, linkId: { in: ids } } }),
    db.orderOdds.deleteMany({ where: { shop: domain, linkId: { in: ids } } }),
    db.orderLink.deleteMany({ where: { shop: domain, id: { in: ids } } }),
    db.apiCall.deleteMany({ where: { shop: domain, at: { lt: cutoff } } }),
    db.webhookDelivery.deleteMany({ where: { shop: domain, receivedAt: { lt: cutoff } } }),
    db.job.deleteMany({ where: { shop: domain, state: "done", updatedAt: { lt: cutoff } } }),
    coverFrom(db, domain, coveredFrom),
  ]);
  return { orders: orders.count, apiCalls: apiCalls.count, deliveries: deliveries.count, jobs: jobs.count };
}

export async function runRetentionJob(deps: PipelineDeps, job: ClaimedJob): Promise<void> {
  if (!job.shop) return;
  await purgeShopData(deps, job.shop);
  // Runs again in a day (re-enqueued while running: it becomes pending at that time).
  await enqueueJob(deps.db, retentionJobFor(job.shop, new Date(deps.now().getTime() + DAY_MS)));
}

/** Makes sure a shop has its daily retention job, without pushing back one already planned. */
export async function ensureRetentionScheduled(db: PipelineDeps["db"], domain: string, now: Date): Promise<void> {
  const existing = await db.job.findUnique({ where: { key: `${RETENTION_JOB}:${domain}` }, select: { state: true } });
  if (existing && existing.state !== "done" && existing.state !== "dead") return;
  await enqueueJob(db, retentionJobFor(domain, new Date(now.getTime() + DAY_MS)));
}
