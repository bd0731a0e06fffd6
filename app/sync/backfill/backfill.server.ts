/**
 * Backfill: the shop's orders of a date range, read from Shopify (ORDERS_PAGE, 3 a
 * page) by a "backfill" job, one per shop (key `backfill:<shop>`).
 *
 * A dry run maps every order with the shop's current rules and counts what would be
 * sent, held, skipped or is known already. A run also stores each unknown order
 * through the webhook intake path (an OrderLink in `received` and its post-lead job),
 * so the pipeline treats it like a fresh orders/create; an order that has a link is
 * never touched. Progress (cursor and counts) is written to the job's payload after
 * every page, so a reload, a crash or a Shopify throttle resumes where it stopped.
 */
import type { Job, Prisma, Shop } from "@prisma/client";
import type { Db } from "../../db.server";
import { fromWebhookOrder } from "../../leads";
import { isPosted, isLinkState } from "../../models/order-link-state";
import { addTimeline } from "../../models/timeline.server";
import { importedText } from "../../models/order-texts";
import { PermanentJobError, RetryLaterError } from "../../queue/errors";
import { enqueueJob, retryDeadJob } from "../../queue/jobs.server";
import { retryWhileBusy } from "../../db/sqlite-busy";
import type { ClaimedJob, JobContext, JobState } from "../../queue/types";
import { runAdminGraphql, ShopifyThrottledError, type AdminFor } from "../../shopify/admin-graphql.server";
import { ShopifyAdminError } from "../../shopify/errors";
import { shopifyFailureOf } from "../../shopify/failure";
import { ORDERS_PAGE } from "../../shopify/documents";
import { insertOrderLinks, insertPostLeadJobs, orderCreatedRows } from "../order-intake.server";
import type { PipelineDeps } from "../pipeline-deps.server";
import { backfillMapper } from "./context.server";
import { graphqlOrderToWebhookShape } from "./order-shape";
import { initialPayload, ORDERS_PER_PAGE, ordersQuery, outcomeOf, parsePayload, progressOf, validateRange, type BackfillCounts, type BackfillPayload, type BackfillRangeError } from "./progress";
import { BACKFILL_JOB, backfillJobKey } from "../../models/job-kinds";


/** Pages read per job attempt before the job yields the worker to other jobs (live orders first). */
export const PAGES_PER_ATTEMPT = 10;

const ACTIVE_STATES: readonly JobState[] = ["pending", "running", "failed"];

// ---------------------------------------------------------------- the page's side

export interface BackfillView {
  state: JobState;
  active: boolean;
  payload: BackfillPayload;
  /** 0..1 */
  progress: number;
  lastError: string | null;
  attempts: number;
  maxAttempts: number;
  runAt: string;
  updatedAt: string;
}

function viewOf(job: Job): BackfillView | null {
  let raw: unknown;
  try {
    raw = JSON.parse(job.payload);
  } catch {
    return null;
  }
  const payload = parsePayload(raw);
  if (!payload) return null;
  const state = job.state as JobState;
  return {
    state,
    active: ACTIVE_STATES.includes(state) && !payload.finishedAt,
    payload,
    progress: progressOf(payload),
    // A Shopify failure is told by its kind, in the merchant's language: its English message stays in the job row.
    lastError: payload.shopifyFailure ? null : job.lastError,
    attempts: job.attempts,
    maxAttempts: job.maxAttempts,
    runAt: job.runAt.toISOString(),
    updatedAt: job.updatedAt.toISOString(),
  };
}

/** The shop's latest backfill (dry run or run), or null when it never ran one. */
export async function readBackfill(db: Db, shop: string): Promise<BackfillView | null> {
  const job = await db.job.findUnique({ where: { key: backfillJobKey(shop) } });
  return job && job.shop === shop ? viewOf(job) : null;
}

export type StartBackfillResult =
  | { ok: true; backfill: BackfillView }
  | { ok: false; error: BackfillRangeError | "already_running" };

/** Queues a dry run or a run of from..to (days, both included); one backfill per shop at a time. */
export async function startBackfill(
  db: Db,
  shop: string,
  input: { from: string; to: string; dryRun: boolean },
  now: Date = new Date(),
): Promise<StartBackfillResult> {
  const error = validateRange(input.from, input.to, now.toISOString().slice(0, 10));
  if (error) return { ok: false, error };
  const current = await readBackfill(db, shop);
  if (current?.active) return { ok: false, error: "already_running" };
  // A run after a finished dry run of the same range knows its total: a real progress bar.
  const previous = current?.payload;
  const expectedTotal =
    !input.dryRun && previous?.dryRun && previous.finishedAt && previous.from === input.from && previous.to === input.to
      ? previous.counts.scanned
      : null;
  await enqueueJob(db, {
    kind: BACKFILL_JOB,
    key: backfillJobKey(shop),
    shop,
    payload: initialPayload({ ...input, expectedTotal, now }),
    runAt: now,
  });
  const backfill = await readBackfill(db, shop);
  if (!backfill) throw new Error(`backfill job of ${shop} vanished after it was queued`);
  return { ok: true, backfill };
}

/** Runs a dead backfill again from where it stopped (its cursor is kept). */
export async function resumeBackfill(db: Db, shop: string, now: Date = new Date()): Promise<boolean> {
  const job = await db.job.findUnique({ where: { key: backfillJobKey(shop) }, select: { id: true, shop: true } });
  if (!job || job.shop !== shop) return false;
  return retryDeadJob(db, job.id, { shop, now });
}

// ---------------------------------------------------------------- the job

interface OrdersPageData {
  orders: { nodes: unknown[]; pageInfo: { hasNextPage: boolean; endCursor: string | null } };
}

