/**
 * The "reconcile" job, per shop (key `reconcile:<shop>`, one holder at a time): the
 * shop's orders updated in Shopify since the last pass, read through the Admin API
 * (RECONCILE_ORDERS, 250 a page, oldest change first), against the app's own links.
 *
 * An order the app never received is taken in exactly as its orders/create webhook would
 * have been (the same rows, insert-or-ignore: a late webhook changes nothing after it,
 * and it changes nothing after a webhook). A cancellation or an edit the app missed is
 * applied by the orders/cancelled and orders/updated intake. Then the orders the app
 * wrote to since the last pass are read back, and where Shopify does not show what was
 * written the write-back runs again (drift.ts). At the end the pass records the sync
 * ledger's figures (measure.server.ts) and queues the next pass one interval later.
 *
 * It spends Shopify's budget with care: each call waits until the bucket holds its cost
 * and a quarter of the bucket besides (write-back and Flow draw on the same bucket), a
 * THROTTLED answer is waited out without spending an attempt, and a pass that cannot
 * reach Shopify comes back at the next interval, where it stopped. Progress is saved in
 * the job's payload after every page (the backfill's machinery, backfill/scan.server.ts).
 */
import type { Shop } from "@prisma/client";
import { z } from "zod";
import type { Db } from "../../db.server";
import { reconcileEnv } from "../../env.server";
import { reconcileJobFor, reconcileJobKey, writeBackJobFor } from "../../models/job-kinds";
import { isPosted, isLinkState } from "../../models/order-link-state";
import { readShopSettings } from "../../models/shop-settings";
import { addTimeline } from "../../models/timeline.server";
import {
  reconciledCancellationText,
  reconciledChangeText,
  recoveredText,
  rewrittenText,
} from "../../models/order-texts";
import { PermanentJobError, RetryLaterError } from "../../queue/errors";
import { enqueueJob } from "../../queue/jobs.server";
import type { ClaimedJob, JobContext } from "../../queue/types";
import { runAdminGraphqlWithCost, type AdminFor, type AdminGraphqlClient } from "../../shopify/admin-graphql.server";
import { RECONCILE_ORDER_DETAILS, RECONCILE_ORDER_STATES, RECONCILE_ORDERS } from "../../shopify/documents";
import type { QueryCost } from "../../shopify/errors";
import { ShopifyAdminError } from "../../shopify/errors";
import { shopifyFailureOf } from "../../shopify/failure";
import { parseWriteBackDone } from "../../shopify/write-back-plan";
import { backfillMapper, type MapOrder } from "../backfill/context.server";
import { graphqlOrderToWebhookShape } from "../backfill/order-shape";
import { ORDERS_PER_PAGE, scanProgressShape } from "../backfill/progress";
import { saveScanProgress, scanCall, takeUnknownOrder, yieldAfterPage } from "../backfill/scan.server";
import { intakeOrderCancelled, intakeOrderUpdated } from "../order-intake.server";
import type { PipelineDeps } from "../pipeline-deps.server";
import { recordReconcileRecovered } from "../../runtime/metrics.server";
import { actionFor, readOrderState, type ShopifyOrderState } from "./compare";
import { coverFrom, currentCoverage, ensureLedger, later, type LedgerRow } from "./coverage.server";
import { writeBackDrift } from "./drift";
import {
  countLatencies,
  fireStuckTriggers,
  hourOf,
  ledgerFigures,
  pruneLedger,
  type LedgerFigures,
  type ShopifyCount,
} from "./measure.server";
import {
  createdBetweenQuery,
  LEDGER_WINDOWS,
  nextWatermark,
  passWindow,
  updatedSinceQuery,
  windowStart,
  type LedgerWindow,
} from "./window";

export interface ReconcileConfig {
  intervalMs: number;
  maxGapMs: number;
  stuckMs: number;
  /** Pages read per attempt before the job gives its worker back (live orders first). */
  pagesPerAttempt: number;
}

