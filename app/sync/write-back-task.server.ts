/**
 * The "write-back" job: bring the Shopify order in line with its lead (tags,
 * fulfilment with tracking, paid, optional cancel) as the shop's toggles say.
 * Queued by the lead-events handler below only when the lead now differs from
 * what was written, a few seconds after the change: the job reads the link when
 * it runs, so a burst of moves of one order is one run with the latest state.
 */
import type { Prisma } from "@prisma/client";
import { z } from "zod";
import { PermanentJobError, RetryLaterError } from "../queue/errors";
import type { ClaimedJob, JobContext } from "../queue/types";
import { wakeJobs } from "../queue/jobs.server";
import { readShopSettings, type ShopSettings } from "../models/shop-settings";
import { addTimelineRows, timelineRow, type TimelineEntry } from "../models/timeline.server";
import { writeBackRefusedText, writtenBackText } from "../models/order-texts";
import { mayFulfil, MUTATION_POINTS, parseWriteBackDone, READ_ACTUAL_POINTS, READ_POINTS, writeBackOrder } from "../shopify/write-back.server";
import { ShopifyThrottledError } from "../shopify/errors";
import type { ShopifyBudget } from "../shopify/points-budget";
import { CANCEL_REASONS, FULFILL_SHIPPING_STATUSES, markPaidStatuses, type WriteBackDone } from "../shopify/write-back-plan";
import { desiredTags, tagKey } from "../shopify/write-back-tags";
import type { AdminFor } from "../shopify/admin-graphql.server";
import type { PipelineDeps } from "./pipeline-deps.server";
import { jobErrorFor, shopifyOutcome, throttledInLine, waitForShopifyPoints, type ShopifyPoints } from "../models/job-outcomes";
import { writeBackJobFor } from "../models/job-kinds";
import type { LeadEvent } from "../models/lead-events";
import { asDate, asString, sqlDatabaseOf, sqlOf, statement } from "../db/sql";
import { shopLinksByIds } from "../models/links-by-id.server";
import { recordStatusToShopify } from "../runtime/metrics.server";

const payloadSchema = z.object({ linkId: z.string().min(1) });

/** How long a write-back waits while the app is uninstalled (a reinstall wakes it at once). */
export const UNINSTALLED_WAIT_MS = 6 * 3600_000;

/** How long after a change its write-back waits: later moves of the same order join it. */
export const WRITE_BACK_DELAY_MS = 3_000;

/** The link and its shop's toggles, in one prepared read. */
const LINK_AND_SHOP = statement(`SELECT l."id", l."shop", l."orderId", l."leadRef", l."confirmationStatus", l."shippingStatus", l."anomalies",
  l."trackingNumber", l."writtenBack", l."statusCheckedAt", l."postedAt", s."settings", s."uninstalledAt", s."domain" AS "shopDomain"
  FROM "OrderLink" l LEFT JOIN "Shop" s ON s."domain" = l."shop" WHERE l."id" = ?`);
const SET_WRITTEN_BACK = statement(`UPDATE "OrderLink" SET "writtenBack" = ?, "updatedAt" = ? WHERE "id" = ?`);

/** Whether any toggle is on: otherwise a job would do nothing. */
export function writeBackEnabled(settings: Pick<ShopSettings, "writeBack">): boolean {
  const { writeBack } = settings;
  return writeBack.tags || writeBack.fulfillment || writeBack.markPaid || writeBack.cancel;
}

interface WriteBackFacts {
  leadRef: string | null;
  confirmationStatus: string | null;
  shippingStatus: string | null;
  anomalies: string;
  trackingNumber: string | null;
  writtenBack: string;
}

/**
 * The mutations a run would likely make, judged from the link alone against
 * what was written (pure): a job is queued only when there is one. Shopify's
 * own state is read by the job; what the merchant changed by hand is left alone anyway.
 */
export function likelyMutations(link: WriteBackFacts, toggles: ShopSettings["writeBack"]): number {
  if (!link.leadRef) return 0;
  const done: WriteBackDone = parseWriteBackDone(link.writtenBack);
  let mutations = 0;
  if (toggles.tags) {
    const wanted = new Set(desiredTags({ ...link, hasAnomalies: link.anomalies !== "[]" }).map(tagKey));
    const written = new Set(done.tags.map(tagKey));
    if ([...wanted].some((t) => !written.has(t))) mutations++;
    if ([...written].some((t) => !wanted.has(t))) mutations++;
  }
  const shipping = link.shippingStatus ?? "";
  if (toggles.fulfillment && !done.fulfilled && FULFILL_SHIPPING_STATUSES.has(shipping)) mutations++;
  if (toggles.markPaid && !done.paid && markPaidStatuses(toggles.markPaidWhen).has(shipping)) mutations++;
  if (toggles.cancel && !done.cancelled && link.confirmationStatus !== null && CANCEL_REASONS[link.confirmationStatus] !== undefined) mutations++;
  return mutations;
}

/** Whether a run could change the Shopify order (see likelyMutations). */
export const writeBackMayChange = (link: WriteBackFacts, toggles: ShopSettings["writeBack"]): boolean => likelyMutations(link, toggles) > 0;