export interface BackfillOptions {
  pagesPerAttempt?: number;
}

/**
 * Writes the progress while this attempt still holds the job's lease. False when the
 * lease was lost: another worker owns the job and continues from the last saved page.
 */
async function saveProgress(db: Db, job: ClaimedJob, payload: BackfillPayload): Promise<boolean> {
  const { count } = await retryWhileBusy(() =>
    db.job.updateMany({
      where: { id: job.id, state: "running", leaseOwner: job.leaseOwner, attempts: job.attempts },
      data: { payload: JSON.stringify(payload) },
    }),
  );
  return count === 1;
}

/** Stores an order the app does not know yet exactly as orders/create would; false when it exists. */
export async function intakeBackfilledOrder(db: Db, shop: string, payload: Record<string, unknown>, range: { from: string; to: string }): Promise<boolean> {
  const orderId = String(payload.id);
  return retryWhileBusy(() =>
    db.$transaction(async (tx: Prisma.TransactionClient) => {
      // The intake's own insert-or-ignore writes, without its webhook delivery row.
      const rows = orderCreatedRows({ id: `backfill:${orderId}`, shop, topic: "ORDERS_CREATE" }, payload);
      // A webhook (or another backfill) stored the order first: its link and job stand.
      if ((await insertOrderLinks(tx, [rows])) === 0) return false;
      await insertPostLeadJobs(tx, [rows]);
      const link = await tx.orderLink.findUniqueOrThrow({ where: { shop_orderId: { shop, orderId } }, select: { id: true } });
      // Also the link's first timeline row: post-lead then records no "received from Shopify".
      await addTimeline(tx, shop, link.id, { kind: "received", text: importedText(range.from, range.to) });
      return true;
    }),
  );
}

export async function runBackfillJob(
  deps: PipelineDeps & { adminFor: AdminFor },
  job: ClaimedJob,
  ctx: Pick<JobContext, "signal">,
  options: BackfillOptions = {},
): Promise<void> {
  const start = parsePayload(job.payload);
  if (!start) throw new PermanentJobError("backfill payload is not readable");
  if (start.finishedAt) return;
  const domain = job.shop;
  if (!domain) throw new PermanentJobError("backfill job has no shop");
  const { db } = deps;
  const shop: Shop | null = await db.shop.findUnique({ where: { domain } });
  if (!shop || shop.uninstalledAt) throw new PermanentJobError("the app is not installed on this shop");

  const admin = await deps.adminFor(domain);
  const mapOrder = await backfillMapper(db, shop, deps.now());
  const query = ordersQuery(start.from, start.to);
  const range = { from: start.from, to: start.to };
  let state: BackfillPayload = { ...start, throttledUntil: null };
  const budget = Math.max(1, options.pagesPerAttempt ?? PAGES_PER_ATTEMPT);

  for (let page = 0; page < budget; page++) {
    if (ctx.signal.aborted) throw ctx.signal.reason ?? new Error("backfill aborted");
    let data: OrdersPageData;
    try {
      data = await runAdminGraphql<OrdersPageData>(admin, ORDERS_PAGE, { first: ORDERS_PER_PAGE, after: state.cursor, query });
    } catch (error) {
      if (!(error instanceof ShopifyThrottledError)) {
        // The queue retries after its backoff; meanwhile the page says what failed and offers to run it now.
        if (error instanceof ShopifyAdminError) await saveProgress(db, job, { ...state, shopifyFailure: shopifyFailureOf(error).kind });
        throw error;
      }
      const until = new Date(deps.now().getTime() + error.retryAfterMs);
      await saveProgress(db, job, { ...state, throttledUntil: until.toISOString() });
      throw new RetryLaterError(error.retryAfterMs, {
        countAttempt: false,
        reason: `Shopify is busy: the backfill continues in ${Math.ceil(error.retryAfterMs / 1000)} s`,
      });
    }

    const counts: BackfillCounts = { ...state.counts };
    const orders = data.orders.nodes.map(graphqlOrderToWebhookShape).filter((o) => /^\d+$/.test(String(o.id ?? "")));
    const known = new Map(
      (
        await db.orderLink.findMany({
          where: { shop: domain, orderId: { in: orders.map((o) => String(o.id)) } },
          select: { orderId: true, state: true },
        })
      ).map((l) => [l.orderId, l.state]),
    );
    let lastOrderAt = state.lastOrderAt;
    for (const payload of orders) {
      counts.scanned++;
      if (typeof payload.created_at === "string") lastOrderAt = payload.created_at;
      const linkState = known.get(String(payload.id));
      if (linkState !== undefined) {
        if (isLinkState(linkState) && isPosted(linkState)) counts.alreadySent++;
        else counts.alreadyInApp++;
        continue;
      }
      const outcome = outcomeOf(mapOrder(fromWebhookOrder(payload)));
      if (state.dryRun) {
        counts[outcome]++;
      } else if (await intakeBackfilledOrder(db, domain, payload, range)) {
        counts[outcome]++;
        counts.created++;
      } else {
        counts.alreadyInApp++;
      }
    }

    const done = !data.orders.pageInfo.hasNextPage;
    state = {
      ...state,
      shopifyFailure: null,
      counts,
      lastOrderAt,
      cursor: data.orders.pageInfo.endCursor ?? state.cursor,
      pages: state.pages + 1,
      finishedAt: done ? deps.now().toISOString() : null,
    };
    if (!(await saveProgress(db, job, state))) return;
    if (done) return;
  }
  // Yield: the job is due again at once, behind the jobs already waiting (runAt order).
  throw new RetryLaterError(0, { countAttempt: false, reason: `Backfill continues after page ${state.pages}` });
}
