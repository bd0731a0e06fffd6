/**
 * The locale for React components: the app layout reads it from the request
 * (with the shop's choice of currency name) and provides it; pages call useT()
 * to translate and useFormat() to write numbers, money and dates.
 */
import { createContext, useCallback, useContext, useMemo, type ReactNode } from "react";
import type { AppProviderProps } from "@shopify/polaris";
import {
  formatOf,
  formatterFor,
  isMessageKey,
  polarisStringsOf,
  t,
  type CurrencyLabel,
  type Formatter,
  type Locale,
  type MessageKey,
  type MessageParams,
} from "./index";
import { renderMessage, type MessageRef } from "./message-ref";

interface I18nValue {
  locale: Locale;
  currency: CurrencyLabel;
  setCurrency: (currency: CurrencyLabel) => void;
}

const ignore = () => undefined;
const LocaleContext = createContext<I18nValue>({ locale: "en", currency: "MAD", setCurrency: ignore });

export function I18nProvider({
  locale,
  currency = "MAD",
  setCurrency = ignore,
  children,
}: {
  locale: Locale;
  currency?: CurrencyLabel;
  /** Settings saved another currency name: the pages write it from now on. */
  setCurrency?: (currency: CurrencyLabel) => void;
  children: ReactNode;
}) {
  const value = useMemo(() => ({ locale, currency, setCurrency }), [locale, currency, setCurrency]);
  return <LocaleContext.Provider value={value}>{children}</LocaleContext.Provider>;
}

/** For Settings: the shop chose another way to write dirhams. */
export function useSetCurrency(): (currency: CurrencyLabel) => void {
  return useContext(LocaleContext).setCurrency;
}

export function useLocale(): Locale {
  return useContext(LocaleContext).locale;
}

export type Translate = (key: MessageKey, params?: MessageParams) => string;

export function useT(): Translate {
  const locale = useLocale();
  return useCallback((key, params) => t(locale, key, params), [locale]);
}

/** The locale's formatters (format table row), money in the shop's currency name. */
export function useFormat(): Formatter {
  const { locale, currency } = useContext(LocaleContext);
  return useMemo(() => formatterFor(locale, { currency }), [locale, currency]);
}

/** A stored sentence (code and parameters) in the reader's language. */
export function useMessage(): (ref: MessageRef) => string {
  const translate = useT();
  const format = useFormat();
  return useCallback((ref) => renderMessage(ref, { t: translate, format }), [translate, format]);
}

/** The page's writing direction and language tag. */
export function documentLanguage(locale: Locale): { lang: string; dir: "ltr" | "rtl" } {
  return { lang: locale, dir: formatOf(locale).dir };
}

/** Polaris' own strings (pagination, close buttons...) in the same language. */
export function polarisTranslations(locale: Locale): AppProviderProps["i18n"] {
  return polarisStringsOf(locale);
}

/** A time zone by its name in the reader's language ("Morocco time", "heure du Maroc"); else its IANA name. */
export function zoneName(translate: Translate, timeZone: string): string {
  const key = `time.zone.${timeZone}`;
  return isMessageKey(key) ? translate(key) : timeZone.replace(/_/g, " ");
}

/** A code stored by the pipeline (e.g. Shop.pausedReason), translated when known, else verbatim. */
export function translateCode(translate: Translate, prefix: string, code: string): string {
  const key = `${prefix}.${code}`;
  return isMessageKey(key) ? translate(key) : code;
}