export function reconcileConfig(): ReconcileConfig {
  const env = reconcileEnv();
  return {
    intervalMs: env.RECONCILE_INTERVAL_SECONDS * 1000,
    maxGapMs: env.RECONCILE_MAX_GAP_HOURS * 3600_000,
    stuckMs: env.SYNC_STUCK_MINUTES * 60_000,
    pagesPerAttempt: PAGES_PER_ATTEMPT,
  };
}

export const PAGES_PER_ATTEMPT = 20;
/** A pass reads at most this many pages (a million orders): a cursor that leads in a circle ends. */
export const MAX_PAGES_PER_PASS = 4000;
/** Shopify's largest page: 250 orders at about 252 requested points. */
export const INDEX_PAGE_SIZE = 250;
/** Order states read back per call (one point each). */
const STATES_PER_CALL = 250;
/** Orders placed in the last minute are still on their way (webhook in flight): the ledger counts up to a minute ago. */
export const COUNT_SETTLE_MS = 60_000;
/** Orders a pass names in the ledger (the rest are counted). */
const TOUCHED_KEPT = 20;
/** A pass that could not reach Shopify tries again this soon at the earliest. */
const RETRY_FLOOR_MS = 60_000;

const foundSchema = z.object({
  scanned: z.number().int().default(0),
  /** Orders taken in whose webhook never came. */
  recovered: z.number().int().default(0),
  cancelled: z.number().int().default(0),
  updated: z.number().int().default(0),
  /** Write-backs queued again because Shopify did not show them. */
  rewritten: z.number().int().default(0),
  /** Orders placed before the coverage start (the Backfill's). */
  beforeCoverage: z.number().int().default(0),
});
export type PassFound = z.infer<typeof foundSchema>;

const countSchema = z.object({ count: z.number().int(), precision: z.string() }).nullable().default(null);

export const reconcilePayloadSchema = z.object({
  ...scanProgressShape,
  /** Orders updated since here are read (ISO). */
  from: z.string(),
  /** Orders placed since here are taken in (ISO). */
  coverageFrom: z.string(),
  uncoveredFrom: z.string().nullable().default(null),
  /** The end of the ledger's windows: Shopify's counts and the app's are of orders placed before it. */
  countedUntil: z.string(),
  phase: z.enum(["orders", "verify"]).default("orders"),
  /**
   * Set when Shopify said a next page exists without a new cursor: the listing ended early, and the
   * next pass reads from the last order seen here (ISO) instead of from this pass's start.
   */
  resumeFrom: z.string().nullable().default(null),
  /** Orders of the pages read that are still to be read whole (taken in or updated), kept so a resume never reads a page twice. */
  pending: z
    .array(z.object({ orderId: z.string(), gid: z.string(), name: z.string(), action: z.enum(["take", "update"]) }))
    .default([]),
  found: foundSchema.default({}),
  shopify: z.object({ day: countSchema, week: countSchema }).default({}),
  /** The first orders it took in or changed, for the ledger's links. */
  touched: z
    .array(
      z.object({
        orderId: z.string(),
        orderName: z.string(),
        what: z.enum(["recovered", "cancelled", "updated", "rewritten"]),
      }),
    )
    .default([]),
  /** Admin API calls of the pass and the points they cost (actual). */
  cost: z.object({ calls: z.number().int().default(0), points: z.number().default(0) }).default({}),
});
export type ReconcilePayload = z.infer<typeof reconcilePayloadSchema>;

/** A pass in progress, or null: the empty payload of a job waiting for its next pass. */
export function parseReconcilePayload(value: unknown): ReconcilePayload | null {
  const parsed = reconcilePayloadSchema.safeParse(value);
  return parsed.success && !parsed.data.finishedAt ? parsed.data : null;
}

/** What the last Admin answer said of the shop's bucket, to wait before a call rather than be throttled. */
class ShopifyBudget {
  private status: { available: number; maximum: number; restoreRate: number; at: number } | null = null;

