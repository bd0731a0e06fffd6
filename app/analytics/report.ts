/**
 * Figures from rollup rows: the funnel with its losses by cause, the city and
 * product tables, the weekly series. Pure. Every rate carries its numerator and
 * denominator so the page and the CSV can show both; money stays in integer cents.
 */
import { addDays, weekOf } from "./days";
import {
  bucketOf,
  isConfirmed,
  isDelivered,
  isReturned,
  isShipped,
  isTakenOrder,
  type SentBucket,
} from "../vocabulary/status-groups";

/** One aggregated rollup row (any subset of the key's dimensions). */
export interface RollupRow {
  day?: string;
  cityId?: number;
  productKey?: string;
  statusGroup: string;
  deliveryDays: number;
  orders: number;
  totalCents: number;
  profitCents: number;
}

export const FUNNEL_STEPS = ["orders", "sent", "confirmed", "shipped", "delivered"] as const;
export type FunnelStep = (typeof FUNNEL_STEPS)[number];

/** Why orders did not reach the next step, per step (the step they stopped after). */
export const LOSS_CAUSES = {
  orders: ["held", "failed", "refused_to_send", "cancelled_before_sending"],
  sent: ["unreachable", "cancelled_on_call", "rejected_on_call"],
  confirmed: ["cancelled_before_shipping"],
  shipped: ["returned"],
} as const satisfies Partial<Record<FunnelStep, readonly string[]>>;
export type LossCause = (typeof LOSS_CAUSES)[keyof typeof LOSS_CAUSES][number];

/** Still moving between two steps (not a loss yet). */
export const IN_PROGRESS = { sent: "awaiting_call", confirmed: "preparing", shipped: "in_transit" } as const;
export type InProgress = (typeof IN_PROGRESS)[keyof typeof IN_PROGRESS];

const CAUSE_OF_GROUP: Record<string, LossCause> = {
  held: "held",
  failed: "failed",
  invalid: "refused_to_send",
  cancelled: "cancelled_before_sending",
};
const CAUSE_OF_BUCKET: Partial<Record<SentBucket, LossCause>> = {
  unreachable: "unreachable",
  call_cancelled: "cancelled_on_call",
  rejected: "rejected_on_call",
  parcel_cancelled: "cancelled_before_shipping",
  returned: "returned",
};
const PROGRESS_OF_BUCKET: Partial<Record<SentBucket, InProgress>> = {
  awaiting: "awaiting_call",
  preparing: "preparing",
  in_transit: "in_transit",
};

/** part / whole, with both kept; rate null when whole is 0. */
export interface Rate {
  part: number;
  whole: number;
  rate: number | null;
}
export const rate = (part: number, whole: number): Rate => ({ part, whole, rate: whole > 0 ? part / whole : null });

export interface Summary {
  steps: Record<FunnelStep, number>;
  losses: Record<LossCause, number>;
  inProgress: Record<InProgress, number>;
  /** Sent leads stored as damaged by the platform. */
  damaged: number;
  /** Orders that are not cash on delivery (not in the funnel). */
  skipped: number;
  /** delivered / shipped, returned / shipped, confirmed / sent. */
  deliveryRate: Rate;
  returnRate: Rate;
  confirmationRate: Rate;
  /** total_client of delivered parcels and the platform's seller_profit on them, in cents. */
  collectedCents: number;
  profitCents: number;
  /** Median days from order to delivery, over the delivered parcels with a known day. */
  medianDeliveryDays: number | null;
}

const zeroes = <K extends string>(keys: readonly K[]): Record<K, number> =>
  Object.fromEntries(keys.map((k) => [k, 0])) as Record<K, number>;
export const ALL_LOSS_CAUSES: readonly LossCause[] = Object.values(LOSS_CAUSES).flat();
export const ALL_IN_PROGRESS: readonly InProgress[] = Object.values(IN_PROGRESS);

