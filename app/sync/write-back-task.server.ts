/**
 * The "write-back" job: bring the Shopify order in line with its lead (tags,
 * fulfilment with tracking, paid, optional cancel) as the shop's toggles say.
 * Woken in the commit that records the lead's answer or its new status
 * (writeBackWakes, by post-lead and the status sync), only when the lead now
 * differs from what was written, at the next 2 s boundary: the job reads the
 * link when it runs, so the moves of one order in that time are one run with the
 * latest state, and the orders woken in it are one batch.
 */
import { z } from "zod";
import { PermanentJobError, RetryLaterError } from "../queue/errors";
import type { BatchJobContext, ClaimedJob } from "../queue/types";
import type { EnqueueJobInput } from "../queue/jobs.server";
import { readShopSettings, type ShopSettings } from "../models/shop-settings";
import { addTimelineRows, timelineRow, type TimelineRow } from "../models/timeline.server";
import { writeBackRefusedText, writtenBackText } from "../models/order-texts";
import {
  mayFulfil,
  MUTATION_POINTS,
  parseWriteBackDone,
  READ_ACTUAL_POINTS,
  READ_POINTS,
  writeBackOrders,
  type WriteBackRun,
} from "../shopify/write-back.server";
import { ShopifyThrottledError } from "../shopify/errors";
import type { ShopifyBudget } from "../shopify/points-budget";
import {
  cancelReasonOf,
  FULFILL_SHIPPING_STATUSES,
  markPaidStatuses,
  type WriteBackDone,
} from "../shopify/write-back-plan";
import { desiredTags, tagKey } from "../shopify/write-back-tags";
import type { AdminFor } from "../shopify/admin-graphql.server";
import type { PipelineDeps } from "./pipeline-deps.server";
import {
  jobErrorFor,
  shopifyOutcome,
  throttledInLine,
  waitForShopifyPoints,
  type ShopifyPoints,
} from "../models/job-outcomes";
import { writeBackJobFor } from "../models/job-kinds";
import { asDate, asString, sqlDatabaseOf, statement, statementsByCount, type Row } from "../db/sql";
import { recordStatusToShopify } from "../runtime/metrics.server";

const payloadSchema = z.object({ linkId: z.string().min(1) });

/** How long a write-back waits while the app is uninstalled (a reinstall wakes it at once). */
export const UNINSTALLED_WAIT_MS = 6 * 3600_000;

/**
 * Write-backs wait for the next boundary of this period after their change: the
 * ones woken in one period (a burst of answers, a status-sync batch, a later move
 * of the same order) become due together and run as one batch (one claim, one
 * Admin request, one commit).
 */
export const WRITE_BACK_EVERY_MS = 2_000;

/** The links and their shop's toggles, in one prepared read. */
const LINKS_AND_SHOP = statement(
  `SELECT l."id", l."shop", l."orderId", l."leadRef", l."confirmationStatus", l."shippingStatus", l."anomalies",
  l."trackingNumber", l."writtenBack", l."statusCheckedAt", l."postedAt", s."settings", s."uninstalledAt", s."domain" AS "shopDomain"
  FROM "OrderLink" l LEFT JOIN "Shop" s ON s."domain" = l."shop" WHERE l."id" = ANY(?)`,
);

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
  if (
    toggles.cancel &&
    !done.cancelled &&
    link.confirmationStatus !== null &&
    cancelReasonOf(link.confirmationStatus) !== null
  )
    mutations++;
  return mutations;
}

/** Whether a run could change the Shopify order (see likelyMutations). */
export const writeBackMayChange = (link: WriteBackFacts, toggles: ShopSettings["writeBack"]): boolean =>
  likelyMutations(link, toggles) > 0;

/**
 * A run's Admin API points: what its costliest call asks to be in the bucket,
 * and what the run is expected to spend (its read's actual cost and 10 a mutation).
 */
