/**
 * CSV of the cash ledger, one line per parcel. Pure. Amounts are exact decimals
 * from integer cents; a seller profit the platform has not given yet is empty.
 */
import { amount, csvText } from "./csv";
import type { CashParcelRow } from "./cash-list.server";

export const CASH_CSV_HEADER = [
  "order",
  "order_id",
  "lead_ref",
  "state",
  "delivered_on",
  "paid_on",
  "returned_on",
  "days_since_delivery",
  "amount_to_collect_mad",
  "seller_profit_mad",
] as const;

export const cashCsvLine = (r: CashParcelRow): string =>
  [
    csvText(r.orderName),
    csvText(r.orderId),
    csvText(r.leadRef ?? ""),
    r.state,
    r.deliveredDay ?? "",
    r.state === "paid" ? (r.paidDay ?? "") : "",
    r.state === "returned" ? (r.returnedDay ?? "") : "",
    r.ageDays ?? "",
    amount(r.totalCents),
    r.profitCents === null ? "" : amount(r.profitCents),
  ].join(",");

export function cashCsv(rows: readonly CashParcelRow[]): string {
  return [CASH_CSV_HEADER.join(","), ...rows.map(cashCsvLine)].join("\r\n") + "\r\n";
}

export function cashCsvFileName(shop: string, view: string, today: string): string {
  return `${shop.replace(/\.myshopify\.com$/, "")}-cash-${view}-${today}.csv`;
}