  saw(cost: QueryCost | undefined, now: number): void {
    const t = cost?.throttleStatus;
    if (t && t.restoreRate > 0)
      this.status = {
        available: t.currentlyAvailable,
        maximum: t.maximumAvailable,
        restoreRate: t.restoreRate,
        at: now,
      };
  }

  /** Ms to wait before a call asking `requested` points, keeping a quarter of the bucket for the rest of the app. */
  waitMs(requested: number, now: number): number {
    if (!this.status) return 0;
    const { available, maximum, restoreRate, at } = this.status;
    const need = Math.min(maximum, requested + maximum / 4);
    const filled = Math.min(maximum, available + ((now - at) / 1000) * restoreRate);
    return filled >= need ? 0 : Math.ceil(((need - filled) / restoreRate) * 1000);
  }
}

/** Requested points of each call (what the bucket must hold before it runs). */
const INDEX_COST = 2 + INDEX_PAGE_SIZE + 2;
const DETAILS_COST = 310 * ORDERS_PER_PAGE;

interface PassContext {
  deps: PipelineDeps & { adminFor: AdminFor };
  job: ClaimedJob;
  shop: Shop;
  /** The shop's ledger row as this attempt started (its marks move only at a pass's end). */
  ledger: LedgerRow;
  admin: AdminGraphqlClient;
  budget: ShopifyBudget;
  config: ReconcileConfig;
  mapOrder?: MapOrder;
}

interface OrdersPageData {
  orders: { nodes: unknown[]; pageInfo: { hasNextPage: boolean; endCursor: string | null } };
  day: ShopifyCount | null;
  week: ShopifyCount | null;
}

const iso = (date: Date) => date.toISOString();

function startPass(ledger: LedgerRow, now: Date, config: ReconcileConfig): ReconcilePayload {
  const window = passWindow(ledger, now, config.maxGapMs);
  return reconcilePayloadSchema.parse({
    startedAt: iso(now),
    from: iso(window.from),
    coverageFrom: iso(window.coverageFrom),
    uncoveredFrom: window.uncoveredFrom ? iso(window.uncoveredFrom) : null,
    countedUntil: iso(new Date(now.getTime() - COUNT_SETTLE_MS)),
  });
}

export async function runReconcileJob(
  deps: PipelineDeps & { adminFor: AdminFor },
  job: ClaimedJob,
  ctx: Pick<JobContext, "signal">,
  config: ReconcileConfig = reconcileConfig(),
): Promise<void> {
  const domain = job.shop;
  if (!domain) throw new PermanentJobError("reconcile job has no shop");
  const { db } = deps;
  const shop = await db.shop.findUnique({ where: { domain } });
  // Uninstalled: nothing to read; the reinstall schedules the next pass.
  if (!shop || shop.uninstalledAt) return;
  const ledger = await ensureLedger(db, shop);
  let pass = parseReconcilePayload(job.payload) ?? startPass(ledger, deps.now(), config);

  let admin: AdminGraphqlClient;
  try {
    admin = await deps.adminFor(domain);
  } catch (error) {
    // No offline session (yet): the next interval tries again.
    console.warn(
      `[reconcile] ${domain}: no Admin API access (${error instanceof Error ? error.name : "error"}); trying again later`,
    );
    return comeBack(deps, domain, pass, "unauthorized", config);
  }
  const context: PassContext = { deps, job, shop, ledger, admin, budget: new ShopifyBudget(), config };
  try {
    for (let page = 0; pass.phase === "orders" || pass.pending.length > 0;) {
      if (ctx.signal.aborted) throw ctx.signal.reason ?? new Error("reconciliation aborted");
      let next: ReconcilePayload | null;
      if (pass.pending.length > 0) next = await readWhole(context, pass);
      else {
        if (page++ >= Math.max(1, config.pagesPerAttempt)) throw yieldAfterPage("Reconciliation", pass.pages);
        next = await readOrdersPage(context, pass);
      }
      if (!next) return; // the lease was lost: another worker goes on from the saved progress
      pass = next;
    }
    pass = await verifyWriteBacks(context, pass);
  } catch (error) {
    if (error instanceof ShopifyAdminError) {
      const failure = shopifyFailureOf(error).kind;
      console.warn(`[reconcile] ${domain}: Shopify could not be read (${failure}); the pass resumes later`);
      return comeBack(deps, domain, { ...pass, shopifyFailure: failure }, failure, config);
    }
    throw error;
  }
  await finishPass(context, pass);
}

