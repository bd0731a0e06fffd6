/**
 * Translations of the codes the pipeline stores (findings, platform anomalies,
 * timeline steps), with their params. A code without a translation shows the
 * stored plain-English message, or the code itself.
 */
import { en } from "../../i18n/en";
import { isMessageKey, type MessageKey } from "../../i18n";
import type { Translate } from "../../i18n/react";

type Params = Record<string, string | number | boolean | null | undefined>;

/** t(key, params) with every placeholder the message uses filled ("" when the param is absent). */
function fill(t: Translate, key: MessageKey, params: Params): string {
  const values: Record<string, string> = {};
  for (const [, name] of en[key].matchAll(/\{(\w+)\}/g)) {
    const value = params[name];
    values[name] = value === null || value === undefined ? "" : String(value);
  }
  return t(key, values);
}

export function findingText(t: Translate, finding: { code: string; params: Params; message: string }): string {
  const { code, params } = finding;
  const key = code === "sku_unmatched" && params.via === "mapping" ? "finding.sku_unmatched_mapping" : `finding.${code}`;
  if (!isMessageKey(key)) return finding.message || code;
  const score = Number(params.score);
  return fill(t, key, { ...params, percent: Number.isFinite(score) ? Math.round(score * 100) : "" });
}

export function anomalyText(t: Translate, anomaly: { code: string; message: string }): string {
  const key = `anomaly.${anomaly.code}`;
  return isMessageKey(key) ? t(key) : anomaly.message || anomaly.code;
}

/** Short label of a finding or anomaly code, for badges. */
export function codeLabel(t: Translate, code: string): string {
  const key = `code.${code}`;
  return isMessageKey(key) ? t(key) : code;
}

export function timelineKind(t: Translate, kind: string): string {
  const key = `timeline.${kind}`;
  return isMessageKey(key) ? t(key) : kind;
}

export function ordersCount(t: Translate, count: number): string {
  return count === 1 ? t("anomalies.orders.one") : t("anomalies.orders.other", { count });
}

export function fixErrorText(t: Translate, code: string): string {
  const key = `fix.error.${code}`;
  return isMessageKey(key) ? t(key) : t("fix.error.invalid");
}
