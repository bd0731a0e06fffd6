/**
 * Scheduling a shop's reconciliation, apart from the pass itself so that the
 * status sync and the shop's lifecycle can start it without depending on the
 * intake the pass uses (data flows one way).
 */
import type { Prisma } from "@prisma/client";
import type { Db } from "../../db.server";
import { reconcileJobFor, reconcileJobKey } from "../../models/job-kinds";
import { enqueueJob } from "../../queue/jobs.server";

/**
 * Makes sure the shop has a pass coming (install, reinstall, every status-sync cycle),
 * at `runAt` when none is waiting; a pass already planned or running is left alone.
 */
export async function ensureReconcileScheduled(
  db: Db | Prisma.TransactionClient,
  shop: string,
  runAt: Date,
): Promise<void> {
  const existing = await db.job.findUnique({ where: { key: reconcileJobKey(shop) }, select: { state: true } });
  if (existing && existing.state !== "done" && existing.state !== "dead") return;
  await enqueueJob(db, reconcileJobFor(shop, runAt));
}
