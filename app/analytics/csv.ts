/**
 * CSV of each Analytics table. Pure. Amounts are exact decimals from integer
 * cents; each rate is written with the two counts it divides, named in its
 * header, so a spreadsheet can check it. Written in the reader's dialect: French
 * Excel reads ";" between fields and a decimal comma, English spreadsheets "," and
 * a point; headers in the reader's language; a byte-order mark so Excel reads UTF-8.
 */
import { formatCents } from "../leads/money";
import { formatOf, t, type Locale, type MessageKey, type MessageParams } from "../i18n";
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

/** How a spreadsheet of the reader's language reads a CSV file. */
export interface CsvDialect {
  separator: "," | ";";
  decimal: "." | ",";
  words(key: MessageKey, params?: MessageParams): string;
}

/**
 * The reader's dialect, from the locale's format row: a language that writes a decimal comma
 * (French) reads ";" between fields, as Excel set up for it does; the others "," and a point.
 */
export function csvDialect(locale: Locale): CsvDialect {
  const comma = formatOf(locale).decimal === ",";
  return {
    separator: comma ? ";" : ",",
    decimal: comma ? "," : ".",
    words: (key, params) => t(locale, key, params),
  };
}

export const ENGLISH_CSV = csvDialect("en");
/** Excel opens a UTF-8 file as such only with it; other spreadsheets skip it. */
export const BOM = "\uFEFF";

/** Text that a spreadsheet would run as a formula gets a leading apostrophe (CSV injection). */
export function csvText(value: string): string {
  const safe = /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
  return /[",\r\n;]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
}

/** A decimal written with the dialect's mark. */
const decimal = (text: string, dialect: CsvDialect) => (dialect.decimal === "." ? text : text.replace(".", ","));
export const amount = (cents: number, dialect: CsvDialect = ENGLISH_CSV): string =>
  decimal(cents < 0 ? `-${formatCents(-cents)}` : formatCents(cents), dialect);
const ratio = (r: Rate, dialect: CsvDialect): string => (r.rate === null ? "" : decimal(r.rate.toFixed(4), dialect));
const share = (part: number, whole: number, dialect: CsvDialect): string =>
  whole ? decimal((part / whole).toFixed(4), dialect) : "";

/** The file: a header of column names (catalogue keys csv.column.*), then the rows. */
export function csvFile(dialect: CsvDialect, columns: readonly string[], rows: readonly (string | number)[][]): string {
  const header = columns.map((c) => csvText(dialect.words(`csv.column.${c}` as MessageKey)));
  return BOM + [header, ...rows].map((r) => r.join(dialect.separator)).join("\r\n") + "\r\n";
}

export function funnelCsv(current: Summary, previous: Summary, dialect: CsvDialect = ENGLISH_CSV): string {
  const rows: (string | number)[][] = [];
  const w = (key: string) => csvText(dialect.words(key as MessageKey));
  FUNNEL_STEPS.forEach((step, i) => {
    const before = i === 0 ? null : FUNNEL_STEPS[i - 1];
    const whole = before ? current.steps[before] : current.steps.orders;
    const n = current.steps[step];
    rows.push([
      w("csv.kind.step"),
      w(`analytics.step.${step}`),
      n,
      previous.steps[step],
      share(n, whole, dialect),
      n,
      whole,
    ]);
    const causes: readonly string[] = (LOSS_CAUSES as Record<string, readonly string[]>)[step] ?? [];
    for (const cause of causes) {
      const lost = current.losses[cause as keyof Summary["losses"]];
      const p = previous.losses[cause as keyof Summary["losses"]];
      rows.push([w("csv.kind.lost"), w(`analytics.cause.${cause}`), lost, p, share(lost, n, dialect), lost, n]);
    }
    const progress = (IN_PROGRESS as Record<string, keyof Summary["inProgress"]>)[step];
    if (progress) {
      const moving = current.inProgress[progress];
      rows.push([
        w("csv.kind.in_progress"),
        csvText(dialect.words(`analytics.progress.${progress}` as MessageKey, { count: "" }).trim()),
        moving,
        previous.inProgress[progress],
        share(moving, n, dialect),
        moving,
        n,
      ]);
    }
  });
  return csvFile(
    dialect,
    ["kind", "name", "orders", "previousOrders", "share", "shareNumerator", "shareDenominator"],
    rows,
  );
}

export function breakdownCsv(
  keyHeader: "cityId" | "productKey",
  breakdown: readonly BreakdownLine[],
  dialect: CsvDialect = ENGLISH_CSV,
): string {
  return csvFile(
    dialect,
    [
      keyHeader,
      "name",
      "orders",
      "shipped",
      "delivered",
      "returned",
      "deliveryRate",
      "returnRate",
      "collected",
      "profit",
      "medianDays",
    ],
    breakdown.map((l) => [
      csvText(l.key),
      csvText(l.label),
      l.orders,
      l.shipped,
      l.delivered,
      l.returned,
      ratio(l.deliveryRate, dialect),
      ratio(l.returnRate, dialect),
      amount(l.collectedCents, dialect),
      amount(l.profitCents, dialect),
      l.medianDeliveryDays === null ? "" : decimal(String(l.medianDeliveryDays), dialect),
    ]),
  );
}

export function weeksCsv(weeks: readonly WeekPoint[], dialect: CsvDialect = ENGLISH_CSV): string {
  return csvFile(
    dialect,
    ["weekStart", "orders", "shipped", "delivered", "deliveryRate", "collected", "profit"],
    weeks.map((w) => [
      w.week,
      w.orders,
      w.deliveryRate.whole,
      w.deliveryRate.part,
      ratio(w.deliveryRate, dialect),
      amount(w.collectedCents, dialect),
      amount(w.profitCents, dialect),
    ]),
  );
}

export function csvFileName(shop: string, table: CsvTable, period: Period): string {
  return `${shop.replace(/\.myshopify\.com$/, "")}-analytics-${table}-${period.from}-to-${period.to}.csv`;
}
