/**
 * The sync ledger, as Home and Activity show it: for the last 24 hours and 7 days, the
 * orders in Shopify against the orders the app accounted for (counted by the last
 * reconciliation pass, both at the same instant), what the reconciliation recovered and
 * when, the latencies against the published promise, and the orders stuck now.
 *
 * A handful of small reads whatever the number of orders: the ledger row, the passes that
 * found something, the hourly latency histograms, and the stuck orders (an index range of
 * the orders still in the pipeline).
 */
import type { Db } from "../db.server";
import { reconcileEnv } from "../env.server";
import { reconcileJobKey } from "../models/job-kinds";
import { parseShopifyFailureKind, type ShopifyFailureKind } from "../shopify/failure";
import { LATENCY_METRICS, percentile, type LatencyMetric } from "../sync/reconcile/latency";
import {
  EMPTY_APP_COUNTS,
  stuckOrders,
  type AppCounts,
  type LedgerFigures,
  type ShopifyCount,
} from "../sync/reconcile/measure.server";
import { checkPromise, SYNC_PROMISE, type PromiseCheck } from "../sync/reconcile/promise";
import { LEDGER_WINDOWS, type LedgerWindow } from "../sync/reconcile/window";

export const STUCK_SHOWN = 10;
const RECENT_PASSES_SHOWN = 10;

export interface LedgerWindowView {
  /** The window's start (ISO): its length back, or the coverage start when later. */
  from: string | null;
  shopify: ShopifyCount | null;
  app: AppCounts;
  /** Orders in Shopify the app had not seen when counted (the next pass takes them in); null without Shopify's count. */
  notSeen: number | null;
  recovered: number;
  cancelled: number;
  updated: number;
  rewritten: number;
  lastRecoveryAt: string | null;
  /** Upper bounds in seconds (0: over a day); null with nothing measured. */
  leadP50: number | null;
  leadP95: number | null;
  statusP95: number | null;
  promise: PromiseCheck;
}

export interface LedgerPassView {
  at: string;
  recovered: number;
  cancelled: number;
  updated: number;
  rewritten: number;
  orders: { linkId: string; orderName: string; what: string }[];
}

export interface StuckOrderView {
  id: string;
  orderName: string;
  state: string;
  since: string;
  minutes: number;
}

export interface SyncLedgerView {
  /** False until the shop's first pass: the ledger has nothing to say yet. */
  started: boolean;
  lastPassAt: string | null;
  nextPassAt: string | null;
  running: boolean;
  lastFailure: ShopifyFailureKind | null;
  countedAt: string | null;
  /** The reconciliation's interval. */
  intervalSeconds: number;
  stuckMinutes: number;
  coverageFrom: string | null;
  /** Orders placed from here to coverageFrom were not checked (a pause longer than the bound). */
  uncoveredFrom: string | null;
  windows: Record<LedgerWindow, LedgerWindowView>;
  passes: LedgerPassView[];
  stuck: { total: number; orders: StuckOrderView[] };
  promise: typeof SYNC_PROMISE & { allLeadsSeconds: number };
}

function parseFigures(json: string): LedgerFigures | null {
  try {
    const value = JSON.parse(json) as Partial<LedgerFigures>;
    return value && typeof value.at === "string" && value.windows ? (value as LedgerFigures) : null;
  } catch {
    return null;
  }
}

function parseOrders(json: string): LedgerPassView["orders"] {
  try {
    const value = JSON.parse(json) as unknown;
    return Array.isArray(value)
      ? value.filter(
          (o): o is LedgerPassView["orders"][number] =>
            !!o && typeof o.linkId === "string" && typeof o.orderName === "string" && typeof o.what === "string",
        )
      : [];
  } catch {
    return [];
  }
}

