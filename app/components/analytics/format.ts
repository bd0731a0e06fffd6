/** Display helpers shared by the Analytics components: the locale's formatters (app/i18n/format.ts), same on server and client. */
import type { Formatter, MessageKey } from "../../i18n";
import type { Translate } from "../../i18n/react";
import type { Rate } from "../../analytics/report";
import { addDays } from "../../analytics/days";
import { isoWeekNumber } from "../../analytics/iso-week";

/** Every amount on Analytics is a sum: whole dirhams, as the cash pages and Home write theirs (the CSVs keep centimes). */
export const money = (format: Formatter, cents: number) => format.money(cents, { whole: true });
export const integer = (format: Formatter, n: number) => format.integer(n);

export function percent(format: Formatter, t: Translate, r: Rate): string {
  return r.rate === null ? t("analytics.figure.none") : format.percent(r.rate);
}

export function days(format: Formatter, t: Translate, value: number | null): string {
  if (value === null) return t("analytics.figure.none");
  return t("analytics.days", { days: format.decimal(value, Number.isInteger(value) ? 0 : 1) });
}

const monthOf = (t: Translate, day: string) => t(`date.month.${Number(day.slice(5, 7))}` as MessageKey);

/**
 * The week starting on Monday `monday`: "W47 · 16-22 Nov" / "S47 · 16-22 nov";
 * "W49 · 30 Nov-6 Dec" across months. `axis`: the charts' form, the week's number alone ("W47"), never cut.
 * The formatter has no day range, so the catalogue names the months; the numbers are the locale's.
 */
export function weekLabel(format: Formatter, t: Translate, monday: string, form: "label" | "axis" = "label"): string {
  const sunday = addDays(monday, 6);
  const from = format.integer(Number(monday.slice(8, 10)));
  const to = format.integer(Number(sunday.slice(8, 10)));
  const range =
    monday.slice(0, 7) === sunday.slice(0, 7)
      ? `${from}-${to} ${monthOf(t, sunday)}`
      : `${from} ${monthOf(t, monday)}-${to} ${monthOf(t, sunday)}`;
  return t(form === "axis" ? "analytics.week.axis" : "analytics.week.label", {
    week: format.integer(isoWeekNumber(monday)),
    range,
  });
}
