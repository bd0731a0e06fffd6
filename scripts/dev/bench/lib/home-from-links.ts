/**
 * The Home loader as it was before the analytics rollups (every figure grouped
 * from OrderLink rows on each load), kept only so `npm run bench -- admin`
 * measures the old and the new Home side by side in the same run.
 */
import type { Db } from "../../../../app/db.server";
import { readShopSettings } from "../../../../app/models/shop-settings";
import { zoneOffsetMs } from "../../../../app/time-zone";

export const DEFAULT_TIME_ZONE = "Africa/Casablanca";
export const CHART_DAYS = 14;
/** Backlog alert: more pending jobs than this, or one runnable for longer than BACKLOG_AGE_MS. */
export const BACKLOG_PENDING_LIMIT = 50;
export const BACKLOG_AGE_MS = 15 * 60_000;
/** Sync is stale when older than this many sync intervals. */
export const STALE_SYNC_INTERVALS = 3;

const SENT_STATES = ["created", "damaged"];
const HELD_STATES = ["held", "invalid"];
const DECIDED_CONFIRMATIONS = ["confirmed", "canceled", "wrong", "fake", "duplicate"];
const REFUSED_CONFIRMATIONS = ["canceled", "wrong", "fake", "duplicate"];
const SHIPPED_OR_LATER = ["shipped", "delivered", "returned", "paid"];
const DELIVERED = ["delivered", "paid"];

// ---------------------------------------------------------------------------
// Pure parts

/** One row of groupBy([state, confirmationStatus, shippingStatus]). */
export interface StatusGroup {
  state: string;
  confirmationStatus: string | null;
  shippingStatus: string | null;
  count: number;
}

/** One row of groupBy([totalClient]) over delivered leads. */
export interface AmountGroup {
  totalClient: string | null;
  count: number;
}

export interface PeriodFigures {
  sent: number;
  held: number;
  damaged: number;
  confirmed: number;
  /** Sent leads whose call has an outcome (confirmed or refused). */
  decided: number;
  /** confirmed / decided; null when nothing is decided yet. */
  confirmationRate: number | null;
  delivered: number;
  /** Parcels shipped or later (shipped, delivered, returned, paid). */
  shipped: number;
  /** delivered / shipped; null when nothing has shipped. */
  deliveryRate: number | null;
  /** Sum of total_client of delivered leads, in integer cents. */
  collectedCents: number;
}

/** "249.9" -> 24990, exactly (no floating point); anything unreadable -> 0. */
export function decimalToCents(value: string | null | undefined): number {
  const match = value?.trim().match(/^(-?)(\d+)(?:\.(\d{1,2}))?$/);
  if (!match) return 0;
  const cents = Number(match[2]) * 100 + Number((match[3] ?? "").padEnd(2, "0"));
  return match[1] ? -cents : cents;
}

export function summarise(groups: StatusGroup[], amounts: AmountGroup[]): PeriodFigures {
  const f = { sent: 0, held: 0, damaged: 0, confirmed: 0, decided: 0, delivered: 0, shipped: 0 };
  for (const g of groups) {
    if (HELD_STATES.includes(g.state)) f.held += g.count;
    if (!SENT_STATES.includes(g.state)) continue;
    f.sent += g.count;
    if (g.state === "damaged") f.damaged += g.count;
    if (g.confirmationStatus && DECIDED_CONFIRMATIONS.includes(g.confirmationStatus)) f.decided += g.count;
    if (g.confirmationStatus === "confirmed") f.confirmed += g.count;
    if (g.shippingStatus && SHIPPED_OR_LATER.includes(g.shippingStatus)) f.shipped += g.count;
    if (g.shippingStatus && DELIVERED.includes(g.shippingStatus)) f.delivered += g.count;
  }
  return {
    ...f,
    confirmationRate: f.decided > 0 ? f.confirmed / f.decided : null,
    deliveryRate: f.shipped > 0 ? f.delivered / f.shipped : null,
    collectedCents: amounts.reduce((sum, a) => sum + decimalToCents(a.totalClient) * a.count, 0),
  };
}

export const OUTCOMES = ["delivered", "inDelivery", "awaiting", "lost", "damaged"] as const;
export type Outcome = (typeof OUTCOMES)[number];

/** What became of a sent lead, for the chart; null for an order that is not a lead. */
export function outcomeOf(g: Omit<StatusGroup, "count">): Outcome | null {
  if (!SENT_STATES.includes(g.state)) return null;
  if (g.shippingStatus && DELIVERED.includes(g.shippingStatus)) return "delivered";
  if (
    (g.confirmationStatus && REFUSED_CONFIRMATIONS.includes(g.confirmationStatus)) ||
    g.shippingStatus === "returned" ||
    g.shippingStatus === "canceled"
  ) {
    return "lost";
  }
  if (g.confirmationStatus === "confirmed") return "inDelivery";
  // A damaged lead waits for a correction on the platform before anyone calls.
  if (g.state === "damaged") return "damaged";
  return "awaiting";
}

export type ChartDay = { day: string } & Record<Outcome, number>;

export function chartDay(day: string, groups: StatusGroup[]): ChartDay {
  const row: ChartDay = { day, delivered: 0, inDelivery: 0, awaiting: 0, lost: 0, damaged: 0 };
  for (const g of groups) {
    const outcome = outcomeOf(g);
    if (outcome) row[outcome] += g.count;
  }
  return row;
}

