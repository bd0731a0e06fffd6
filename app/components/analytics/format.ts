/** Display helpers shared by the Analytics components (locale-exact, same on server and client). */
import { formatInteger, formatPercent, type Locale } from "../../i18n";
import type { Translate } from "../../i18n/react";
import type { Rate } from "../../analytics/report";
import { dh } from "../cash/format";
export { download } from "../download";

/** Money as the cash pages write it: "18,450 DH", centimes only when there are some. */
export const money = (locale: Locale, cents: number) => dh(locale, cents);
export const integer = (locale: Locale, n: number) => formatInteger(locale, n);

export function percent(locale: Locale, t: Translate, r: Rate): string {
  return r.rate === null ? t("analytics.figure.none") : formatPercent(locale, r.rate);
}

export function days(locale: Locale, t: Translate, value: number | null): string {
  if (value === null) return t("analytics.figure.none");
  const text = Number.isInteger(value) ? String(value) : value.toFixed(1);
  return t("analytics.days", { days: locale === "fr" ? text.replace(".", ",") : text });
}

