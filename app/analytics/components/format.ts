/** Display helpers shared by the Analytics components (locale-exact, same on server and client). */
import { formatInteger, formatMoneyCents, formatPercent, type Locale } from "../../i18n";
import type { Translate } from "../../i18n/react";
import type { Rate } from "../report";

export const money = (locale: Locale, cents: number) => formatMoneyCents(locale, cents);
export const integer = (locale: Locale, n: number) => formatInteger(locale, n);

export function percent(locale: Locale, t: Translate, r: Rate): string {
  return r.rate === null ? t("analytics.figure.none") : formatPercent(locale, r.rate);
}

export function days(locale: Locale, t: Translate, value: number | null): string {
  if (value === null) return t("analytics.figure.none");
  const text = Number.isInteger(value) ? String(value) : value.toFixed(1);
  return t("analytics.days", { days: locale === "fr" ? text.replace(".", ",") : text });
}

/** Downloads url through App Bridge's authenticated fetch (a plain link carries no session token). */
export async function download(url: string, filename: string): Promise<void> {
  const response = await fetch(url);
  if (!response.ok) throw new Error(`export answered ${response.status}`);
  const href = URL.createObjectURL(await response.blob());
  const link = document.createElement("a");
  link.href = href;
  link.download = filename;
  document.body.appendChild(link);
  link.click();
  link.remove();
  URL.revokeObjectURL(href);
}