export async function loadSyncLedger(db: Db, shop: string, now: Date = new Date()): Promise<SyncLedgerView> {
  const config = reconcileEnv();
  const intervalSeconds = config.RECONCILE_INTERVAL_SECONDS;
  const stuckMs = config.SYNC_STUCK_MINUTES * 60_000;
  const weekAgo = new Date(now.getTime() - LEDGER_WINDOWS.week);
  const dayAgo = new Date(now.getTime() - LEDGER_WINDOWS.day);
  // Both windows' histograms summed by the database in one read: a few dozen rows whatever the hours kept.
  const [ledger, job, passes, latencies, stuck] = await Promise.all([
    db.syncLedger.findUnique({ where: { shop } }),
    db.job.findUnique({ where: { key: reconcileJobKey(shop) }, select: { state: true, runAt: true, shop: true } }),
    db.reconcilePass.findMany({ where: { shop, at: { gte: weekAgo } }, orderBy: { at: "desc" } }),
    db.$queryRaw<{ metric: string; bucket: number; week: number | bigint; day: number | bigint }[]>`
      SELECT "metric", "bucket", SUM("count") AS "week", SUM(CASE WHEN "hour" >= ${dayAgo} THEN "count" ELSE 0 END) AS "day"
      FROM "SyncLatency" WHERE "shop" = ${shop} AND "hour" >= ${weekAgo} GROUP BY "metric", "bucket"`,
    stuckOrders(db, shop, now, stuckMs, STUCK_SHOWN),
  ]);
  const figures = ledger ? parseFigures(ledger.figures) : null;

  const windows = {} as Record<LedgerWindow, LedgerWindowView>;
  for (const window of Object.keys(LEDGER_WINDOWS) as LedgerWindow[]) {
    const start = new Date(now.getTime() - LEDGER_WINDOWS[window]);
    const histogram = (metric: LatencyMetric) =>
      new Map(
        latencies
          .filter((r) => r.metric === metric)
          .map((r) => [Number(r.bucket), Number(window === "day" ? r.day : r.week)]),
      );
    const orderToLead = histogram(LATENCY_METRICS.orderToLead);
    const statusToShopify = histogram(LATENCY_METRICS.statusToShopify);
    const inWindow = passes.filter((p) => p.at >= start);
    const counted = figures?.windows[window];
    const app = counted?.app ?? EMPTY_APP_COUNTS;
    windows[window] = {
      from: counted?.from ?? null,
      shopify: counted?.shopify ?? null,
      app,
      notSeen: counted?.shopify ? Math.max(0, counted.shopify.count - app.total) : null,
      recovered: inWindow.reduce((n, p) => n + p.recovered, 0),
      cancelled: inWindow.reduce((n, p) => n + p.cancelled, 0),
      updated: inWindow.reduce((n, p) => n + p.updated, 0),
      rewritten: inWindow.reduce((n, p) => n + p.rewritten, 0),
      lastRecoveryAt:
        inWindow.find((p) => p.recovered + p.cancelled + p.updated + p.rewritten > 0)?.at.toISOString() ?? null,
      leadP50: percentile(orderToLead, 0.5),
      leadP95: percentile(orderToLead, 0.95),
      statusP95: percentile(statusToShopify, 0.95),
      promise: checkPromise({ orderToLead, statusToShopify, intervalSeconds }),
    };
  }

  return {
    started: ledger?.lastPassAt != null,
    lastPassAt: ledger?.lastPassAt?.toISOString() ?? null,
    nextPassAt:
      job && job.shop === shop && job.state !== "done" && job.state !== "dead" ? job.runAt.toISOString() : null,
    running: job?.state === "running",
    lastFailure: parseShopifyFailureKind(ledger?.lastFailure ?? null),
    countedAt: figures?.at ?? null,
    intervalSeconds,
    stuckMinutes: config.SYNC_STUCK_MINUTES,
    coverageFrom: ledger?.coverageFrom.toISOString() ?? null,
    uncoveredFrom: ledger?.uncoveredFrom?.toISOString() ?? null,
    windows,
    passes: passes.slice(0, RECENT_PASSES_SHOWN).map((p) => ({
      at: p.at.toISOString(),
      recovered: p.recovered,
      cancelled: p.cancelled,
      updated: p.updated,
      rewritten: p.rewritten,
      orders: parseOrders(p.orders),
    })),
    stuck: {
      total: stuck.total,
      orders: stuck.orders.map((o) => ({
        id: o.id,
        orderName: o.orderName,
        state: o.state,
        since: o.since.toISOString(),
        minutes: Math.floor((now.getTime() - o.since.getTime()) / 60_000),
      })),
    },
    promise: { ...SYNC_PROMISE, allLeadsSeconds: windows.week.promise.allLeads.seconds },
  };
}