/** Median of a histogram (value -> count). */
export function histogramMedian(histogram: Map<number, number>): number | null {
  const total = [...histogram.values()].reduce((s, n) => s + n, 0);
  if (total === 0) return null;
  const sorted = [...histogram.entries()].sort((a, b) => a[0] - b[0]);
  const at = (rank: number) => {
    let seen = 0;
    for (const [value, count] of sorted) if ((seen += count) > rank) return value;
    return sorted[sorted.length - 1][0];
  };
  return (at(Math.floor((total - 1) / 2)) + at(Math.floor(total / 2))) / 2;
}

export function summarise(rows: readonly RollupRow[]): Summary {
  const steps = zeroes(FUNNEL_STEPS);
  const losses = zeroes(ALL_LOSS_CAUSES);
  const inProgress = zeroes(ALL_IN_PROGRESS);
  const days = new Map<number, number>();
  let damaged = 0;
  let skipped = 0;
  let returned = 0;
  let collectedCents = 0;
  let profitCents = 0;
  for (const row of rows) {
    const { statusGroup: g, orders: n } = row;
    if (!isTakenOrder(g)) {
      skipped += n;
      continue;
    }
    steps.orders += n;
    const cause = CAUSE_OF_GROUP[g];
    if (cause) losses[cause] += n;
    const bucket = bucketOf(g);
    if (!bucket) continue;
    steps.sent += n;
    if (g.startsWith("damaged.")) damaged += n;
    if (isConfirmed(g)) steps.confirmed += n;
    if (isShipped(g)) steps.shipped += n;
    if (isReturned(g)) returned += n;
    const bucketCause = CAUSE_OF_BUCKET[bucket];
    if (bucketCause) losses[bucketCause] += n;
    const progress = PROGRESS_OF_BUCKET[bucket];
    if (progress) inProgress[progress] += n;
    if (isDelivered(g)) {
      steps.delivered += n;
      collectedCents += row.totalCents;
      profitCents += row.profitCents;
      if (row.deliveryDays >= 0) days.set(row.deliveryDays, (days.get(row.deliveryDays) ?? 0) + n);
    }
  }
  return {
    steps,
    losses,
    inProgress,
    damaged,
    skipped,
    deliveryRate: rate(steps.delivered, steps.shipped),
    returnRate: rate(returned, steps.shipped),
    confirmationRate: rate(steps.confirmed, steps.sent),
    collectedCents,
    profitCents,
    medianDeliveryDays: histogramMedian(days),
  };
}

/** Rows grouped by a key, summarised. */
export function summariseBy<K>(rows: readonly RollupRow[], keyOf: (row: RollupRow) => K): Map<K, Summary> {
  const groups = new Map<K, RollupRow[]>();
  for (const row of rows) {
    const key = keyOf(row);
    (groups.get(key) ?? groups.set(key, []).get(key)!).push(row);
  }
  return new Map([...groups].map(([key, group]) => [key, summarise(group)]));
}

/** One line of the city or product table. */
export interface BreakdownLine {
  key: string;
  label: string;
  orders: number;
  delivered: number;
  shipped: number;
  returned: number;
  deliveryRate: Rate;
  returnRate: Rate;
  collectedCents: number;
  profitCents: number;
  medianDeliveryDays: number | null;
  /** Set on the "Others" line: how many lines it adds up. */
  others?: number;
}

/** Lines a table shows before the rest is added up in "Others". */
export const TOP_LINES = 10;
export const OTHERS_KEY = "others";

/**
 * The table's lines: the TOP_LINES with the most orders, then one "Others" line
 * summed from the remaining lines' rows (so its rates and median are the real
 * ones, not averages). Nothing is folded when it would add up a single line.
 */
export function foldLongTail<K>(
  rows: readonly RollupRow[],
  keyOf: (row: RollupRow) => K,
  lineOf: (key: K, s: Summary) => BreakdownLine,
  top = TOP_LINES,
): BreakdownLine[] {
  const byKey = summariseBy(rows, keyOf);
  const lines = [...byKey].map(([key, s]) => ({ key, line: lineOf(key, s) }));
  if (lines.length <= top + 1) return lines.map((l) => l.line);
  lines.sort(
    (a, b) =>
      b.line.orders - a.line.orders || a.line.label.localeCompare(b.line.label) || a.line.key.localeCompare(b.line.key),
  );
  const tail = new Set(lines.slice(top).map((l) => l.key));
  const others = summarise(rows.filter((r) => tail.has(keyOf(r))));
  return [...lines.slice(0, top).map((l) => l.line), breakdownLine(OTHERS_KEY, "", others, tail.size)];
}