/** Waits for the bucket when needed (the job comes back then, its progress saved, no attempt spent). */
async function spend<T>(
  context: PassContext,
  pass: ReconcilePayload,
  requested: number,
  call: () => Promise<{ data: T; cost: QueryCost | undefined }>,
) {
  const { deps, job, budget } = context;
  const now = deps.now();
  const wait = budget.waitMs(requested, now.getTime());
  if (wait > 0) {
    await saveScanProgress(deps.db, job, { ...pass, throttledUntil: iso(new Date(now.getTime() + wait)) });
    throw new RetryLaterError(wait, {
      countAttempt: false,
      reason: `Shopify's budget is low: the reconciliation continues in ${Math.ceil(wait / 1000)} s`,
    });
  }
  const { data, cost } = await scanCall(deps.db, job, pass, now, "reconciliation", call);
  budget.saw(cost, deps.now().getTime());
  pass.cost = {
    calls: pass.cost.calls + 1,
    points: pass.cost.points + (cost?.actualQueryCost ?? cost?.requestedQueryCost ?? requested),
  };
  return data;
}

/** One page of orders: compared, applied, progress saved. Null when the lease was lost. */
async function readOrdersPage(context: PassContext, start: ReconcilePayload): Promise<ReconcilePayload | null> {
  const { deps, job } = context;
  const pass: ReconcilePayload = { ...start, found: { ...start.found }, cost: { ...start.cost } };
  const until = new Date(pass.countedUntil);
  const coverageFrom = new Date(pass.coverageFrom);
  const windowQuery = (window: LedgerWindow) => createdBetweenQuery(windowStart(window, until, coverageFrom), until);
  const data = await spend(context, pass, INDEX_COST, () =>
    runAdminGraphqlWithCost<OrdersPageData>(context.admin, RECONCILE_ORDERS, {
      first: INDEX_PAGE_SIZE,
      after: pass.cursor,
      query: updatedSinceQuery(new Date(pass.from)),
      dayQuery: windowQuery("day"),
      weekQuery: windowQuery("week"),
    }),
  );
  if (pass.pages === 0) pass.shopify = { day: data.day ?? null, week: data.week ?? null };
  const orders = data.orders.nodes.map(readOrderState).filter((o): o is ShopifyOrderState => o !== null);
  const pending = await compareOrders(context, pass, orders);
  const { hasNextPage, endCursor } = data.orders.pageInfo;
  const last = orders[orders.length - 1];
  const lastOrderAt = last?.updatedAt ? iso(last.updatedAt) : pass.lastOrderAt;
  // A next page needs a new cursor: without one (none, or the one just used) the same page would
  // come back forever, each attempt yielding uncounted. The listing ends; the next pass reads on
  // from the last order seen (the pages come oldest change first).
  const stuck = brokenNextPage(data.orders.pageInfo, pass.cursor, pass.pages + 1);
  if (stuck)
    console.warn(
      `[reconcile] ${context.shop.domain}: Shopify said more orders follow page ${pass.pages + 1} (${stuck}); the pass ends here and the next reads on from the last order seen`,
    );
  const done = !hasNextPage || stuck !== null;
  const next: ReconcilePayload = {
    ...pass,
    cursor: endCursor ?? pass.cursor,
    pages: pass.pages + 1,
    lastOrderAt,
    throttledUntil: null,
    shopifyFailure: null,
    phase: done ? "verify" : "orders",
    resumeFrom: stuck ? (lastOrderAt ?? pass.from) : pass.resumeFrom,
    pending,
  };
  // The last page with nothing left to read whole: the pass ends now (a crash before that redoes it, changing nothing).
  if (done && pending.length === 0) return next;
  return (await saveScanProgress(deps.db, job, next)) ? next : null;
}

