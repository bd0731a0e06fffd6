/**
 * CSV of the cash ledger, one line per parcel, in the reader's dialect (csv.ts). Pure.
 * Amounts are exact decimals from integer cents; a seller profit the platform has not
 * given yet is empty.
 */
import type { MessageKey } from "../i18n";
import { amount, csvFile, csvText, ENGLISH_CSV, type CsvDialect } from "./csv";
import type { CashParcelRow } from "./cash-list.server";

export const CASH_CSV_COLUMNS = [
  "order",
  "orderId",
  "leadRef",
  "state",
  "deliveredOn",
  "paidOn",
  "returnedOn",
  "daysSinceDelivery",
  "amountToCollect",
  "profit",
] as const;

const cashCsvRow = (r: CashParcelRow, dialect: CsvDialect): (string | number)[] => [
  csvText(r.orderName),
  csvText(r.orderId),
  csvText(r.leadRef ?? ""),
  csvText(dialect.words(`csv.state.${r.state}` as MessageKey)),
  r.deliveredDay ?? "",
  r.state === "paid" ? (r.paidDay ?? "") : "",
  r.state === "returned" ? (r.returnedDay ?? "") : "",
  r.ageDays ?? "",
  amount(r.totalCents, dialect),
  r.profitCents === null ? "" : amount(r.profitCents, dialect),
];

export function cashCsv(rows: readonly CashParcelRow[], dialect: CsvDialect = ENGLISH_CSV): string {
  return csvFile(
    dialect,
    CASH_CSV_COLUMNS,
    rows.map((r) => cashCsvRow(r, dialect)),
  );
}

export function cashCsvFileName(shop: string, view: string, today: string): string {
  return `${shop.replace(/\.myshopify\.com$/, "")}-cash-${view}-${today}.csv`;
}
