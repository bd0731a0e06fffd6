/**
 * The shop's mapping settings with their defaults. The default hold policy holds what
 * the platform would store as a damaged lead anyway (unknown SKU or city, amount not in
 * MAD) so the merchant fixes it once, here, and sends the rest with warnings.
 */
import { DEFAULT_COD_GATEWAY_PATTERNS } from "./cod";
import { DEFAULT_CITY_FUZZY_THRESHOLD } from "./city-match";
import type { HoldPolicy, MappingContext, MappingSettings } from "./types";

export const DEFAULT_HOLD_POLICY: Readonly<HoldPolicy> = Object.freeze({
  city_missing: "hold",
  city_unmatched: "hold",
  city_fuzzy: "hold",
  city_from_address: "send",
  sku_missing: "hold",
  sku_unmatched: "hold",
  item_out_of_stock: "send",
  currency_not_mad: "hold",
  total_below_cost: "send",
  possible_duplicate: "send",
  phone_unverified: "send",
  name_missing: "send",
});

/** The platform's default duplicate interval (DESIGN section 5). */
export const DEFAULT_DUPLICATE_WINDOW_MINUTES = 10;
/** "Not found after refreshing a list older than an hour": an older list may just be stale, so it is refreshed before a miss is trusted. */
export const DEFAULT_REFERENCE_MAX_AGE_MINUTES = 60;

export const DEFAULT_SETTINGS: Readonly<MappingSettings> = Object.freeze({
  codGatewayPatterns: [...DEFAULT_COD_GATEWAY_PATTERNS],
  sendAllOrders: false,
  sendTestOrders: false,
  holdPolicy: { ...DEFAULT_HOLD_POLICY },
  duplicateWindowMinutes: DEFAULT_DUPLICATE_WINDOW_MINUTES,
  cityFuzzyThreshold: DEFAULT_CITY_FUZZY_THRESHOLD,
  referenceMaxAgeMinutes: DEFAULT_REFERENCE_MAX_AGE_MINUTES,
});

const cache = new WeakMap<object, MappingSettings>();

/** Partial settings completed with the defaults (memoised per settings object). */
export function resolveSettings(partial: MappingContext["settings"]): MappingSettings {
  if (!partial) return DEFAULT_SETTINGS;
  const cached = cache.get(partial);
  if (cached) return cached;
  const number = (value: unknown, fallback: number, min: number, max: number) =>
    // Stryker disable next-line ConditionalExpression: equivalent, Number.isFinite is false for anything but a number
    typeof value === "number" && Number.isFinite(value) ? Math.min(max, Math.max(min, value)) : fallback;
  const resolved: MappingSettings = {
    codGatewayPatterns: Array.isArray(partial.codGatewayPatterns)
      ? partial.codGatewayPatterns.filter((p): p is string => typeof p === "string")
      : DEFAULT_SETTINGS.codGatewayPatterns,
    sendAllOrders: partial.sendAllOrders === true,
    sendTestOrders: partial.sendTestOrders === true,
    holdPolicy: { ...DEFAULT_HOLD_POLICY, ...partial.holdPolicy },
    duplicateWindowMinutes: number(partial.duplicateWindowMinutes, DEFAULT_DUPLICATE_WINDOW_MINUTES, 0, 7 * 24 * 60),
    cityFuzzyThreshold: number(partial.cityFuzzyThreshold, DEFAULT_CITY_FUZZY_THRESHOLD, 0.5, 1),
    referenceMaxAgeMinutes: number(partial.referenceMaxAgeMinutes, DEFAULT_REFERENCE_MAX_AGE_MINUTES, 0, 7 * 24 * 60),
    ...(typeof partial.shopCurrency === "string" ? { shopCurrency: partial.shopCurrency } : {}),
  };
  cache.set(partial, resolved);
  return resolved;
}