/** Why a page that says more orders follow cannot lead to them (null when it can, or when none follow). */
export function brokenNextPage(
  pageInfo: { hasNextPage: boolean; endCursor: string | null },
  usedCursor: string | null,
  pagesRead: number,
): string | null {
  if (!pageInfo.hasNextPage) return null;
  if (!pageInfo.endCursor) return "no cursor";
  if (pageInfo.endCursor === usedCursor) return "the same cursor again";
  return pagesRead >= MAX_PAGES_PER_PASS ? `page ${MAX_PAGES_PER_PASS} reached` : null;
}

/**
 * Compares one page with the app's links: cancellations are applied at once (the page
 * says all they need); the orders to take in or update are answered, to be read whole.
 * Mutates pass.found.
 */
async function compareOrders(
  context: PassContext,
  pass: ReconcilePayload,
  orders: ShopifyOrderState[],
): Promise<ReconcilePayload["pending"]> {
  const { db } = context.deps;
  const domain = context.shop.domain;
  if (orders.length === 0) return [];
  const links = new Map(
    (
      await db.orderLink.findMany({
        where: { shop: domain, orderId: { in: orders.map((o) => o.orderId) } },
        select: { orderId: true, state: true, payloadAt: true, cancelledAt: true },
      })
    ).map((l) => [l.orderId, l]),
  );
  let coverageFrom = new Date(pass.coverageFrom);
  // An order without a link may be one retention just purged: the coverage start it moved, read
  // after the links (the purge and the move commit together), keeps it out.
  if (orders.some((o) => !links.has(o.orderId))) coverageFrom = later(coverageFrom, await currentCoverage(db, domain));
  const pending: ReconcilePayload["pending"] = [];
  for (const order of orders) {
    pass.found.scanned++;
    const action = actionFor(order, links.get(order.orderId), coverageFrom);
    if (action === "before_coverage") pass.found.beforeCoverage++;
    else if (action === "cancel") {
      if (await applyCancellation(db, domain, order)) {
        pass.found.cancelled++;
        touch(pass, order.orderId, order.name, "cancelled");
      }
    } else if (action === "take" || action === "update")
      pending.push({ orderId: order.orderId, gid: order.gid, name: order.name, action });
  }
  return pending;
}

/** Reads the next few pending orders whole (three a call, about 310 points each) and takes them in or updates them. */
async function readWhole(context: PassContext, start: ReconcilePayload): Promise<ReconcilePayload | null> {
  const { deps, shop, job } = context;
  const { db } = deps;
  const domain = shop.domain;
  const pass: ReconcilePayload = {
    ...start,
    found: { ...start.found },
    cost: { ...start.cost },
    counts: { ...start.counts },
  };
  const chunk = pass.pending.slice(0, ORDERS_PER_PAGE);
  const data = await spend(context, pass, DETAILS_COST, () =>
    runAdminGraphqlWithCost<{ nodes: unknown[] }>(context.admin, RECONCILE_ORDER_DETAILS, {
      ids: chunk.map((c) => c.gid),
    }),
  );
  for (const node of data.nodes) {
    if (!node) continue; // deleted in Shopify meanwhile
    const payload = graphqlOrderToWebhookShape(node);
    const entry = chunk.find((c) => c.orderId === String(payload.id));
    if (!entry) continue;
    if (entry.action === "take") {
      context.mapOrder ??= await backfillMapper(db, shop, deps.now());
      const taken = await takeUnknownOrder(db, domain, payload, pass.counts, {
        dryRun: false,
        mapOrder: context.mapOrder,
        source: {
          deliveryId: `reconcile:${String(payload.id)}`,
          timeline: { kind: "recovered", text: recoveredText() },
        },
      });
      if (taken === "taken") {
        // Counted as each order is taken: a retried page finds it taken already and counts nothing.
        recordReconcileRecovered(1);
        pass.found.recovered++;
        touch(pass, entry.orderId, entry.name, "recovered");
      }
    } else if (await applyUpdate(db, domain, payload)) {
      pass.found.updated++;
      touch(pass, entry.orderId, entry.name, "updated");
    }
  }
  const next = { ...pass, pending: pass.pending.slice(chunk.length), throttledUntil: null, shopifyFailure: null };
  return (await saveScanProgress(db, job, next)) ? next : null;
}

