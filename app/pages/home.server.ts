/**
 * The Home page's data: onboarding steps, figures for today / 7 / 30 days, leads
 * per day for 14 days, and alerts. The figures come from the daily analytics
 * rollups (app/analytics/), the same rows as the Analytics page: 30 days of them
 * whatever the number of orders; no query reads order rows.
 *
 * Days are the merchant's calendar days (Africa/Casablanca by default), and an
 * order counts on the day it was placed (an imported one too, never on the day of
 * its import). An order the app is still processing
 * (received, posting) counts once it is sent, held or skipped.
 */
import type { Db } from "../db.server";
import { readShopSettings } from "../models/shop-settings";
import { addDays, DEFAULT_TIME_ZONE, localDay } from "../analytics/days";
import { rollupRows } from "../analytics/report.server";
import { summarise, type Rate, type RollupRow } from "../analytics/report";
import { bucketOf, isDamagedGroup } from "../vocabulary/status-groups";
import { loadCashOverview, type CashOverview } from "../analytics/cash-report.server";

// Home's day helpers live with the rollups (their key is the merchant's day); kept here for the pages that import them.
export const CHART_DAYS = 14;
/** Backlog alert: more pending jobs than this, or one runnable for longer than BACKLOG_AGE_MS. */
export const BACKLOG_PENDING_LIMIT = 50;
export const BACKLOG_AGE_MS = 15 * 60_000;
/** Sync is stale when older than this many sync intervals. */
export const STALE_SYNC_INTERVALS = 3;

// ---------------------------------------------------------------------------
// Pure parts

/**
 * Home's figures of a period. Every one is read from the period's summary
 * (analytics/report.ts summarise), the function the Analytics page reads too:
 * the same days give the same counts and rates on both pages.
 */
export interface PeriodFigures {
  sent: number;
  held: number;
  damaged: number;
  confirmed: number;
  /** confirmed / sent, as Analytics' confirmation rate. */
  confirmationRate: Rate;
  delivered: number;
  /** Parcels shipped or later (shipped, delivered, returned, paid). */
  shipped: number;
  /** delivered / shipped, as Analytics' delivery rate. */
  deliveryRate: Rate;
  /** Sum of total_client of delivered leads, in integer cents (Analytics' net collected). */
  collectedCents: number;
}

/** "249.9" -> 24990, exactly (no floating point); anything unreadable -> 0. */
export function decimalToCents(value: string | null | undefined): number {
  const match = value?.trim().match(/^(-?)(\d+)(?:\.(\d{1,2}))?$/);
  if (!match) return 0;
  const cents = Number(match[2]) * 100 + Number((match[3] ?? "").padEnd(2, "0"));
  return match[1] ? -cents : cents;
}

/** Home's figures from rollup rows (status groups: app/vocabulary/status-groups.ts). */
export function periodFigures(rows: readonly RollupRow[]): PeriodFigures {
  const s = summarise(rows);
  return {
    sent: s.steps.sent,
    // Kept back for a fix or refused by the platform (a failed post is an alert of its own).
    held: s.losses.held + s.losses.refused_to_send,
    damaged: s.damaged,
    confirmed: s.steps.confirmed,
    confirmationRate: s.confirmationRate,
    delivered: s.steps.delivered,
    shipped: s.steps.shipped,
    deliveryRate: s.deliveryRate,
    collectedCents: s.collectedCents,
  };
}

export const CHART_SERIES = ["delivered", "inDelivery", "awaiting", "lost", "damaged"] as const;
export type ChartSeries = (typeof CHART_SERIES)[number];

/** What became of a sent lead, for the chart; null for an order that is not a lead. */
export function chartSeriesOf(statusGroup: string): ChartSeries | null {
  const bucket = bucketOf(statusGroup);
  if (bucket === null) return null;
  if (bucket === "delivered") return "delivered";
  if (bucket === "call_cancelled" || bucket === "rejected" || bucket === "returned" || bucket === "parcel_cancelled")
    return "lost";
  if (bucket === "preparing" || bucket === "in_transit") return "inDelivery";
  // A damaged lead waits for a correction on the platform before anyone calls.
  return isDamagedGroup(statusGroup) ? "damaged" : "awaiting";
}

export type ChartDay = { day: string } & Record<ChartSeries, number>;

