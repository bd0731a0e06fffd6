/**
 * How the cash pages write money, counts, days and weeks, in the merchant's
 * language (same text on server and client). Money in whole dirhams when it has
 * no centimes ("18,450 DH"), the way COD prices are read.
 */
import { formatInteger, formatMoneyCents, t as translate, type Locale, type MessageKey, type MessageParams } from "../../i18n";
import type { Translate } from "../../i18n/react";
import { addDays } from "../../analytics/days";
import { isoWeekNumber } from "../../analytics/iso-week";

/** 1845000 -> "18,450 DH" (en), "18 450 DH" (fr); 1845050 -> "18,450.50 DH". A no-break space keeps DH with its number. */
export function dh(locale: Locale, cents: number): string {
  const currency = translate(locale, "cash.currency");
  const text = cents % 100 === 0 ? `${formatInteger(locale, cents / 100)} ${currency}` : formatMoneyCents(locale, cents, currency);
  return text.replace(/ (?=\S+$)/, "\u00a0");
}

/** The .one or .other form of a message for count (French: 0 and 1 are singular). */
export function counted(locale: Locale, t: Translate, key: string, count: number, params: MessageParams = {}): string {
  const form = (locale === "fr" ? Math.abs(count) < 2 : count === 1) ? "one" : "other";
  return t(`${key}.${form}` as MessageKey, { count: formatInteger(locale, count), ...params });
}

const monthOf = (t: Translate, day: string) => t(`date.month.${Number(day.slice(5, 7))}` as MessageKey);

/** "2026-11-16" -> "16 Nov 2026" / "16 nov 2026". */
export function dayText(t: Translate, day: string): string {
  return t("date.day", { day: Number(day.slice(8, 10)), month: monthOf(t, day), year: day.slice(0, 4) });
}

/**
 * The week starting on Monday `monday`: "W47 · 16-22 Nov" / "S47 · 16-22 nov";
 * "W49 · 30 Nov-6 Dec" across months. `axis`: the charts' shorter form, "W47 16-22 Nov".
 */
export function weekLabel(t: Translate, monday: string, form: "label" | "axis" = "label"): string {
  const sunday = addDays(monday, 6);
  const from = Number(monday.slice(8, 10));
  const to = Number(sunday.slice(8, 10));
  const range = monday.slice(0, 7) === sunday.slice(0, 7) ? `${from}-${to} ${monthOf(t, sunday)}` : `${from} ${monthOf(t, monday)}-${to} ${monthOf(t, sunday)}`;
  return t(form === "axis" ? "analytics.week.axis" : "analytics.week.label", { week: isoWeekNumber(monday), range });
}
