/** Words and figures of the sync ledger shared by its Home card, alert and Activity section. */
import type { Formatter, MessageKey } from "../../i18n";
import type { Translate } from "../../i18n/react";
import type { LedgerWindowView, SyncLedgerView } from "../../pages/sync-ledger.server";
import type { PromiseCheck, PromiseTerm } from "../../sync/reconcile/promise";
import type { LedgerOnPage } from "../../pages/sync-ledger-times";

/** One of the ledger's instants as the reader writes it ("Nov 26, 12:41"), on the shop's clock. */
export function ledgerTime(
  format: Formatter,
  ledger: LedgerOnPage,
  at: string,
  options: { year?: boolean } = {},
): string {
  return format.dateTime(ledger.local[at] ?? at, options);
}

/** A latency bound in seconds ("≤ N"): seconds, minutes or hours; 0 is beyond a day. */
export function withinText(format: Formatter, t: Translate, seconds: number | null): string {
  if (seconds === null) return t("syncLedger.noValue");
  if (seconds === 0) return t("syncLedger.within.overDay");
  if (seconds < 120) return t("syncLedger.within.seconds", { n: format.integer(seconds) });
  if (seconds < 7200) return t("syncLedger.within.minutes", { n: format.integer(Math.round(seconds / 60)) });
  return t("syncLedger.within.hours", { n: format.integer(Math.round(seconds / 3600)) });
}

/** Shopify's count of orders: exact, or "N+" when Shopify stopped counting. */
export function countText(format: Formatter, t: Translate, count: { count: number; precision: string } | null): string {
  if (!count) return t("syncLedger.noValue");
  const n = format.integer(count.count);
  return count.precision === "EXACT" ? n : t("syncLedger.atLeast", { count: n });
}

export function promiseSentence(format: Formatter, t: Translate, promise: SyncLedgerView["promise"]): string {
  return t("syncLedger.promise.text", {
    leadShare: format.percent(promise.leadShare),
    leadSeconds: promise.leadSeconds,
    allMinutes: Math.round(promise.allLeadsSeconds / 60),
    statusShare: format.percent(promise.statusShare),
    statusMinutes: Math.round(promise.statusSeconds / 60),
  });
}

export type BadgeTone = "success" | "critical" | "info";

export type Verdict = "kept" | "short" | "unmeasured";

/** Kept, fell short, or not measured: a window's verdict, its badge (key) and its one word (word). */
export function promiseVerdict(check: PromiseCheck): {
  verdict: Verdict;
  tone: BadgeTone;
  key: MessageKey;
  word: MessageKey;
} {
  const measured = [check.leads, check.allLeads, check.statuses].some((term) => term.met !== null);
  const verdict: Verdict = !measured ? "unmeasured" : check.met ? "kept" : "short";
  const tone: BadgeTone = verdict === "kept" ? "success" : verdict === "short" ? "critical" : "info";
  return { verdict, tone, key: `syncLedger.promise.${verdict}`, word: `syncLedger.verdict.${verdict}` };
}

/** One term of the promise as measured: "Leads within 60 s: 97.5 % (promised 95 %)". */
export function termText(
  format: Formatter,
  t: Translate,
  which: "leads" | "allLeads" | "statuses",
  term: PromiseTerm,
): string {
  const label = t(`syncLedger.promise.label.${which}`, {
    seconds: format.integer(term.seconds),
    minutes: format.integer(Math.round(term.seconds / 60)),
  });
  if (term.share === null) return t("syncLedger.promise.term.none", { label });
  return t("syncLedger.promise.term", {
    label,
    share: format.percent(term.share),
    target: format.percent(term.target),
  });
}

/** "3 not seen yet" / "All accounted for", with its tone. */
export function accountedBadge(
  t: Translate,
  window: LedgerWindowView,
): { tone: "success" | "warning" | undefined; text: string } | null {
  if (window.notSeen === null) return null;
  if (window.notSeen === 0) return { tone: "success", text: t("syncLedger.allAccounted") };
  return { tone: "warning", text: t("syncLedger.notSeen", { count: window.notSeen }) };
}

export function stuckStateText(t: Translate, state: string): string {
  const key = `syncLedger.stuck.state.${state}`;
  return key === "syncLedger.stuck.state.received" ||
    key === "syncLedger.stuck.state.posting" ||
    key === "syncLedger.stuck.state.retrying"
    ? t(key)
    : state;
}
