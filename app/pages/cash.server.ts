/**
 * The cash list page and its CSV: the parcels of one ledger state (owed ones by
 * days since delivery), the view's totals and the owed amounts by age, all from
 * the cash ledger's rows and rollups; and the Analytics period's ledger as CSV.
 */
import type { Db } from "../db.server";
import { DEFAULT_TIME_ZONE, localDay } from "../analytics/days";
import { parsePeriod } from "../analytics/period";
import {
  bucketOfQuery,
  dayRangeOf,
  parseCashQuery,
  type CashListQuery,
  type CashQueryError,
} from "../analytics/cash-query";
import {
  allCashParcels,
  cashParcelsOfPeriod,
  listCashParcels,
  type CashListPage,
  type CashParcelRow,
} from "../analytics/cash-list.server";
import { cashTotals, loadCashOverview, type CashOverview } from "../analytics/cash-report.server";
import { cashCsv, cashCsvFileName } from "../analytics/cash-csv";
import { ENGLISH_CSV, type CsvDialect } from "../analytics/csv";
import type { CashSums } from "../analytics/cash";

export interface CashPage {
  today: string;
  view: Pick<CashListQuery, "state" | "minAge" | "maxAge">;
  /** The age band the view is exactly, if any. */
  bucket: string | null;
  errors: CashQueryError[];
  /** Totals of the view (all its pages). */
  totals: CashSums;
  overview: CashOverview;
  page: CashListPage;
  firstPage: boolean;
}

export async function loadCashPage(
  db: Db,
  shop: string,
  params: URLSearchParams,
  options: { now?: Date; timeZone?: string } = {},
): Promise<CashPage> {
  const now = options.now ?? new Date();
  const timeZone = options.timeZone ?? DEFAULT_TIME_ZONE;
  const today = localDay(timeZone, now);
  const { query, errors } = parseCashQuery(params);
  const [overview, totals, page] = await Promise.all([
    loadCashOverview(db, shop, { now, timeZone }),
    cashTotals(db, shop, query.state, dayRangeOf(query, today)),
    listCashParcels(db, shop, query, today),
  ]);
  return {
    today,
    view: { state: query.state, minAge: query.minAge, maxAge: query.maxAge },
    bucket: bucketOfQuery(query),
    errors,
    totals,
    overview,
    page,
    firstPage: query.after === null && query.before === null,
  };
}

export class CashExportRefused extends Error {
  constructor(readonly reason: string) {
    super(`cash export refused: ${reason}`);
    this.name = "CashExportRefused";
  }
}

/**
 * The CSV of a list view (?state=...&minAge=...&maxAge=...), or of the parcels
 * delivered or returned in an Analytics period (?from=...&to=... or ?period=N).
 * A parameter the list would answer with a banner is refused here (the file must
 * hold what was asked).
 */
export async function cashCsvExport(
  db: Db,
  shop: string,
  params: URLSearchParams,
  options: { now?: Date; timeZone?: string; dialect?: CsvDialect } = {},
): Promise<{ csv: string; fileName: string }> {
  const dialect = options.dialect ?? ENGLISH_CSV;
  const timeZone = options.timeZone ?? DEFAULT_TIME_ZONE;
  const today = localDay(timeZone, options.now ?? new Date());
  const rows: CashParcelRow[] = [];
  if (params.has("period") || params.has("from") || params.has("to")) {
    const { period, error } = parsePeriod(params, today);
    if (error) throw new CashExportRefused(`period: ${error}`);
    for await (const page of cashParcelsOfPeriod(db, shop, period, today)) rows.push(...page);
    rows.sort(
      (a, b) =>
        (a.deliveredDay ?? a.returnedDay ?? "").localeCompare(b.deliveredDay ?? b.returnedDay ?? "") ||
        a.orderName.localeCompare(b.orderName),
    );
    return {
      csv: cashCsv(rows, dialect),
      fileName: cashCsvFileName(shop, `${period.from}-to-${period.to}`, today),
    };
  }
  const { query, errors } = parseCashQuery(params);
  if (errors.length) throw new CashExportRefused(errors.join(", "));
  for await (const page of allCashParcels(db, shop, query, today)) rows.push(...page);
  const view = [
    query.state,
    query.minAge !== null ? `from-${query.minAge}-days` : "",
    query.maxAge !== null ? `to-${query.maxAge}-days` : "",
  ]
    .filter(Boolean)
    .join("-");
  return { csv: cashCsv(rows, dialect), fileName: cashCsvFileName(shop, view, today) };
}
