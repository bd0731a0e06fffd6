/**
 * The locale for React components: app.tsx reads it from the request and
 * provides it; pages call useT() to translate.
 */
import { createContext, useCallback, useContext, type ReactNode } from "react";
import type { AppProviderProps } from "@shopify/polaris";
import polarisEn from "@shopify/polaris/locales/en.json";
import polarisFr from "@shopify/polaris/locales/fr.json";
import { isMessageKey, t, type Locale, type MessageKey, type MessageParams } from "./index";

const LocaleContext = createContext<Locale>("en");

export function I18nProvider({ locale, children }: { locale: Locale; children: ReactNode }) {
  return <LocaleContext.Provider value={locale}>{children}</LocaleContext.Provider>;
}

export function useLocale(): Locale {
  return useContext(LocaleContext);
}

export type Translate = (key: MessageKey, params?: MessageParams) => string;

export function useT(): Translate {
  const locale = useLocale();
  return useCallback((key, params) => t(locale, key, params), [locale]);
}

/** Polaris' own strings (pagination, close buttons...) in the same language. */
export function polarisTranslations(locale: Locale): AppProviderProps["i18n"] {
  return locale === "fr" ? polarisFr : polarisEn;
}

/** A code stored by the pipeline (e.g. Shop.pausedReason), translated when known, else verbatim. */
export function translateCode(translate: Translate, prefix: string, code: string): string {
  const key = `${prefix}.${code}`;
  return isMessageKey(key) ? translate(key) : code;
}
