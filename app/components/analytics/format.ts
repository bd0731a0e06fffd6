/** Display helpers shared by the Analytics components: the locale's formatters (app/i18n/format.ts), same on server and client. */
import type { Formatter } from "../../i18n";
import type { Translate } from "../../i18n/react";
import type { Rate } from "../../analytics/report";
export { download } from "../download";

export const money = (format: Formatter, cents: number) => format.money(cents);
export const integer = (format: Formatter, n: number) => format.integer(n);

export function percent(format: Formatter, t: Translate, r: Rate): string {
  return r.rate === null ? t("analytics.figure.none") : format.percent(r.rate);
}

export function days(format: Formatter, t: Translate, value: number | null): string {
  if (value === null) return t("analytics.figure.none");
  return t("analytics.days", { days: format.decimal(value, Number.isInteger(value) ? 0 : 1) });
}