export function writeBackPoints(
  link: WriteBackFacts & { shippingStatus: string | null },
  toggles: ShopSettings["writeBack"],
): ShopifyPoints {
  const fulfil = mayFulfil(
    { shippingStatus: link.shippingStatus, done: parseWriteBackDone(link.writtenBack) },
    toggles,
  );
  const read = fulfil ? READ_POINTS.withFulfillmentOrders : READ_POINTS.head;
  return {
    requested: Math.max(read, MUTATION_POINTS),
    charge:
      (fulfil ? READ_ACTUAL_POINTS.withFulfillmentOrders : READ_ACTUAL_POINTS.head) +
      MUTATION_POINTS * Math.max(1, likelyMutations(link, toggles)),
  };
}

/**
 * The write-backs a lead answered or moved wakes (pure): one per order whose lead,
 * as it stands after the change, differs from what was written (toggles on),
 * at the next WRITE_BACK_EVERY_MS boundary after the change. For the commit that records the change.
 */
export function writeBackWakes(
  settings: Pick<ShopSettings, "writeBack">,
  links: readonly (WriteBackFacts & { id: string; shop: string; orderId: string })[],
  at: Date,
): EnqueueJobInput[] {
  if (!writeBackEnabled(settings)) return [];
  const runAt = new Date(Math.ceil((at.getTime() + 1) / WRITE_BACK_EVERY_MS) * WRITE_BACK_EVERY_MS);
  return links
    .filter((l) => writeBackMayChange(l, settings.writeBack))
    .map((l) => ({ ...writeBackJobFor(l.shop, l.orderId, l.id), runAt }));
}

/** Write-backs of one shop run together: one claim, one read and one commit for up to this many orders. */
export const WRITE_BACK_BATCH = 25;

/** Each order's new writtenBack, in one statement. */
const setWrittenBack = statementsByCount(
  (count) =>
    `UPDATE "OrderLink" SET "writtenBack" = CASE "id" ${Array.from({ length: count }, () => `WHEN ? THEN ?`).join(" ")} END, "updatedAt" = ? WHERE "id" = ANY(?)`,
);

