/**
 * The app's languages: each is a catalogue (en.ts, fr.ts: the words) and a row
 * of the format table (formats.ts: numbers, money, dates). Adding a language
 * is adding both here; nothing else in the app asks which language it is. The
 * merchant's Shopify admin language picks one (English when the app has none).
 * Pure: usable on the server, in the browser and in tests.
 */
import polarisEn from "@shopify/polaris/locales/en.json";
import polarisFr from "@shopify/polaris/locales/fr.json";
import { en, type MessageKey, type Messages } from "./en";
import { fr } from "./fr";
import { FORMATS, type CurrencyLabel, type LocaleFormat } from "./formats";
import { createFormatter, type Formatter } from "./format";
import { parseMessage, renderParts, type MessageContext, type MessageValues } from "./message-format";
import { renderMessage, type MessageRef } from "./message-ref";
import {
  isPseudoLocale,
  PSEUDO_FORMATS,
  PSEUDO_LOCALES,
  pseudoCatalogue,
  pseudoNested,
  type PseudoLocale,
} from "./pseudo";

export type { MessageKey, Messages, CurrencyLabel, Formatter, LocaleFormat };

/** Polaris' own strings (pagination, close buttons...): nested, with {name} placeholders. */
export type PolarisStrings = typeof polarisEn;

/** The languages merchants are offered: the app's words, their forms, and Polaris' words. */
const LANGUAGES = {
  en: { messages: en, format: FORMATS.en, polaris: polarisEn },
  fr: { messages: fr, format: FORMATS.fr, polaris: polarisFr as PolarisStrings },
} satisfies Record<string, { messages: Messages; format: LocaleFormat; polaris: PolarisStrings }>;

export type Language = keyof typeof LANGUAGES;
/** A language, or a pseudo-locale (tests and developers only: see pseudo.ts). */
export type Locale = Language | PseudoLocale;
export const LANGUAGE_CODES = Object.keys(LANGUAGES) as Language[];
const DEFAULT_LOCALE: Language = "en";

export type MessageParams = MessageValues;

const isLanguage = (value: string): value is Language => Object.prototype.hasOwnProperty.call(LANGUAGES, value);

/** A pseudo-locale's version of something English, generated on first use and kept. */
function perPseudoLocale<T>(make: (locale: PseudoLocale) => T): (locale: PseudoLocale) => T {
  const made = new Map<PseudoLocale, T>();
  return (locale) => {
    if (!made.has(locale)) made.set(locale, make(locale));
    return made.get(locale)!;
  };
}

const pseudoMessages = perPseudoLocale((locale) => pseudoCatalogue(locale, en));
const pseudoPolaris = perPseudoLocale((locale) => pseudoNested(locale, polarisEn));

/** The catalogue of a locale; a pseudo-locale's is generated from the English one. */
export function messagesOf(locale: Locale): Messages {
  return isLanguage(locale) ? LANGUAGES[locale].messages : pseudoMessages(locale);
}

/** Polaris' strings in the locale (a pseudo-locale's generated from English). */
export function polarisStringsOf(locale: Locale): PolarisStrings {
  return isLanguage(locale) ? LANGUAGES[locale].polaris : pseudoPolaris(locale);
}

/** The locale's row of the format table. */
export function formatOf(locale: Locale): LocaleFormat {
  return isLanguage(locale) ? LANGUAGES[locale].format : PSEUDO_FORMATS[locale];
}

export interface ResolveOptions {
  /** Accept en-XA and ar-XB (PSEUDO_LOCALES in the environment). */
  pseudo?: boolean;
}

/** "fr", "fr-FR", "fr_CA" -> fr; a language the app does not have (or nothing) -> en. */
export function resolveLocale(value: string | null | undefined, options: ResolveOptions = {}): Locale {
  const tag = value?.trim().replace(/_/g, "-") ?? "";
  if (options.pseudo) {
    const pseudo = PSEUDO_LOCALES.find((p) => p.toLowerCase() === tag.toLowerCase());
    if (pseudo) return pseudo;
  }
  const language = tag.split("-")[0].toLowerCase();
  return isLanguage(language) ? language : DEFAULT_LOCALE;
}

/** True for a locale this build can show (what a loader may hand to the page). */
export function isLocale(value: unknown): value is Locale {
  return typeof value === "string" && (isLanguage(value) || isPseudoLocale(value));
}

/**
 * Shopify adds `locale` to the embedded app's URL (session tokens carry none);
 * without it, the browser's first preferred language decides.
 */
export function localeFromRequest(request: Request, options: ResolveOptions = {}): Locale {
  const param = new URL(request.url).searchParams.get("locale");
  if (param) return resolveLocale(param, options);
  const first = request.headers.get("Accept-Language")?.split(",")[0]?.split(";")[0];
  return resolveLocale(first, options);
}

const contexts = new Map<Locale, MessageContext>();

function messageContext(locale: Locale): MessageContext {
  let context = contexts.get(locale);
  if (!context) {
    const rules = new Intl.PluralRules(formatOf(locale).tag);
    const format = createFormatter(formatOf(locale));
    context = { plural: (n) => rules.select(n), number: (n) => format.integer(n) };
    contexts.set(locale, context);
  }
  return context;
}

/** The message for key in locale, placeholders filled and plurals chosen; unknown placeholders stay visible. */
export function t(locale: Locale, key: MessageKey, params?: MessageParams): string {
  const template = messagesOf(locale)[key] ?? en[key] ?? key;
  return renderParts(parseMessage(template), params, messageContext(locale));
}

/** True when key is a message key (for codes that come from data, e.g. a lead status). */
export function isMessageKey(key: string): key is MessageKey {
  return Object.prototype.hasOwnProperty.call(en, key);
}

/** The formatters of a locale, money written with the shop's choice of currency name. */
export function formatterFor(locale: Locale, options: { currency?: CurrencyLabel } = {}): Formatter {
  return createFormatter(formatOf(locale), options);
}

const englishContext = {
  t: (key: MessageKey, params?: MessageParams) => t("en", key, params),
  format: formatterFor("en"),
};

/** A stored sentence in English: what the database keeps beside its reference, for readers without a locale. */
export function english(ref: MessageRef): string {
  return renderMessage(ref, englishContext);
}