/**
 * A run's Admin API points: what its costliest call asks to be in the bucket,
 * and what the run is expected to spend (its read's actual cost and 10 a mutation).
 */
export function writeBackPoints(link: WriteBackFacts & { shippingStatus: string | null }, toggles: ShopSettings["writeBack"]): ShopifyPoints {
  const fulfil = mayFulfil({ shippingStatus: link.shippingStatus, done: parseWriteBackDone(link.writtenBack) }, toggles);
  const read = fulfil ? READ_POINTS.withFulfillmentOrders : READ_POINTS.head;
  return { requested: Math.max(read, MUTATION_POINTS), charge: (fulfil ? READ_ACTUAL_POINTS.withFulfillmentOrders : READ_ACTUAL_POINTS.head) + MUTATION_POINTS * Math.max(1, likelyMutations(link, toggles)) };
}

/**
 * Lead-events handler: wakes the write-back of each order whose lead was
 * answered or moved and now differs from what was written (toggles on).
 */
export async function writeBackHandler(tx: Prisma.TransactionClient, shop: string, allEvents: LeadEvent[]): Promise<void> {
  const events = allEvents.filter((e) => e.kind === "answered" || e.kind === "status");
  if (events.length === 0) return;
  const row = await tx.shop.findUnique({ where: { domain: shop }, select: { settings: true } });
  if (!row) return;
  const settings = readShopSettings(row.settings);
  if (!writeBackEnabled(settings)) return;
  const ids = [...new Set(events.map((e) => e.linkId))];
  const links = await shopLinksByIds(tx, shop, ids, {
    id: true, orderId: true, leadRef: true, confirmationStatus: true, shippingStatus: true, anomalies: true, trackingNumber: true, writtenBack: true,
  });
  const runAt = new Date(Date.now() + WRITE_BACK_DELAY_MS);
  const jobs = links.filter((l) => writeBackMayChange(l, settings.writeBack)).map((l) => ({ ...writeBackJobFor(shop, l.orderId, l.id), runAt }));
  await wakeJobs(tx, jobs);
}

export async function runWriteBackJob(deps: PipelineDeps & { adminFor: AdminFor; shopifyBudget: ShopifyBudget }, job: ClaimedJob, ctx?: Pick<JobContext, "completeIn">): Promise<void> {
  const parsed = payloadSchema.safeParse(job.payload);
  if (!parsed.success) throw new PermanentJobError("write-back payload has no linkId");
  const database = sqlDatabaseOf(deps.db);
  const [row] = await database.all(LINK_AND_SHOP, [parsed.data.linkId]);
  if (!row || !row.leadRef || !row.shopDomain) return;
  const link = {
    id: String(row.id),
    shop: String(row.shop),
    orderId: String(row.orderId),
    leadRef: String(row.leadRef),
    confirmationStatus: asString(row.confirmationStatus),
    shippingStatus: asString(row.shippingStatus),
    anomalies: String(row.anomalies),
    trackingNumber: asString(row.trackingNumber),
    writtenBack: String(row.writtenBack),
    statusCheckedAt: asDate(row.statusCheckedAt),
    postedAt: asDate(row.postedAt),
  };
  // Kept, not dropped: a reinstall wakes the shop's waiting jobs (reinstateShop); shop/redact deletes them.
  if (asDate(row.uninstalledAt)) throw new RetryLaterError(UNINSTALLED_WAIT_MS, { countAttempt: false, reason: "The app is not installed: written back after a reinstall" });
  const settings = readShopSettings(asString(row.settings));
  const toggles = settings.writeBack;
  if (!writeBackEnabled(settings)) return;

  const timeline = (entry: TimelineEntry) => timelineRow(link.shop, link.id, entry);
  // In line for the shop's Admin API points (app/shopify/points-budget.ts).
  const points = writeBackPoints(link, toggles);
  const line = { budget: deps.shopifyBudget, nowMs: deps.now().getTime() };
  waitForShopifyPoints(line, link.shop, job.id, points);
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
    // From the status change the app saw (or the lead's creation) to Shopify showing it: the sync ledger's lag and the metric.
    const seenAt = link.statusCheckedAt ?? link.postedAt;
    const lag = seenAt ? { lagMs: Math.max(0, deps.now().getTime() - seenAt.getTime()) } : undefined;
    // What was written, its timeline row and the job's completion: one commit.
    await database.transaction(async (tx) => {
      await tx.run(SET_WRITTEN_BACK, [JSON.stringify(run.done), new Date(), link.id]);
      if (run.steps.length > 0) await addTimelineRows(tx, [timeline({ kind: "written_back", text: writtenBackText(run.steps), data: lag })]);
      await ctx?.completeIn(tx);
    });
    if (run.steps.length > 0) recordStatusToShopify(seenAt, deps.now());
  } catch (error) {
    if (error instanceof ShopifyThrottledError) throttledInLine({ ...line, nowMs: deps.now().getTime() }, link.shop, job.id, points, error);
    const outcome = shopifyOutcome(error);
    if (outcome.kind === "permanent") {
      await addTimelineRows(sqlOf(deps.db), [timeline({ kind: "written_back", text: writeBackRefusedText(), data: { detail: outcome.reason } })]);
    }
    throw jobErrorFor(outcome, error);
  }
}
