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
import type { Job, Shop } from "@prisma/client";
import type { Db } from "../../db.server";
import { isPosted, isLinkState } from "../../models/order-link-state";
import { importedText } from "../../models/order-texts";
import { PermanentJobError } from "../../queue/errors";
import { enqueueJob, retryDeadJob } from "../../queue/jobs.server";
import type { ClaimedJob, JobContext, JobState } from "../../queue/types";
import { runAdminGraphql, type AdminFor } from "../../shopify/admin-graphql.server";
import { ORDERS_PAGE } from "../../shopify/documents";
import type { PipelineDeps } from "../pipeline-deps.server";
import { backfillMapper } from "./context.server";
import { graphqlOrderToWebhookShape } from "./order-shape";
import { saveScanProgress, scanCall, takeUnknownOrder, yieldAfterPage } from "./scan.server";
import {
  initialPayload,
  ORDERS_PER_PAGE,
  ordersQuery,
  parsePayload,
  progressOf,
  validateRange,
  type BackfillCounts,
  type BackfillPayload,
  type BackfillRangeError,
} from "./progress";
import { BACKFILL_JOB, backfillJobKey } from "../../models/job-kinds";
import { readShopSettings } from "../../models/shop-settings";
import { isStaleOrder } from "../../models/stale-order";

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
  { ok: true; backfill: BackfillView } | { ok: false; error: BackfillRangeError | "already_running" | "preview_first" };

/**
 * Queues a dry run or a run of from..to (days, both included); one backfill per shop at a time.
 * A run follows a finished dry run of the same range: the merchant confirmed what it counted
 * (how many, how old, how much money) before anything is sent.
 */
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
  const previous = current?.payload;
  const previewed = previous?.dryRun && previous.finishedAt && previous.from === input.from && previous.to === input.to;
  if (!input.dryRun && !previewed) return { ok: false, error: "preview_first" };
  // A run knows its total from the dry run: a real progress bar.
  const expectedTotal = !input.dryRun && previous ? previous.counts.scanned : null;
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

/** Where a backfilled order comes from, on its first timeline row; it keeps the day it was placed. */
const backfillSource = (payload: Record<string, unknown>, range: { from: string; to: string }) => ({
  deliveryId: `backfill:${String(payload.id)}`,
  timeline: { kind: "imported" as const, text: importedText(range.from, range.to) },
  imported: true,
});

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
  // Orders older than the shop's limit are imported but wait for the merchant's word (post-lead holds them).
  const { staleOrderDays } = readShopSettings(shop.settings);
  const isStale = (payload: Record<string, unknown>) => {
    const placed = typeof payload.created_at === "string" ? new Date(payload.created_at) : null;
    return placed !== null && !Number.isNaN(placed.getTime()) && isStaleOrder(placed, deps.now(), staleOrderDays);
  };
  const query = ordersQuery(start.from, start.to);
  const range = { from: start.from, to: start.to };
  let state: BackfillPayload = { ...start, throttledUntil: null };
  const budget = Math.max(1, options.pagesPerAttempt ?? PAGES_PER_ATTEMPT);

  for (let page = 0; page < budget; page++) {
    if (ctx.signal.aborted) throw ctx.signal.reason ?? new Error("backfill aborted");
    const data = await scanCall(db, job, state, deps.now(), "backfill", () =>
      runAdminGraphql<OrdersPageData>(admin, ORDERS_PAGE, { first: ORDERS_PER_PAGE, after: state.cursor, query }),
    );

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
    let oldestOrderAt = state.oldestOrderAt;
    for (const payload of orders) {
      counts.scanned++;
      if (typeof payload.created_at === "string") {
        lastOrderAt = payload.created_at;
        if (!oldestOrderAt || Date.parse(payload.created_at) < Date.parse(oldestOrderAt))
          oldestOrderAt = payload.created_at;
      }
      const linkState = known.get(String(payload.id));
      if (linkState !== undefined) {
        if (isLinkState(linkState) && isPosted(linkState)) counts.alreadySent++;
        else counts.alreadyInApp++;
        continue;
      }
      const taken = await takeUnknownOrder(db, domain, payload, counts, {
        dryRun: state.dryRun,
        mapOrder,
        source: backfillSource(payload, range),
        isStale,
      });
      if (taken === "known") counts.alreadyInApp++;
    }

    const done = !data.orders.pageInfo.hasNextPage;
    state = {
      ...state,
      shopifyFailure: null,
      counts,
      lastOrderAt,
      oldestOrderAt,
      cursor: data.orders.pageInfo.endCursor ?? state.cursor,
      pages: state.pages + 1,
      finishedAt: done ? deps.now().toISOString() : null,
    };
    if (!(await saveScanProgress(db, job, state))) return;
    if (done) return;
  }
  throw yieldAfterPage("Backfill", state.pages);
}
