/**
 * The app's formatters: numbers, money, percentages, dates and times, each read
 * from the locale's row of the format table (formats.ts). Pure and the same on
 * the server and in the browser.
 *
 * Times arrive already in the shop's time zone, as wall-clock text made by the
 * server ("2026-11-26 12:41:07", see zonedTime): the browser's time-zone data
 * may differ from the server's, and the page must say the same on both sides.
 */
import type { CurrencyLabel, LocaleFormat } from "./formats";

/** A wall-clock time in the shop's zone, "YYYY-MM-DD HH:MM[:SS]", or a day "YYYY-MM-DD". */
export type LocalTime = string;

export interface Formatter {
  /** 1234 -> "1,234" / "1 234". */
  integer(value: number): string;
  /** value with `fraction` decimals (trailing zeros kept). */
  decimal(value: number, fraction: number): string;
  /** 0.8125 -> "81.3%" / "81,3 %" (one decimal, none when whole). */
  percent(ratio: number): string;
  /**
   * 22900 -> "229 MAD"; 22950 -> "229.50 MAD" / "229,50 DH": whole dirhams without decimals. With
   * `whole`, rounded to the dirham ("230 MAD"): a total read at a glance beside others that are whole
   * (the cash page's headline and age bands), the rows below keeping their centimes.
   */
  money(cents: number, options?: { whole?: boolean }): string;
  /** A stored decimal amount ("229.00") as money (in `currency` when not dirhams); the text itself when it is not one. */
  moneyText(amount: string, currency?: string): string;
  /** The currency's name alone (chart axes). */
  currency(): string;
  /** "2026-11-26" or a local time -> "Nov 26" / "26/11". */
  dayMonth(local: LocalTime): string;
  /** -> "Nov 26, 2026" / "26/11/2026". */
  date(local: LocalTime): string;
  /** -> "12:41" (or "12:41:07" with seconds). */
  time(local: LocalTime, options?: { seconds?: boolean }): string;
  /** -> "Nov 26, 12:41" / "26/11 à 12:41"; with the year when asked. */
  dateTime(local: LocalTime, options?: { year?: boolean; seconds?: boolean }): string;
}

function fill(pattern: string, values: Record<string, string>): string {
  return pattern.replace(/\{(\w+)\}/g, (whole, name: string) => values[name] ?? whole);
}

export function createFormatter(row: LocaleFormat, options: { currency?: CurrencyLabel } = {}): Formatter {
  const toDigits = (text: string) =>
    row.digits === "0123456789" ? text : text.replace(/\d/g, (d) => row.digits[Number(d)]);
  const group = (digits: string) => digits.replace(/\B(?=(\d{3})+(?!\d))/g, "\uE000");
  /** Latin digits with "." and U+E000 as placeholders -> the row's symbols. */
  const localise = (text: string) =>
    toDigits(text)
      .replace(".", row.decimal)
      .replace(/\uE000/g, row.group);

  function decimal(value: number, fraction: number): string {
    const negative = value < 0;
    const fixed = Math.abs(value).toFixed(fraction);
    const [whole, frac] = fixed.split(".");
    const text = localise(group(whole) + (frac !== undefined ? `.${frac}` : ""));
    return negative && Number(fixed) !== 0 ? row.minus + text : text;
  }

  const currencyName = row.currency[options.currency ?? "MAD"];

  function money(cents: number, options: { whole?: boolean } = {}): string {
    const rounded = options.whole ? Math.round(cents / 100) * 100 : Math.round(cents);
    const amount = rounded % 100 === 0 ? decimal(rounded / 100, 0) : decimal(rounded / 100, 2);
    return fill(row.money, { amount, currency: currencyName });
  }

  function parts(local: LocalTime) {
    const m = /^(\d{4})-(\d{2})-(\d{2})(?:[ T](\d{2}):(\d{2})(?::(\d{2}))?)?/.exec(local);
    if (!m) return null;
    const [, year, month, day, hour = "00", minute = "00", second = "00"] = m;
    const monthIndex = Number(month) - 1;
    return {
      year: toDigits(year),
      month: toDigits(String(Number(month))),
      month2: toDigits(month),
      monthName: row.months?.[monthIndex] ?? toDigits(month),
      day: toDigits(String(Number(day))),
      day2: toDigits(day),
      hour2: toDigits(hour),
      minute2: toDigits(minute),
      second2: toDigits(second),
    };
  }

  const dated = (pattern: keyof Pick<LocaleFormat, "dayMonth" | "dayMonthYear">) => (local: LocalTime) => {
    const p = parts(local);
    return p ? fill(row[pattern], p) : local;
  };

  function time(local: LocalTime, options: { seconds?: boolean } = {}): string {
    const p = parts(local);
    return p ? fill(options.seconds ? row.timeSeconds : row.time, p) : local;
  }

  return {
    integer: (value) => decimal(Math.round(value), 0),
    decimal,
    percent(ratio) {
      const tenths = Math.round(ratio * 1000) / 10;
      return fill(row.percent, { number: decimal(tenths, Number.isInteger(tenths) ? 0 : 1) });
    },
    money,
    moneyText(amount, currency) {
      const value = Number(amount.trim());
      if (amount.trim() === "" || !Number.isFinite(value)) return amount;
      if (!currency || currency === "MAD") return money(Math.round(value * 100));
      return fill(row.money, { amount: decimal(value, 2), currency });
    },
    currency: () => currencyName,
    dayMonth: dated("dayMonth"),
    date: dated("dayMonthYear"),
    time,
    dateTime(local, options = {}) {
      const p = parts(local);
      if (!p) return local;
      return fill(row.dateTime, {
        date: fill(options.year ? row.dayMonthYear : row.dayMonth, p),
        time: time(local, options),
      });
    },
  };
}