export function breakdownLine(key: string, label: string, s: Summary, others?: number): BreakdownLine {
  return {
    key,
    label,
    ...(others !== undefined ? { others } : {}),
    orders: s.steps.orders,
    delivered: s.steps.delivered,
    shipped: s.steps.shipped,
    returned: s.returnRate.part,
    deliveryRate: s.deliveryRate,
    returnRate: s.returnRate,
    collectedCents: s.collectedCents,
    profitCents: s.profitCents,
    medianDeliveryDays: s.medianDeliveryDays,
  };
}

export const SORT_KEYS = [
  "orders",
  "deliveryRate",
  "returnRate",
  "collectedCents",
  "profitCents",
  "medianDeliveryDays",
  "label",
] as const;
export type SortKey = (typeof SORT_KEYS)[number];

/** Sorted copy; lines without a value (no rate, no median) go last either way; ties by label. */
export function sortLines(lines: readonly BreakdownLine[], key: SortKey, direction: "asc" | "desc"): BreakdownLine[] {
  const value = (l: BreakdownLine): number | string | null =>
    key === "label" ? l.label : key === "deliveryRate" || key === "returnRate" ? l[key].rate : l[key];
  const sign = direction === "asc" ? 1 : -1;
  return [...lines].sort((a, b) => {
    const va = value(a);
    const vb = value(b);
    if (va === null || vb === null) return va === vb ? a.label.localeCompare(b.label) : va === null ? 1 : -1;
    const order = typeof va === "string" ? va.localeCompare(vb as string) : va - (vb as number);
    return order !== 0 ? sign * order : a.label.localeCompare(b.label);
  });
}

export interface WeekPoint {
  /** Monday of the week. */
  week: string;
  orders: number;
  deliveryRate: Rate;
  collectedCents: number;
  profitCents: number;
}

/** Weeks (Monday first) covering from..to, each summed from its days inside the period. */
export function weeklySeries(rows: readonly RollupRow[], from: string, to: string): WeekPoint[] {
  const weeks = new Map<string, string>();
  const byWeek = summariseBy(rows, (r) => weeks.get(r.day!) ?? weeks.set(r.day!, weekOf(r.day!)).get(r.day!)!);
  const points: WeekPoint[] = [];
  for (let week = weekOf(from); week <= to; week = addDays(week, 7)) {
    const s = byWeek.get(week) ?? summarise([]);
    points.push({
      week,
      orders: s.steps.orders,
      deliveryRate: s.deliveryRate,
      collectedCents: s.collectedCents,
      profitCents: s.profitCents,
    });
  }
  return points;
}

/** A figure now and in the previous period of the same length. */
export interface Compared {
  current: number;
  previous: number;
}

/** How a figure moved against the previous period. */
export type Change =
  | { kind: "relative"; ratio: number }
  | { kind: "points"; points: number }
  /** Nothing in the previous period to compare with. */
  | { kind: "new" }
  | { kind: "same" }
  /** No value in one of the periods (a rate without a denominator). */
  | { kind: "none" };

/** Money or counts: the change relative to the previous value. */
export function amountChange(current: number, previous: number): Change {
  if (current === previous) return { kind: "same" };
  if (previous === 0) return { kind: "new" };
  return { kind: "relative", ratio: (current - previous) / Math.abs(previous) };
}

/** Rates: the difference in percentage points. */
export function rateChange(current: Rate, previous: Rate): Change {
  if (current.rate === null || previous.rate === null) return { kind: "none" };
  const points = Math.round((current.rate - previous.rate) * 1000) / 10;
  return points === 0 ? { kind: "same" } : { kind: "points", points };
}
