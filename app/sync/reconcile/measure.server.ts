/**
 * What a reconciliation pass records for the sync ledger, at its end: the latencies of
 * what happened since the previous pass (added to the hourly histograms), the orders
 * stuck longer than the threshold (the "Order stuck" Flow trigger, once per order and
 * episode), and its counts of the ledger's windows (Shopify's orders against the
 * app's, by outcome). All of it is read from the app's own rows, incrementally: a pass
 * reads what changed since the last one, never the shop's whole history.
 */
import { Prisma, type Shop } from "@prisma/client";
import type { Db } from "../../db.server";
import { readShopSettings } from "../../models/shop-settings";
import { enqueueNewJobs, type EnqueueJobInput } from "../../queue/jobs.server";
import { flowTriggerJobFor } from "../../models/job-kinds";
import { FLOW_TRIGGER, stuckFiring } from "../../flow/triggers";
import { triggerInUse } from "../../flow/trigger-usage.server";
import { bucketOf, LATENCY_METRICS, type LatencyMetric } from "./latency";
import { LEDGER_WINDOWS, windowStart, type LedgerWindow } from "./window";
import { ledgerGroupOf } from "../../vocabulary/status-groups";

const HOUR_MS = 3600_000;
/** Ledger rows are kept a day past the longest window. */
export const LEDGER_KEEP_MS = LEDGER_WINDOWS.week + 24 * HOUR_MS;
/** Ids per IN (...): pages keep each statement's parameter list bounded. */
const IDS_PER_QUERY = 500;

export const hourOf = (at: Date) => new Date(Math.floor(at.getTime() / HOUR_MS) * HOUR_MS);

function chunks<T>(items: readonly T[], size: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}

/** Steps after which a lead no longer measures the pipeline alone: a merchant's hand, or a hold. */
const HANDLED_KINDS = ["held", "skipped", "updated", "fixed", "resend", "customer_hold", "send_anyway", "cancelled"];

type Counts = Map<string, { metric: LatencyMetric; hour: Date; bucket: number; count: number }>;

function add(counts: Counts, metric: LatencyMetric, at: Date, seconds: number): void {
  const hour = hourOf(at);
  const bucket = bucketOf(seconds);
  const key = `${metric}|${hour.getTime()}|${bucket}`;
  const entry = counts.get(key) ?? { metric, hour, bucket, count: 0 };
  entry.count++;
  counts.set(key, entry);
}

/**
 * Latencies of what happened in (since, until]: leads created (from the order's
 * placement; orders a merchant or a hold touched first are left out, they wait for a
 * person, and so are imported past orders, sent when the merchant imported them) and write-backs done (from the status change the app saw, as the write-back
 * task recorded it).
 */
export async function countLatencies(db: Db, shop: string, since: Date, until: Date): Promise<number> {
  const counts: Counts = new Map();
  const posted = await db.orderLink.findMany({
    where: { shop, postedAt: { gt: since, lte: until }, resendAt: null, importedAt: null },
    select: { id: true, postedAt: true, orderCreatedAt: true, createdAt: true },
  });
  const handled = new Set<string>();
  for (const ids of chunks(
    posted.map((l) => l.id),
    IDS_PER_QUERY,
  )) {
    const rows = await db.timelineEvent.findMany({
      where: { shop, linkId: { in: ids }, kind: { in: HANDLED_KINDS } },
      select: { linkId: true },
    });
    for (const row of rows) handled.add(row.linkId);
  }
  for (const link of posted) {
    if (handled.has(link.id) || !link.postedAt) continue;
    const placed = link.orderCreatedAt ?? link.createdAt;
    add(counts, LATENCY_METRICS.orderToLead, link.postedAt, (link.postedAt.getTime() - placed.getTime()) / 1000);
  }
  const written = await db.timelineEvent.findMany({
    where: { shop, kind: "written_back", at: { gt: since, lte: until } },
    select: { at: true, data: true },
  });
  for (const row of written) {
    const lagMs = lagOf(row.data);
    if (lagMs !== null) add(counts, LATENCY_METRICS.statusToShopify, row.at, lagMs / 1000);
  }
  for (const { metric, hour, bucket, count } of counts.values()) {
    await db.syncLatency.upsert({
      where: { shop_metric_hour_bucket: { shop, metric, hour, bucket } },
      create: { shop, metric, hour, bucket, count },
      update: { count: { increment: count } },
    });
  }
  return counts.size;
}

/** The write-back task's measure on its timeline row: ms from the status seen to Shopify updated. */
function lagOf(data: string | null): number | null {
  if (!data) return null;
  try {
    const lag = (JSON.parse(data) as { lagMs?: unknown }).lagMs;
    return typeof lag === "number" && Number.isFinite(lag) && lag >= 0 ? lag : null;
  } catch {
    return null;
  }
}

/** Orders not accounted for yet: the pipeline still has them. */
export const PENDING_STATES = ["received", "posting", "retrying"] as const;

export interface StuckOrder {
  id: string;
  orderId: string;
  orderName: string;
  state: string;
  reason: string | null;
  /** Since when it waits: its arrival (an imported order's import), or the merchant's resend. */
  since: Date;
}

/**
 * The shop's orders not accounted for after `stuckMs` (waiting since their arrival, or the
 * merchant's resend), oldest first, at most `limit`, and how many in all. Both read through
 * the (shop, state, updatedAt) index: a range on the arrival time over the shop's whole
 * history is what a planner would pick otherwise (40 ms at 100,000 orders).
 */