function touch(
  pass: ReconcilePayload,
  orderId: string,
  orderName: string,
  what: ReconcilePayload["touched"][number]["what"],
): void {
  if (pass.touched.length < TOUCHED_KEPT) pass.touched = [...pass.touched, { orderId, orderName, what }];
}

async function applyCancellation(db: Db, shop: string, order: ShopifyOrderState): Promise<boolean> {
  const payload = {
    id: order.orderId,
    name: order.name,
    cancelled_at: order.cancelledAt?.toISOString() ?? null,
    updated_at: order.updatedAt?.toISOString() ?? null,
  };
  return db.$transaction(async (tx) => {
    const outcome = await intakeOrderCancelled(tx, shop, payload);
    if (outcome !== "applied") return false;
    const link = await tx.orderLink.findUniqueOrThrow({
      where: { shop_orderId: { shop, orderId: order.orderId } },
      select: { id: true },
    });
    await addTimeline(tx, shop, link.id, { kind: "reconciled", text: reconciledCancellationText() });
    return true;
  });
}

async function applyUpdate(db: Db, shop: string, payload: Record<string, unknown>): Promise<boolean> {
  return db.$transaction(async (tx) => {
    const outcome = await intakeOrderUpdated(tx, shop, payload);
    if (outcome !== "applied") return false;
    const link = await tx.orderLink.findUniqueOrThrow({
      where: { shop_orderId: { shop, orderId: String(payload.id) } },
      select: { id: true },
    });
    await addTimeline(tx, shop, link.id, { kind: "reconciled", text: reconciledChangeText() });
    return true;
  });
}

/**
 * Write-back job states left alone: one on its way (anything Shopify shows may be about to change),
 * or dead (refused for good, its reason on the order).
 */
const ACTIVE_JOB_STATES = new Set(["pending", "running", "failed", "dead"]);

/**
 * The orders the app wrote to since the last pass, read back: where Shopify does not show
 * what was written, the write-back runs again. Done once, after the last page.
 */
