/**
 * The "payment-overdue" job, once a day per shop while the platform owes it
 * money: every delivered parcel still unpaid after the shop's threshold
 * (Settings, paymentOverdueDays) fires the "Payment overdue" Flow trigger once
 * (one flow-trigger job per parcel, sent by the worker like the others). Ages
 * change at the shop's midnight, so the check runs a few minutes after it. The
 * Home alert reads the same threshold from the rollups, live.
 */
import type { Db } from "../db.server";
import { enqueueJob, enqueueNewJobs } from "../queue/jobs.server";
import type { ClaimedJob } from "../queue/types";
import { readShopSettings } from "../models/shop-settings";
import { flowTriggerJobFor, paymentOverdueJobFor } from "../models/job-kinds";
import { ageInDays } from "../analytics/cash";
import { nextOverdueCheckAt } from "../analytics/cash-ledger.server";
import { addDays, DEFAULT_TIME_ZONE, localDay } from "../analytics/days";
import { FLOW_TRIGGER, paymentOverdueFiring } from "./triggers";
import { triggerInUse } from "./trigger-usage.server";

/** Parcels per transaction (a flow-trigger job each). */
const PAGE = 200;

export interface OverdueCheckReport {
  /** Parcels whose trigger was queued now. */
  queued: number;
  /** Why nothing was queued, when so. */
  skipped?: "switched_off" | "no_workflow" | "uninstalled";
}

/**
 * Queues "Payment overdue" for the shop's parcels delivered more than the
 * threshold's days ago, not paid, and not told yet. A trigger the merchant
 * switched off, or that Flow has not said an enabled workflow uses, queues
 * nothing and marks nothing (switched on later, the overdue parcels fire then).
 */
export async function queueOverdueTriggers(
  db: Db,
  shop: string,
  now: Date,
  timeZone = DEFAULT_TIME_ZONE,
): Promise<OverdueCheckReport> {
  const shopRow = await db.shop.findUnique({
    where: { domain: shop },
    select: { settings: true, uninstalledAt: true },
  });
  if (!shopRow || shopRow.uninstalledAt) return { queued: 0, skipped: "uninstalled" };
  const settings = readShopSettings(shopRow.settings);
  if (!settings.flowTriggers.paymentOverdue) return { queued: 0, skipped: "switched_off" };
  if (!(await triggerInUse(db, shop, FLOW_TRIGGER.paymentOverdue))) return { queued: 0, skipped: "no_workflow" };

  const today = localDay(timeZone, now);
  // Overdue: more than N days since delivery, so delivered before today - N.
  const deliveredBefore = addDays(today, -settings.paymentOverdueDays);
  let queued = 0;
  for (;;) {
    const parcels = await db.cashParcel.findMany({
      where: { shop, state: "owed", day: { lt: deliveredBefore }, overdueNotifiedAt: null },
      select: { linkId: true, orderId: true, leadRef: true, day: true, totalCents: true, profitCents: true },
      orderBy: [{ day: "asc" }, { linkId: "asc" }],
      take: PAGE,
    });
    if (parcels.length === 0) break;
    await db.$transaction(async (tx) => {
      const jobs = parcels.map((p) => {
        const firing = paymentOverdueFiring({
          orderId: p.orderId,
          leadRef: p.leadRef,
          deliveredDay: p.day!,
          totalCents: Number(p.totalCents),
          profitCents: p.profitCents === null ? null : Number(p.profitCents),
          daysUnpaid: ageInDays(p.day!, today),
        });
        return flowTriggerJobFor(shop, p.orderId, p.linkId, firing.handle, firing.eventKey, firing.payload);
      });
      await enqueueNewJobs(tx, jobs);
      await tx.cashParcel.updateMany({
        where: { linkId: { in: parcels.map((p) => p.linkId) } },
        data: { overdueNotifiedAt: now },
      });
    });
    queued += parcels.length;
    if (parcels.length < PAGE) break;
  }
  return { queued };
}

/** The job: check, then come back tomorrow while anything is owed (a parcel becoming owed starts it again). */
export async function runPaymentOverdueJob(deps: { db: Db; now: () => Date }, job: ClaimedJob): Promise<void> {
  if (!job.shop) return;
  const now = deps.now();
  const report = await queueOverdueTriggers(deps.db, job.shop, now);
  if (report.skipped === "uninstalled") return;
  const owed = await deps.db.cashParcel.findFirst({
    where: { shop: job.shop, state: "owed" },
    select: { linkId: true },
  });
  // Re-enqueued while running: it becomes pending again at that time.
  if (owed) await enqueueJob(deps.db, paymentOverdueJobFor(job.shop, nextOverdueCheckAt(now)));
}