export async function stuckOrders(
  db: Db,
  shop: string,
  now: Date,
  stuckMs: number,
  limit = 50,
): Promise<{ orders: StuckOrder[]; total: number }> {
  const before = new Date(now.getTime() - stuckMs);
  const states = Prisma.join([...PENDING_STATES]);
  const [counts, rows] = await Promise.all([
    db.$queryRaw<{ pending: number | bigint; recent: number | bigint | null }[]>`
      SELECT COUNT(*) AS "pending", SUM(CASE WHEN COALESCE("importedAt", "createdAt") >= ${before} THEN 1 ELSE 0 END) AS "recent"
      FROM "OrderLink" WHERE "shop" = ${shop} AND "state" IN (${states})`,
    db.orderLink.findMany({
      where: { shop, state: { in: [...PENDING_STATES] } },
      select: {
        id: true,
        orderId: true,
        orderName: true,
        state: true,
        reason: true,
        createdAt: true,
        importedAt: true,
        resendAt: true,
      },
      orderBy: { updatedAt: "asc" },
      take: limit,
    }),
  ]);
  const pending = Number(counts[0]?.pending ?? 0);
  const recent = Number(counts[0]?.recent ?? 0);
  const stuck = rows
    .map((r) => ({
      id: r.id,
      orderId: r.orderId,
      orderName: r.orderName,
      state: r.state,
      reason: r.reason,
      since: r.resendAt ?? r.importedAt ?? r.createdAt,
    }))
    .filter((o) => o.since < before)
    .sort((a, b) => a.since.getTime() - b.since.getTime());
  // Every pending order was read: the count is exact (a resend counts from its time); otherwise the counts give it.
  const total = rows.length === pending ? stuck.length : pending - recent;
  return { orders: stuck, total };
}

/** The stuck orders alone (the reconciliation's trigger). */
export async function stuckOrderList(
  db: Db,
  shop: string,
  now: Date,
  stuckMs: number,
  limit = 50,
): Promise<StuckOrder[]> {
  return (await stuckOrders(db, shop, now, stuckMs, limit)).orders;
}

/** Queues "Order stuck" for each stuck order, once per order and episode; answers how many were new. */
export async function fireStuckTriggers(
  db: Db,
  shopRow: Pick<Shop, "domain" | "settings">,
  now: Date,
  stuckMs: number,
): Promise<number> {
  const shop = shopRow.domain;
  if (!readShopSettings(shopRow.settings).flowTriggers.orderStuck) return 0;
  const orders = await stuckOrderList(db, shop, now, stuckMs, 200);
  if (orders.length === 0) return 0;
  if (!(await triggerInUse(db, shop, FLOW_TRIGGER.orderStuck))) return 0;
  const jobs: EnqueueJobInput[] = orders.map((order) => {
    const firing = stuckFiring(order, now);
    return flowTriggerJobFor(shop, order.orderId, order.id, firing.handle, firing.eventKey, firing.payload);
  });
  return db.$transaction((tx) => enqueueNewJobs(tx, jobs));
}

/** Shopify's count of the orders placed in a window. */
export interface ShopifyCount {
  count: number;
  /** "EXACT", or "AT_LEAST" past Shopify's count limit. */
  precision: string;
}

/** How the app accounted for the orders placed in a window: by ledger group (vocabulary/status-groups.ts). */
export interface AppCounts {
  sent: number;
  held: number;
  refused: number;
  skipped: number;
  cancelled: number;
  pending: number;
  total: number;
}

export interface WindowFigures {
  from: string;
  shopify: ShopifyCount | null;
  app: AppCounts;
}

export interface LedgerFigures {
  /** When the pass counted (Shopify's counts and the app's are of the same instant). */
  at: string;
  windows: Record<LedgerWindow, WindowFigures>;
}

export const EMPTY_APP_COUNTS: AppCounts = {
  sent: 0,
  held: 0,
  refused: 0,
  skipped: 0,
  cancelled: 0,
  pending: 0,
  total: 0,
};

/** The app's links of orders placed in [from, until), by outcome: one grouped count on the (shop, orderCreatedAt) index. */
export async function appCounts(db: Db, shop: string, from: Date, until: Date): Promise<AppCounts> {
  const groups = await db.orderLink.groupBy({
    by: ["state"],
    where: { shop, orderCreatedAt: { gte: from, lt: until } },
    _count: { _all: true },
  });
  const counts = { ...EMPTY_APP_COUNTS };
  for (const group of groups) {
    const n = group._count._all;
    counts[ledgerGroupOf(group.state)] += n;
    counts.total += n;
  }
  return counts;
}

export async function ledgerFigures(
  db: Db,
  shop: string,
  now: Date,
  coverageFrom: Date,
  shopify: Record<LedgerWindow, ShopifyCount | null>,
): Promise<LedgerFigures> {
  const windows = {} as Record<LedgerWindow, WindowFigures>;
  for (const window of Object.keys(LEDGER_WINDOWS) as LedgerWindow[]) {
    const from = windowStart(window, now, coverageFrom);
    windows[window] = { from: from.toISOString(), shopify: shopify[window], app: await appCounts(db, shop, from, now) };
  }
  return { at: now.toISOString(), windows };
}

/** Drops the shop's ledger rows older than the longest window (and a day). */
export async function pruneLedger(db: Db, shop: string, now: Date): Promise<void> {
  const cutoff = new Date(now.getTime() - LEDGER_KEEP_MS);
  await db.syncLatency.deleteMany({ where: { shop, hour: { lt: cutoff } } });
  await db.reconcilePass.deleteMany({ where: { shop, at: { lt: cutoff } } });
}
