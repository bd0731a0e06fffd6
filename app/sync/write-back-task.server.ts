/**
 * The "write-back" job: bring the Shopify order in line with its lead (tags,
 * fulfilment with tracking, paid, optional cancel) as the shop's toggles say.
 */
import { z } from "zod";
import { PermanentJobError, RetryLaterError } from "../queue/errors";
import type { ClaimedJob } from "../queue/types";
import { readShopSettings } from "../models/shop-settings";
import { addTimeline } from "../models/timeline.server";
import { writeBackRefusedText, writtenBackText } from "../models/order-texts";
import { parseWriteBackDone, writeBackOrder } from "../shopify/write-back.server";
import type { AdminFor } from "../shopify/admin-graphql.server";
import type { PipelineDeps } from "./pipeline-deps.server";
import { jobErrorFor, shopifyOutcome } from "../models/job-outcomes";
import { recordStatusToShopify } from "../runtime/metrics.server";

const payloadSchema = z.object({ linkId: z.string().min(1) });

/** How long a write-back waits while the app is uninstalled (a reinstall wakes it at once). */
export const UNINSTALLED_WAIT_MS = 6 * 3600_000;

export async function runWriteBackJob(deps: PipelineDeps & { adminFor: AdminFor }, job: ClaimedJob): Promise<void> {
  const parsed = payloadSchema.safeParse(job.payload);
  if (!parsed.success) throw new PermanentJobError("write-back payload has no linkId");
  const link = await deps.db.orderLink.findUnique({ where: { id: parsed.data.linkId } });
  if (!link || !link.leadRef) return;
  const shop = await deps.db.shop.findUnique({ where: { domain: link.shop } });
  if (!shop) return;
  // Kept, not dropped: a reinstall wakes the shop's waiting jobs (reinstateShop); shop/redact deletes them.
  if (shop.uninstalledAt) throw new RetryLaterError(UNINSTALLED_WAIT_MS, { countAttempt: false, reason: "The app is not installed: written back after a reinstall" });
  const settings = readShopSettings(shop.settings);
  const toggles = settings.writeBack;
  if (!toggles.tags && !toggles.fulfillment && !toggles.markPaid && !toggles.cancel) return;

  const admin = await deps.adminFor(link.shop);
  try {
    const run = await writeBackOrder(
      admin,
      `gid://shopify/Order/${link.orderId}`,
      {
        leadRef: link.leadRef,
        confirmationStatus: link.confirmationStatus,
        shippingStatus: link.shippingStatus,
        hasAnomalies: link.anomalies !== "[]",
        trackingNumber: link.trackingNumber,
        trackingCompany: settings.carrierName ?? null,
        done: parseWriteBackDone(link.writtenBack),
      },
      { ...toggles, ...(settings.carrierName ? { carrierName: settings.carrierName } : {}) },
    );
    await deps.db.orderLink.update({ where: { id: link.id }, data: { writtenBack: JSON.stringify(run.done) } });
    if (run.steps.length > 0) {
      // From the status change the app saw (or the lead's creation) to Shopify showing it: the sync ledger's lag and the metric.
      const seenAt = link.statusCheckedAt ?? link.postedAt;
      const data = seenAt ? { lagMs: Math.max(0, deps.now().getTime() - seenAt.getTime()) } : undefined;
      await addTimeline(deps.db, link.shop, link.id, { kind: "written_back", text: writtenBackText(run.steps), data });
      recordStatusToShopify(seenAt, deps.now());
    }
  } catch (error) {
    const outcome = shopifyOutcome(error);
    if (outcome.kind === "permanent") {
      await addTimeline(deps.db, link.shop, link.id, { kind: "written_back", text: writeBackRefusedText(), data: { detail: outcome.reason } });
    }
    throw jobErrorFor(outcome, error);
  }
}
