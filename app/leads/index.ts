/**
 * Order -> lead mapping: Moroccan phones, cities, SKUs and totals, with explainable
 * findings. Pure: no Prisma, no Remix, no network, no clock.
 */
export { mapOrderToLead, buildMatchingContext, type PreparedContext } from "./map-order";
export { normalizeMoroccanPhone, type PhoneResult, type PhoneFailure } from "./phone";
export {
  matchCity,
  matchCityWithIndex,
  buildCityIndex,
  DEFAULT_CITY_FUZZY_THRESHOLD,
  type CityMatch,
  type CityInput,
  type CityFields,
  type CitySource,
  type CityIndex,
} from "./city-match";
export { normalizeCityKey } from "./city-key";
export { BUILT_IN_CITIES, type BuiltInCity } from "./city-aliases";
export {
  matchSku,
  matchSkuWithIndex,
  buildCatalogueIndex,
  buildMappingIndex,
  normalizeSku,
  suggestProducts,
  type SkuMatch,
  type ResolvedItem,
  type CatalogueIndex,
  type MappingIndex,
} from "./sku-match";
export { detectCod, DEFAULT_COD_GATEWAY_PATTERNS, type CodCheck } from "./cod";
export { DEFAULT_SETTINGS, DEFAULT_HOLD_POLICY, resolveSettings } from "./settings";
export { externalRefFor, parseExternalRef } from "./external-ref";
export { toCents, formatCents } from "./money";
export { fromWebhookOrder } from "./adapters/webhook-order";
export { fromGraphqlOrder, LEAD_ORDER_FIELDS } from "./adapters/graphql-order";
export {
  normalizeSkuMappingInput,
  parseSkuMappingTargets,
  normalizeCityAliasInput,
  type SkuMappingInput,
} from "./rules";
export { LeadRuleError, InvalidSkuMappingError, InvalidCityAliasError } from "./errors";
export type * from "./types";