/** The calendar day ("YYYY-MM-DD") of instant in timeZone. */
export function localDay(timeZone: string, instant: Date): string {
  return new Date(instant.getTime() + zoneOffsetMs(timeZone, instant.getTime())).toISOString().slice(0, 10);
}

/** "YYYY-MM-DD" + n days. */
export function addDays(day: string, n: number): string {
  return new Date(Date.parse(`${day}T00:00:00Z`) + n * 86_400_000).toISOString().slice(0, 10);
}

/** The instant local midnight of day begins in timeZone (DST-safe). */
export function startOfLocalDay(timeZone: string, day: string): Date {
  const midnightUtc = Date.parse(`${day}T00:00:00Z`);
  let guess = midnightUtc - zoneOffsetMs(timeZone, midnightUtc);
  // The offset at the guess may differ (a DST change between the two instants).
  guess = midnightUtc - zoneOffsetMs(timeZone, guess);
  return new Date(guess);
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

export interface Dashboard {
  onboarding: { steps: OnboardingStep[]; complete: boolean };
  /** Any lead sent in the last 30 days (else the figures are an empty state). */
  hasLeads: boolean;
  figures: { today: PeriodFigures; last7: PeriodFigures; last30: PeriodFigures };
  chart: ChartDay[];
  alerts: DashboardAlert[];
  timeZone: string;
}

export interface DashboardOptions {
  now?: Date;
  timeZone?: string;
}

// ---------------------------------------------------------------------------
// Queries

export async function loadDashboardFromLinks(db: Db, shop: string, options: DashboardOptions = {}): Promise<Dashboard> {
  const now = options.now ?? new Date();
  const timeZone = options.timeZone ?? DEFAULT_TIME_ZONE;
  const today = localDay(timeZone, now);
  const dayStarts = Array.from({ length: CHART_DAYS + 1 }, (_, i) => startOfLocalDay(timeZone, addDays(today, i - CHART_DAYS + 1)));
  const start7 = startOfLocalDay(timeZone, addDays(today, -6));
  const start30 = startOfLocalDay(timeZone, addDays(today, -29));

  const statusGroups = async (from: Date, to?: Date): Promise<StatusGroup[]> => {
    const rows = await db.orderLink.groupBy({
      by: ["state", "confirmationStatus", "shippingStatus"],
      where: { shop, createdAt: { gte: from, ...(to ? { lt: to } : {}) } },
      _count: { _all: true },
    });
    return rows.map((r) => ({ state: r.state, confirmationStatus: r.confirmationStatus, shippingStatus: r.shippingStatus, count: r._count._all }));
  };
  const amountGroups = async (from: Date): Promise<AmountGroup[]> => {
    const rows = await db.orderLink.groupBy({
      by: ["totalClient"],
      where: { shop, createdAt: { gte: from }, state: { in: SENT_STATES }, shippingStatus: { in: DELIVERED } },
      _count: { _all: true },
    });
    return rows.map((r) => ({ totalClient: r.totalClient, count: r._count._all }));
  };

  // The 14 chart days, then days 15 to 30 in one bucket: the three periods are sums of these.
  const [perDay, olderDays, amounts, shopRow, keyCount, firstLead, jobs, deadJobs] = await Promise.all([
    Promise.all(dayStarts.slice(0, CHART_DAYS).map((start, i) => statusGroups(start, dayStarts[i + 1]))),
    statusGroups(start30, dayStarts[0]),
    Promise.all([amountGroups(dayStarts[CHART_DAYS - 1]), amountGroups(start7), amountGroups(start30)]),
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

  const days = perDay.map((groups, i) => chartDay(addDays(today, i - CHART_DAYS + 1), groups));
  const last7Groups = perDay.slice(-7).flat();
  const last30Groups = [...perDay.flat(), ...olderDays];
  const figures = {
    today: summarise(perDay[CHART_DAYS - 1], amounts[0]),
    last7: summarise(last7Groups, amounts[1]),
    last30: summarise(last30Groups, amounts[2]),
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
    alerts.push({ kind: "backlog", pending: jobs._count._all, oldestMinutes: Math.max(0, Math.floor(overdueMs / 60_000)) });
  }
  if (deadJobs > 0) alerts.push({ kind: "dead", count: deadJobs });
  const stale = await staleSync(db, shop, now, shopRow?.lastStatusSyncAt ?? null, readShopSettings(shopRow?.settings).statusSyncMinutes);
  if (stale) alerts.push(stale);

  return {
    onboarding: { steps, complete: steps.every((s) => s.done) },
    hasLeads: figures.last30.sent > 0,
    figures,
    chart: days,
    alerts,
    timeZone,
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
  const inMotion = await db.orderLink.count({
    where: {
      shop,
      statusFinal: false,
      leadRef: { not: null },
      // Never synced: only leads older than the threshold are overdue.
      ...(lastSyncAt ? {} : { createdAt: { lt: new Date(now.getTime() - thresholdMs) } }),
    },
  });
  if (inMotion === 0) return null;
  return {
    kind: "stale",
    minutesSince: lastSyncAt ? Math.floor((now.getTime() - lastSyncAt.getTime()) / 60_000) : null,
    expectedMinutes: intervalMinutes,
  };
}
