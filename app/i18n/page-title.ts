/**
 * A page's document title in the merchant's language, for a route's `meta` export: the
 * app layout's loader (routes/app) carries the locale. "Mappings · COD Lead Sync".
 */
import { t, type Locale, type MessageKey, type MessageParams } from "./index";

export function pageTitle(matches: readonly { id: string; data: unknown }[], key: MessageKey, params?: MessageParams) {
  const data = matches.find((m) => m.id === "routes/app")?.data as { locale?: Locale } | undefined;
  const locale = data?.locale ?? "en";
  return [{ title: `${t(locale, key, params)} · ${t(locale, "app.title")}` }];
}