async function verifyWriteBacks(context: PassContext, start: ReconcilePayload): Promise<ReconcilePayload> {
  const { deps, shop, job } = context;
  const { db } = deps;
  const pass: ReconcilePayload = { ...start, found: { ...start.found }, cost: { ...start.cost } };
  const settings = readShopSettings(shop.settings);
  const toggles = settings.writeBack;
  if (toggles.tags || toggles.fulfillment || toggles.markPaid) {
    const since = context.ledger.measuredUntil ?? new Date(pass.from);
    // Writes Shopify accepted (their row carries the lag); a refusal is recorded with its reason and not retried here.
    const written = await db.timelineEvent.findMany({
      where: { shop: shop.domain, kind: "written_back", at: { gte: since }, data: { contains: '"lagMs"' } },
      select: { linkId: true },
    });
    const ids = [...new Set(written.map((w) => w.linkId))];
    for (let i = 0; i < ids.length; i += STATES_PER_CALL) {
      const links = (
        await db.orderLink.findMany({
          where: { shop: shop.domain, id: { in: ids.slice(i, i + STATES_PER_CALL) }, cancelledAt: null },
          select: {
            id: true,
            orderId: true,
            state: true,
            leadRef: true,
            confirmationStatus: true,
            shippingStatus: true,
            anomalies: true,
            writtenBack: true,
          },
        })
      ).filter((l) => isLinkState(l.state) && isPosted(l.state));
      if (links.length === 0) continue;
      const jobs = await db.job.findMany({
        where: { key: { in: links.map((l) => writeBackJobFor(shop.domain, l.orderId, l.id).key) } },
        select: { key: true, state: true },
      });
      const active = new Set(jobs.filter((j) => ACTIVE_JOB_STATES.has(j.state)).map((j) => j.key));
      const settled = links.filter((l) => !active.has(writeBackJobFor(shop.domain, l.orderId, l.id).key));
      if (settled.length === 0) continue;
      const data = await spend(context, pass, 1 + settled.length, () =>
        runAdminGraphqlWithCost<{ nodes: unknown[] }>(context.admin, RECONCILE_ORDER_STATES, {
          ids: settled.map((l) => `gid://shopify/Order/${l.orderId}`),
        }),
      );
      const states = new Map(
        data.nodes
          .map(readOrderState)
          .filter((o): o is ShopifyOrderState => o !== null)
          .map((o) => [o.orderId, o]),
      );
      for (const link of settled) {
        const order = states.get(link.orderId);
        if (!order) continue;
        const done = parseWriteBackDone(link.writtenBack);
        const drift = writeBackDrift({ ...link, hasAnomalies: link.anomalies !== "[]", done }, toggles, order);
        if (!drift) continue;
        await db.$transaction(async (tx) => {
          await tx.orderLink.update({ where: { id: link.id }, data: { writtenBack: JSON.stringify(drift.done) } });
          await addTimeline(tx, shop.domain, link.id, {
            kind: "reconciled",
            text: rewrittenText(drift.kinds),
            data: { drift: drift.kinds },
          });
          await enqueueJob(tx, writeBackJobFor(shop.domain, link.orderId, link.id));
        });
        pass.found.rewritten++;
        touch(pass, link.orderId, order.name, "rewritten");
      }
      await saveScanProgress(db, job, pass);
    }
  }
  return pass;
}

/** The pass's end: the ledger's figures and latencies, stuck orders, the next pass one interval later. */
async function finishPass(context: PassContext, pass: ReconcilePayload): Promise<void> {
  const { deps, shop, config } = context;
  const { db } = deps;
  const domain = shop.domain;
  const now = deps.now();
  const { found } = pass;
  const stuckFired = await fireStuckTriggers(db, shop, now, config.stuckMs);
  const coverageFrom = new Date(pass.coverageFrom);
  // A pass that read no order (nothing changed in Shopify since the last one: no new order,
  // no write-back, which would have changed the orders it wrote) leaves the ledger's figures
  // and latencies to a later pass, unless they are getting old: the steady state costs one call
  // and a few statements.
  const counted = parseFiguresAt(context.ledger.figures);
  const recount = found.scanned > 0 || counted === null || now.getTime() - counted > FIGURES_REFRESH_MS;
  let figures: LedgerFigures | null = null;
  if (recount) {
    await countLatencies(db, domain, context.ledger.measuredUntil ?? new Date(pass.startedAt), now);
    figures = await ledgerFigures(db, domain, new Date(pass.countedUntil), coverageFrom, {
      day: pass.shopify.day,
      week: pass.shopify.week,
    } satisfies Record<keyof typeof LEDGER_WINDOWS, ShopifyCount | null>);
  }
  if (found.recovered + found.cancelled + found.updated + found.rewritten > 0) {
    const ids = new Map(
      (
        await db.orderLink.findMany({
          where: { shop: domain, orderId: { in: pass.touched.map((t) => t.orderId) } },
          select: { id: true, orderId: true },
        })
      ).map((l) => [l.orderId, l.id]),
    );
    const orders = pass.touched.flatMap((t) =>
      ids.has(t.orderId) ? [{ linkId: ids.get(t.orderId)!, orderName: t.orderName, what: t.what }] : [],
    );
    await db.reconcilePass.create({
      data: {
        shop: domain,
        at: now,
        scanned: found.scanned,
        recovered: found.recovered,
        cancelled: found.cancelled,
        updated: found.updated,
        rewritten: found.rewritten,
        orders: JSON.stringify(orders),
      },
    });
  }
  // Once an hour is enough to keep a week and a day.
  if (!context.ledger.lastPassAt || hourOf(context.ledger.lastPassAt).getTime() !== hourOf(now).getTime())
    await pruneLedger(db, domain, now);
  // The coverage start only moves forward (retention may have moved it past this pass's).
  await coverFrom(db, domain, coverageFrom);
  await db.syncLedger.update({
    where: { shop: domain },
    data: {
      uncoveredFrom: pass.uncoveredFrom ? new Date(pass.uncoveredFrom) : null,
      watermark: earliest(
        (figures && rescanFrom(figures)) ?? nextWatermark(new Date(pass.startedAt)),
        pass.resumeFrom ? new Date(pass.resumeFrom) : null,
      ),
      lastPassAt: now,
      lastFailure: null,
      ...(figures ? { measuredUntil: now, figures: JSON.stringify(figures) } : {}),
    },
  });
  // One line per pass: what it read, found and cost.
  console.info(
    `[reconcile] ${JSON.stringify({ shop: domain, pages: pass.pages, ...found, stuckFired, calls: pass.cost.calls, points: pass.cost.points, wallMs: now.getTime() - Date.parse(pass.startedAt) })}`,
  );
  await enqueueJob(db, reconcileJobFor(domain, new Date(now.getTime() + config.intervalMs)));
}

