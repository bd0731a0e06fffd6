/**
 * The app's two languages. The merchant's Shopify admin language picks one:
 * French for any fr* locale, English otherwise. Pure: usable on the server,
 * in the browser and in tests.
 */
import { en, type MessageKey, type Messages } from "./en";
import { fr } from "./fr";

export type { MessageKey, Messages };
export type Locale = "en" | "fr";
export const dictionaries: Record<Locale, Messages> = { en, fr };

export type MessageParams = Record<string, string | number>;

/** "fr", "fr-FR", "fr_CA" -> fr; anything else (or nothing) -> en. */
export function resolveLocale(value: string | null | undefined): Locale {
  return value && /^fr(?:$|[-_])/i.test(value.trim()) ? "fr" : "en";
}

/**
 * Shopify adds `locale` to the embedded app's URL (session tokens carry none);
 * without it, the browser's first preferred language decides.
 */
export function localeFromRequest(request: Request): Locale {
  const param = new URL(request.url).searchParams.get("locale");
  if (param) return resolveLocale(param);
  const first = request.headers.get("Accept-Language")?.split(",")[0]?.split(";")[0];
  return resolveLocale(first);
}

/** The message for key in locale, with {name} placeholders filled; unknown placeholders stay visible. */
export function t(locale: Locale, key: MessageKey, params?: MessageParams): string {
  const template = dictionaries[locale][key] ?? en[key] ?? key;
  if (!params) return template;
  return template.replace(/\{(\w+)\}/g, (whole, name: string) => (name in params ? String(params[name]) : whole));
}

/** True when key is a message key (for codes that come from data, e.g. a lead status). */
export function isMessageKey(key: string): key is MessageKey {
  return Object.prototype.hasOwnProperty.call(en, key);
}

// Formatting is done by hand, not with Intl: the server's and the browser's ICU
// data differ (spaces, separators), and a mismatch breaks hydration.

function groupThousands(digits: string, separator: string): string {
  return digits.replace(/\B(?=(\d{3})+(?!\d))/g, separator);
}

/** 123456 cents -> "1,234.56 MAD" (en) or "1 234,56 MAD" (fr). */
export function formatMoneyCents(locale: Locale, cents: number, currency = "MAD"): string {
  const negative = cents < 0;
  const abs = Math.abs(Math.round(cents));
  const whole = groupThousands(String(Math.floor(abs / 100)), locale === "fr" ? "\u202f" : ",");
  const fraction = String(abs % 100).padStart(2, "0");
  return `${negative ? "-" : ""}${whole}${locale === "fr" ? "," : "."}${fraction} ${currency}`;
}

/** 0.8125 -> "81.3%" (en) or "81,3 %" (fr). */
export function formatPercent(locale: Locale, ratio: number): string {
  const value = (Math.round(ratio * 1000) / 10).toFixed(1).replace(/\.0$/, "");
  return locale === "fr" ? `${value.replace(".", ",")}\u202f%` : `${value}%`;
}

export function formatInteger(locale: Locale, value: number): string {
  return groupThousands(String(Math.round(value)), locale === "fr" ? "\u202f" : ",");
}

/** An ISO instant as "2025-03-14 09:05 UTC": unambiguous and identical on server and client. */
export function formatInstant(iso: string): string {
  return `${iso.slice(0, 10)} ${iso.slice(11, 16)} UTC`;
}