type LinkRow = ReturnType<typeof linkOf>;
function linkOf(row: Row) {
  return {
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
}

/**
 * The "write-back" jobs of one shop, as a batch (the worker's batch handler):
 * one read of their links and the shop's toggles, each in line for the shop's
 * points, the orders whose points are there written back in few Admin requests
 * (writeBackOrders), and what was written, the timeline rows and the
 * completions in one commit. Gives back the jobs that failed, each with its error.
 */
export async function runWriteBackJobs(
  deps: PipelineDeps & { adminFor: AdminFor; shopifyBudget: ShopifyBudget },
  jobs: readonly ClaimedJob[],
  ctx: Pick<BatchJobContext, "completeIn">,
): Promise<Map<string, unknown>> {
  const failures = new Map<string, unknown>();
  const linkIds = new Map<string, string>();
  for (const job of jobs) {
    const parsed = payloadSchema.safeParse(job.payload);
    if (parsed.success) linkIds.set(job.id, parsed.data.linkId);
    else failures.set(job.id, new PermanentJobError("write-back payload has no linkId"));
  }
  const database = sqlDatabaseOf(deps.db);
  const rows = linkIds.size > 0 ? await database.all(LINKS_AND_SHOP, [[...new Set(linkIds.values())]]) : [];
  const rowById = new Map(rows.map((r) => [String(r.id), r]));

  const done: ClaimedJob[] = [];
  const ready: { job: ClaimedJob; link: LinkRow; settings: ShopSettings; points: ShopifyPoints }[] = [];
  const line = { budget: deps.shopifyBudget, nowMs: deps.now().getTime() };
  for (const job of jobs) {
    const linkId = linkIds.get(job.id);
    if (linkId === undefined) continue;
    const row = rowById.get(linkId);
    // Nothing to write (the link or its lead is gone, the shop erased, every toggle off): done.
    if (!row || !row.leadRef || !row.shopDomain) {
      done.push(job);
      continue;
    }
    const link = linkOf(row);
    // Kept, not dropped: a reinstall wakes the shop's waiting jobs (reinstateShop); shop/redact deletes them.
    if (asDate(row.uninstalledAt)) {
      failures.set(
        job.id,
        new RetryLaterError(UNINSTALLED_WAIT_MS, {
          countAttempt: false,
          reason: "The app is not installed: written back after a reinstall",
        }),
      );
      continue;
    }
    const settings = readShopSettings(asString(row.settings));
    if (!writeBackEnabled(settings)) {
      done.push(job);
      continue;
    }
    // In line for the shop's Admin API points (app/shopify/points-budget.ts).
    const points = writeBackPoints(link, settings.writeBack);
    try {
      waitForShopifyPoints(line, link.shop, job.id, points);
      ready.push({ job, link, settings, points });
    } catch (error) {
      failures.set(job.id, error);
    }
  }

  const written: { link: LinkRow; doneJson: string }[] = [];
  const timeline: TimelineRow[] = [];
  const seenAts: (Date | null)[] = [];
  const runs = await writeBackAll(deps, ready);
  for (const [n, { job, link, points }] of ready.entries()) {
    const run = runs[n];
    if (!("error" in run)) {
      written.push({ link, doneJson: JSON.stringify(run.done) });
      if (run.steps.length > 0) {
        // From the status change the app saw (or the lead's creation) to Shopify showing it: the sync ledger's lag and the metric.
        const seenAt = link.statusCheckedAt ?? link.postedAt;
        timeline.push(
          timelineRow(link.shop, link.id, {
            kind: "written_back",
            text: writtenBackText(run.steps),
            data: seenAt ? { lagMs: Math.max(0, deps.now().getTime() - seenAt.getTime()) } : undefined,
          }),
        );
        seenAts.push(seenAt);
      }
      done.push(job);
      continue;
    }
    const { error } = run;
    try {
      if (error instanceof ShopifyThrottledError)
        throttledInLine({ ...line, nowMs: deps.now().getTime() }, link.shop, job.id, points, error);
      const outcome = shopifyOutcome(error);
      if (outcome.kind === "permanent")
        timeline.push(
          timelineRow(link.shop, link.id, {
            kind: "written_back",
            text: writeBackRefusedText(),
            data: { detail: outcome.reason },
          }),
        );
      failures.set(job.id, jobErrorFor(outcome, error));
    } catch (inLine) {
      failures.set(job.id, inLine);
    }
  }
  // What was written, its timeline rows and the completions: one commit.
  if (written.length > 0 || timeline.length > 0 || done.length > 0) {
    await database.transaction(async (tx) => {
      if (written.length > 0) {
        const params = written.flatMap((w) => [w.link.id, w.doneJson]);
        await tx.run(setWrittenBack(written.length), [...params, new Date(), written.map((w) => w.link.id)]);
      }
      await addTimelineRows(tx, timeline);
      await ctx.completeIn(tx, done);
    });
  }
  for (const seenAt of seenAts) recordStatusToShopify(seenAt, deps.now());
  return failures;
}

/** The orders' write-backs in few Admin requests (writeBackOrders): each one's run, or the error that stopped it. */
async function writeBackAll(
  deps: { adminFor: AdminFor },
  ready: readonly { link: LinkRow; settings: ShopSettings }[],
): Promise<(WriteBackRun | { error: unknown })[]> {
  if (ready.length === 0) return [];
  try {
    const admin = await deps.adminFor(ready[0].link.shop);
    return await writeBackOrders(
      admin,
      ready.map(({ link, settings }) => ({
        orderGid: `gid://shopify/Order/${link.orderId}`,
        link: {
          leadRef: link.leadRef,
          confirmationStatus: link.confirmationStatus,
          shippingStatus: link.shippingStatus,
          hasAnomalies: link.anomalies !== "[]",
          trackingNumber: link.trackingNumber,
          trackingCompany: settings.carrierName ?? null,
          done: parseWriteBackDone(link.writtenBack),
        },
        settings: { ...settings.writeBack, ...(settings.carrierName ? { carrierName: settings.carrierName } : {}) },
      })),
    );
  } catch (error) {
    return ready.map(() => ({ error }));
  }
}
