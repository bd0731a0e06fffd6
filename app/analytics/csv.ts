/**
 * CSV of each Analytics table. Pure. Amounts are exact decimals from integer
 * cents; each rate is written with the two counts it divides, named in its
 * header, so a spreadsheet can check it.
 */
import { formatCents } from "../leads/money";
import type { Period } from "./period";
import {
  FUNNEL_STEPS,
  IN_PROGRESS,
  LOSS_CAUSES,
  type BreakdownLine,
  type Rate,
  type Summary,
  type WeekPoint,
} from "./report";

export const CSV_TABLES = ["funnel", "cities", "products", "weeks"] as const;
export type CsvTable = (typeof CSV_TABLES)[number];
export const isCsvTable = (value: string | null): value is CsvTable =>
  (CSV_TABLES as readonly (string | null)[]).includes(value);

/** Text that a spreadsheet would run as a formula gets a leading apostrophe (CSV injection). */
export function csvText(value: string): string {
  const safe = /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
  return /[",\r\n;]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
}

export const amount = (cents: number): string => (cents < 0 ? `-${formatCents(-cents)}` : formatCents(cents));
const ratio = (r: Rate): string => (r.rate === null ? "" : r.rate.toFixed(4));
const lines = (header: string[], rows: (string | number)[][]): string =>
  [header, ...rows].map((r) => r.join(",")).join("\r\n") + "\r\n";

export function funnelCsv(current: Summary, previous: Summary): string {
  const rows: (string | number)[][] = [];
  FUNNEL_STEPS.forEach((step, i) => {
    const before = i === 0 ? null : FUNNEL_STEPS[i - 1];
    const whole = before ? current.steps[before] : current.steps.orders;
    rows.push([
      "step",
      step,
      current.steps[step],
      previous.steps[step],
      whole ? (current.steps[step] / whole).toFixed(4) : "",
      current.steps[step],
      whole,
    ]);
    const causes: readonly string[] = (LOSS_CAUSES as Record<string, readonly string[]>)[step] ?? [];
    for (const cause of causes) {
      const n = current.losses[cause as keyof Summary["losses"]];
      const p = previous.losses[cause as keyof Summary["losses"]];
      rows.push([
        "lost",
        `${step}:${cause}`,
        n,
        p,
        current.steps[step] ? (n / current.steps[step]).toFixed(4) : "",
        n,
        current.steps[step],
      ]);
    }
    const progress = (IN_PROGRESS as Record<string, keyof Summary["inProgress"]>)[step];
    if (progress) {
      const n = current.inProgress[progress];
      rows.push([
        "in_progress",
        `${step}:${progress}`,
        n,
        previous.inProgress[progress],
        current.steps[step] ? (n / current.steps[step]).toFixed(4) : "",
        n,
        current.steps[step],
      ]);
    }
  });
  return lines(
    ["kind", "name", "orders", "previous_period_orders", "share", "share_numerator", "share_denominator"],
    rows,
  );
}

export function breakdownCsv(keyHeader: string, breakdown: readonly BreakdownLine[]): string {
  return lines(
    [
      keyHeader,
      "name",
      "orders",
      "shipped",
      "delivered",
      "returned",
      "delivery_rate_delivered_over_shipped",
      "return_rate_returned_over_shipped",
      "collected_mad",
      "seller_profit_mad",
      "median_days_to_delivery",
    ],
    breakdown.map((l) => [
      csvText(l.key),
      csvText(l.label),
      l.orders,
      l.shipped,
      l.delivered,
      l.returned,
      ratio(l.deliveryRate),
      ratio(l.returnRate),
      amount(l.collectedCents),
      amount(l.profitCents),
      l.medianDeliveryDays ?? "",
    ]),
  );
}

export function weeksCsv(weeks: readonly WeekPoint[]): string {
  return lines(
    [
      "week_start",
      "orders",
      "shipped",
      "delivered",
      "delivery_rate_delivered_over_shipped",
      "collected_mad",
      "seller_profit_mad",
    ],
    weeks.map((w) => [
      w.week,
      w.orders,
      w.deliveryRate.whole,
      w.deliveryRate.part,
      ratio(w.deliveryRate),
      amount(w.collectedCents),
      amount(w.profitCents),
    ]),
  );
}

export function csvFileName(shop: string, table: CsvTable, period: Period): string {
  return `${shop.replace(/\.myshopify\.com$/, "")}-analytics-${table}-${period.from}-to-${period.to}.csv`;
}