export function chartDay(day: string, rows: readonly RollupRow[]): ChartDay {
  const row: ChartDay = { day, delivered: 0, inDelivery: 0, awaiting: 0, lost: 0, damaged: 0 };
  for (const r of rows) {
    const outcome = chartSeriesOf(r.statusGroup);
    if (outcome) row[outcome] += r.orders;
  }
  return row;
}

// ---------------------------------------------------------------------------
// Onboarding and alerts

export const ONBOARDING_STEPS = ["enter_key", "key_verified", "catalogue_synced", "first_order_sent"] as const;
export type OnboardingStepId = (typeof ONBOARDING_STEPS)[number];

export interface OnboardingStep {
  id: OnboardingStepId;
  done: boolean;
  /** Where the merchant does it. */
  href: string;
}

const STEP_HREF: Record<OnboardingStepId, string> = {
  enter_key: "/app/settings",
  key_verified: "/app/settings",
  catalogue_synced: "/app/mappings",
  first_order_sent: "/app/orders",
};

export type DashboardAlert =
  | { kind: "paused"; reason: string; since: string | null }
  | { kind: "backlog"; pending: number; oldestMinutes: number }
  | { kind: "dead"; count: number }
  | { kind: "stale"; minutesSince: number | null; expectedMinutes: number };

export const FIGURE_PERIODS = ["today", "last7", "last30"] as const;
export type FigurePeriod = (typeof FIGURE_PERIODS)[number];
export const FIGURES = ["sent", "held", "damaged", "confirmationRate", "deliveryRate", "collected"] as const;
export type FigureName = (typeof FIGURES)[number];

/** The Orders list's filter behind each Home figure (its period is added as from/to). */
const FIGURE_FILTERS: Record<FigureName, string> = {
  sent: "state=created,damaged",
  held: "state=held,invalid",
  damaged: "state=damaged",
  confirmationRate: "confirmation=confirmed",
  deliveryRate: "shipping=delivered,paid",
  collected: "shipping=delivered,paid",
};

/** Days a period covers, today included. */
const PERIOD_DAYS: Record<FigurePeriod, number> = { today: 1, last7: 7, last30: 30 };

/** The days of each period, today included. Pure. */
export function periodDays(today: string): Record<FigurePeriod, { from: string; to: string }> {
  return Object.fromEntries(
    FIGURE_PERIODS.map((period) => [period, { from: addDays(today, -(PERIOD_DAYS[period] - 1)), to: today }]),
  ) as Record<FigurePeriod, { from: string; to: string }>;
}

/** Every Home figure opens the Orders list filtered to the orders it counts. Pure. */
export function figureLinks(today: string): Record<FigurePeriod, Record<FigureName, string>> {
  return Object.fromEntries(
    FIGURE_PERIODS.map((period) => [
      period,
      Object.fromEntries(
        FIGURES.map((figure) => [
          figure,
          `/app/orders?${FIGURE_FILTERS[figure]}&from=${periodDays(today)[period].from}&to=${today}`,
        ]),
      ),
    ]),
  ) as Record<FigurePeriod, Record<FigureName, string>>;
}

export interface Dashboard {
  onboarding: { steps: OnboardingStep[]; complete: boolean };
  /** Any lead sent in the last 30 days (else the figures are an empty state). */
  hasLeads: boolean;
  figures: { today: PeriodFigures; last7: PeriodFigures; last30: PeriodFigures };
  /** Where each figure leads: the Orders list filtered to it. */
  figureLinks: Record<FigurePeriod, Record<FigureName, string>>;
  /** The days each period counts, by the day its orders were placed (the shop's calendar). */
  periods: Record<FigurePeriod, { from: string; to: string }>;
  chart: ChartDay[];
  alerts: DashboardAlert[];
  timeZone: string;
  /** What the platform owes, by age, and what is overdue (the cash card and its alert). */
  cash: CashOverview;
}

export interface DashboardOptions {
  now?: Date;
  timeZone?: string;
}

// ---------------------------------------------------------------------------
// Queries

