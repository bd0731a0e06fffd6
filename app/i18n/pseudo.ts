/**
 * Pseudo-locales, generated from the English catalogue (the i18n practice
 * Chrome and Android ship as developer languages): `en-XA` writes every
 * letter accented and makes each message 40 % longer inside brackets, so a
 * hard-coded string (plain letters) or a clipped label (a missing bracket)
 * shows at once; `ar-XB` mirrors each message and reads right to left, so a
 * left/right layout bug shows. Each has its own row of formats (other
 * separators, Eastern Arabic digits) so a hand-formatted number shows too.
 *
 * They prove that a language is only a catalogue and a format row; the app
 * offers them only when PSEUDO_LOCALES is on (tests, developers), never to
 * merchants.
 */
import { LATIN_DIGITS, type LocaleFormat } from "./formats";
import { mapMessageText } from "./message-format";

export const PSEUDO_LOCALES = ["en-XA", "ar-XB"] as const;
export type PseudoLocale = (typeof PSEUDO_LOCALES)[number];

export const isPseudoLocale = (value: string): value is PseudoLocale =>
  (PSEUDO_LOCALES as readonly string[]).includes(value);

const ACCENTED: Record<string, string> = Object.fromEntries(
  [..."abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"].map((c, i) => [
    c,
    [..."àƀçđéƒĝĥîĵķļɱñöþǫŕšţûṽŵẋýžÀƁÇĐÉƑĜĤÎĴĶĻṀÑÖÞǪŔŠŢÛṼŴẊÝŽ"][i],
  ]),
);

/** Opening and closing marks of an en-XA message: a label cut short loses its closing one. */
export const EN_XA_OPEN = "⟦";
export const EN_XA_CLOSE = "⟧";
/** Right-to-left override and pop: the browser draws the text mirrored. */
export const RLO = "\u202e";
export const PDF = "\u202c";

/** "Save" -> "Šàṽé" (URLs and e-mail-like runs kept). */
export function accent(text: string): string {
  return text.replace(/[A-Za-z]/g, (c) => ACCENTED[c] ?? c);
}

/** The English message as en-XA: accented, 40 % longer, bracketed; placeholders and plurals kept. */
export function enXa(template: string): string {
  let letters = 0;
  const body = mapMessageText(template, (text) => {
    letters += text.replace(/\s/g, "").length;
    return accent(text);
  });
  // Filler words, as a translation into a longer language would add (counted on the longest form's text).
  const filler = letters > 0 ? ` ${"·".repeat(Math.ceil(letters * 0.4))}` : "";
  return `${EN_XA_OPEN}${body}${filler}${EN_XA_CLOSE}`;
}

/** The English message as ar-XB: each text run drawn mirrored (right to left). */
export function arXb(template: string): string {
  return mapMessageText(template, (text) => (text.trim() ? `${RLO}${text}${PDF}` : text));
}

const PSEUDO_MESSAGE: Record<PseudoLocale, (template: string) => string> = { "en-XA": enXa, "ar-XB": arXb };

/** A whole catalogue in a pseudo-locale (also Polaris' own strings, which use the same {name} syntax). */
export function pseudoCatalogue<T extends Record<string, string>>(locale: PseudoLocale, english: T): T {
  const transform = PSEUDO_MESSAGE[locale];
  return Object.fromEntries(Object.entries(english).map(([key, value]) => [key, transform(value)])) as T;
}

/** Polaris' nested translation file, each string transformed. */
export function pseudoNested<T>(locale: PseudoLocale, value: T): T {
  if (typeof value === "string") {
    // Polaris' own placeholders are {name} too; its plural-free strings parse as messages.
    try {
      return PSEUDO_MESSAGE[locale](value) as T;
    } catch {
      return value;
    }
  }
  if (Array.isArray(value)) return value.map((v) => pseudoNested(locale, v)) as T;
  if (value && typeof value === "object") {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, pseudoNested(locale, v)])) as T;
  }
  return value;
}

/** Format rows unlike English's, so a number, date or amount formatted by hand stands out. */
export const PSEUDO_FORMATS: Record<PseudoLocale, LocaleFormat> = {
  "en-XA": {
    tag: "en",
    dir: "ltr",
    digits: LATIN_DIGITS,
    decimal: ",",
    group: ".",
    minus: "−",
    percent: "%{number}",
    money: "{currency} {amount}",
    currency: { MAD: "ṀÀÐ", DH: "ÐĤ" },
    months: ["Ĵàñ", "Ƒéƀ", "Ṁàŕ", "Àþŕ", "Ṁàý", "Ĵûñ", "Ĵûļ", "Àûĝ", "Šéþ", "Öçţ", "Ñöṽ", "Ðéç"],
    dayMonth: "{day}. {monthName}",
    dayMonthYear: "{day}. {monthName} {year}",
    time: "{hour2}ĥ{minute2}",
    timeSeconds: "{hour2}ĥ{minute2}ɱ{second2}",
    dateTime: "{date} @ {time}",
  },
  "ar-XB": {
    tag: "ar",
    dir: "rtl",
    digits: "٠١٢٣٤٥٦٧٨٩",
    decimal: "٫",
    group: "٬",
    minus: "\u061c-",
    percent: "{number}٪",
    money: "{amount} {currency}",
    currency: { MAD: "د.م.", DH: "د.م." },
    months: null,
    dayMonth: "{day2}/{month2}",
    dayMonthYear: "{day2}/{month2}/{year}",
    time: "{hour2}:{minute2}",
    timeSeconds: "{hour2}:{minute2}:{second2}",
    dateTime: "{date}، {time}",
  },
};