const earliest = (a: Date, b: Date | null): Date => (b && b < a ? b : a);

/** Figures older than this are counted again, even by a pass that read nothing new. */
export const FIGURES_REFRESH_MS = 15 * 60_000;

function parseFiguresAt(json: string): number | null {
  try {
    const at = (JSON.parse(json) as { at?: unknown }).at;
    const ms = typeof at === "string" ? Date.parse(at) : NaN;
    return Number.isFinite(ms) ? ms : null;
  } catch {
    return null;
  }
}

/**
 * Where the next pass reads from when Shopify counted more orders in a window than the
 * app holds: an order the updated-since read did not list (Shopify's search trailing
 * its writes by more than the overlap) is found by reading that whole window again.
 */
export function rescanFrom(figures: LedgerFigures): Date | null {
  let from: Date | null = null;
  for (const window of Object.values(figures.windows)) {
    const missing =
      window.shopify !== null && window.shopify.precision === "EXACT" && window.shopify.count > window.app.total;
    if (missing && (from === null || new Date(window.from) < from)) from = new Date(window.from);
  }
  return from;
}

/** Shopify could not be read: the ledger says why, and the pass resumes where it stopped at the next interval. */
async function comeBack(
  deps: PipelineDeps,
  shop: string,
  pass: ReconcilePayload,
  failure: string,
  config: ReconcileConfig,
): Promise<void> {
  const now = deps.now();
  await deps.db.syncLedger.updateMany({ where: { shop }, data: { lastFailure: failure } });
  await enqueueJob(
    deps.db,
    reconcileJobFor(
      shop,
      new Date(now.getTime() + Math.max(RETRY_FLOOR_MS, Math.min(config.intervalMs, 5 * 60_000))),
      pass,
    ),
  );
}

/** The merchant's "Check now": the next pass runs now (a pass already running goes on). */
export async function reconcileNow(db: Db, shop: string, now: Date): Promise<void> {
  const existing = await db.job.findUnique({
    where: { key: reconcileJobKey(shop) },
    select: { state: true, payload: true },
  });
  if (existing?.state === "running") return;
  let payload: unknown = {};
  try {
    payload = existing ? JSON.parse(existing.payload) : {};
  } catch {
    payload = {};
  }
  // A pass in progress keeps its cursor; it just does not wait any more.
  await enqueueJob(db, reconcileJobFor(shop, now, parseReconcilePayload(payload) ?? {}));
}
