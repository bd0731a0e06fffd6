/**
 * The sync ledger's instants on the shop's wall clock, made by the loaders of the
 * pages that show it: the page writes them with the reader's formatter, and does
 * not convert them itself, as the browser's time-zone data may differ from the
 * server's (app/i18n/format.ts).
 */
import type { LocalTime } from "../i18n/format";
import type { SyncLedgerView } from "./sync-ledger.server";
import { localTime } from "../time-zone";

/** The ledger and, for each ISO instant it holds, that instant's wall-clock time in the shop's zone. */
export interface LedgerOnPage extends SyncLedgerView {
  local: Record<string, LocalTime>;
}

export function ledgerOnPage(ledger: SyncLedgerView, timeZone: string): LedgerOnPage {
  const instants = [
    ledger.lastPassAt,
    ledger.nextPassAt,
    ledger.countedAt,
    ledger.coverageFrom,
    ledger.uncoveredFrom,
    ...Object.values(ledger.windows).flatMap((w) => [w.lastRecoveryAt, w.from]),
    ...ledger.passes.map((p) => p.at),
  ];
  const local = Object.fromEntries(
    instants.filter((at): at is string => !!at).map((at) => [at, localTime(at, timeZone)]),
  );
  return { ...ledger, local };
}