export async function loadDashboard(db: Db, shop: string, options: DashboardOptions = {}): Promise<Dashboard> {
  const now = options.now ?? new Date();
  const timeZone = options.timeZone ?? DEFAULT_TIME_ZONE;
  const today = localDay(timeZone, now);
  const chartFrom = addDays(today, -(CHART_DAYS - 1));
  // Read beside the queries below; awaited at the end (the no-op catch: a failure elsewhere must not leave it unhandled).
  const cash = loadCashOverview(db, shop, { now, timeZone });
  cash.catch(() => {});

  // 30 days of rollup rows by day (a few hundred rows at most): the three periods and the chart are sums of them.
  const [rows, shopRow, keyCount, firstLead, jobs, deadJobs] = await Promise.all([
    rollupRows(db, shop, { from: addDays(today, -29), to: today }, { by: ["day"], deliveryDays: false }),
    db.shop.findUnique({
      where: { domain: shop },
      select: {
        keyVerifiedAt: true,
        pausedReason: true,
        pausedAt: true,
        catalogueFetchedAt: true,
        citiesFetchedAt: true,
        lastStatusSyncAt: true,
        settings: true,
      },
    }),
    db.shop.count({ where: { domain: shop, sellerApiKeyCipher: { not: null } } }),
    db.orderLink.findFirst({ where: { shop, leadRef: { not: null } }, select: { id: true } }),
    db.job.aggregate({ where: { shop, state: "pending" }, _count: { _all: true }, _min: { runAt: true } }),
    db.job.count({ where: { shop, state: "dead" } }),
  ]);

  const since = (from: string) => rows.filter((r) => r.day! >= from);
  const days = Array.from({ length: CHART_DAYS }, (_, i) => addDays(chartFrom, i)).map((day) =>
    chartDay(
      day,
      rows.filter((r) => r.day === day),
    ),
  );
  const figures = {
    today: periodFigures(since(today)),
    last7: periodFigures(since(addDays(today, -6))),
    last30: periodFigures(rows),
  };

  const done: Record<OnboardingStepId, boolean> = {
    enter_key: keyCount > 0,
    key_verified: keyCount > 0 && Boolean(shopRow?.keyVerifiedAt) && !shopRow?.pausedReason,
    catalogue_synced: Boolean(shopRow?.catalogueFetchedAt && shopRow?.citiesFetchedAt),
    first_order_sent: firstLead !== null,
  };
  const steps = ONBOARDING_STEPS.map((id) => ({ id, done: done[id], href: STEP_HREF[id] }));

  const alerts: DashboardAlert[] = [];
  if (shopRow?.pausedReason) {
    alerts.push({ kind: "paused", reason: shopRow.pausedReason, since: shopRow.pausedAt?.toISOString() ?? null });
  }
  const oldestRunAt = jobs._min.runAt;
  const overdueMs = oldestRunAt ? now.getTime() - oldestRunAt.getTime() : 0;
  if (jobs._count._all > BACKLOG_PENDING_LIMIT || overdueMs > BACKLOG_AGE_MS) {
    alerts.push({
      kind: "backlog",
      pending: jobs._count._all,
      oldestMinutes: Math.max(0, Math.floor(overdueMs / 60_000)),
    });
  }
  if (deadJobs > 0) alerts.push({ kind: "dead", count: deadJobs });
  const stale = await staleSync(
    db,
    shop,
    now,
    shopRow?.lastStatusSyncAt ?? null,
    readShopSettings(shopRow?.settings).statusSyncMinutes,
  );
  if (stale) alerts.push(stale);

  return {
    onboarding: { steps, complete: steps.every((s) => s.done) },
    hasLeads: figures.last30.sent > 0,
    figures,
    figureLinks: figureLinks(today),
    periods: periodDays(today),
    chart: days,
    alerts,
    timeZone,
    cash: await cash,
  };
}

/** Stale when leads are in motion and the last sync is older than 3 intervals (or never happened for that long). */
async function staleSync(
  db: Db,
  shop: string,
  now: Date,
  lastSyncAt: Date | null,
  intervalMinutes: number,
): Promise<DashboardAlert | null> {
  const thresholdMs = STALE_SYNC_INTERVALS * intervalMinutes * 60_000;
  if (lastSyncAt && now.getTime() - lastSyncAt.getTime() <= thresholdMs) return null;
  // Existence only: a count of every lead in motion read the whole index (a third of a second at 100,000 orders).
  const inMotion = await db.orderLink.findFirst({
    select: { id: true },
    where: {
      shop,
      statusFinal: false,
      leadRef: { not: null },
      // Never synced: only leads older than the threshold are overdue.
      ...(lastSyncAt ? {} : { createdAt: { lt: new Date(now.getTime() - thresholdMs) } }),
    },
  });
  if (inMotion === null) return null;
  return {
    kind: "stale",
    minutesSince: lastSyncAt ? Math.floor((now.getTime() - lastSyncAt.getTime()) / 60_000) : null,
    expectedMinutes: intervalMinutes,
  };
}
