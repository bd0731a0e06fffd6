/**
 * How each language writes numbers, money, percentages, dates and times: one
 * row per locale, read by every formatter (app/i18n/format.ts). A language is
 * its catalogue (the words) plus its row here (the forms); nothing else in the
 * app tests which language it is. Patterns name their parts in braces.
 *
 * Written out, not taken from Intl: the server's and the browser's ICU data
 * differ (spaces, separators), and a mismatch breaks React's hydration.
 * Intl.PluralRules is used for plurals only, whose categories agree everywhere.
 */

/** How the merchant wants dirhams written (Settings): the ISO code or the "DH" Moroccans say. */
export const CURRENCY_LABELS = ["MAD", "DH"] as const;
export type CurrencyLabel = (typeof CURRENCY_LABELS)[number];

export interface LocaleFormat {
  /** BCP 47 tag for Intl.PluralRules and the page's `lang`. */
  tag: string;
  /** Writing direction of the page. */
  dir: "ltr" | "rtl";
  /** The ten digits, 0 to 9 (Latin unless the language writes others). */
  digits: string;
  decimal: string;
  /** Thousands separator. */
  group: string;
  minus: string;
  /** "{number} %". */
  percent: string;
  /** "{amount} {currency}". */
  money: string;
  /** The currency's name for each Settings choice. */
  currency: Record<CurrencyLabel, string>;
  /** Short month names, January first; null: months are written as numbers. */
  months: readonly string[] | null;
  /** Day and month: {day} {day2} {month} {month2} {monthName} {year}. */
  dayMonth: string;
  dayMonthYear: string;
  /** {hour2}:{minute2} ({second2} for exact times). */
  time: string;
  timeSeconds: string;
  /** A date and a time together: {date} {time}. */
  dateTime: string;
}

export const LATIN_DIGITS = "0123456789";

export const FORMATS = {
  en: {
    tag: "en",
    dir: "ltr",
    digits: LATIN_DIGITS,
    decimal: ".",
    group: ",",
    minus: "-",
    percent: "{number}%",
    money: "{amount} {currency}",
    currency: { MAD: "MAD", DH: "DH" },
    months: ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"],
    dayMonth: "{monthName} {day}",
    dayMonthYear: "{monthName} {day}, {year}",
    time: "{hour2}:{minute2}",
    timeSeconds: "{hour2}:{minute2}:{second2}",
    dateTime: "{date}, {time}",
  },
  fr: {
    tag: "fr",
    dir: "ltr",
    digits: LATIN_DIGITS,
    decimal: ",",
    // Narrow no-break space, as French typography and CLDR write it.
    group: "\u202f",
    minus: "-",
    percent: "{number}\u202f%",
    money: "{amount}\u00a0{currency}",
    currency: { MAD: "MAD", DH: "DH" },
    months: null,
    dayMonth: "{day2}/{month2}",
    dayMonthYear: "{day2}/{month2}/{year}",
    time: "{hour2}:{minute2}",
    timeSeconds: "{hour2}:{minute2}:{second2}",
    dateTime: "{date} à {time}",
  },
} as const satisfies Record<string, LocaleFormat>;
