/**
 * A shop's mapping context as every caller of the mapper builds it: reference
 * lists (cached catalogue and cities), the shop's SKU mappings and city aliases,
 * and its settings. One place, so posting and the backfill's dry run judge an
 * order by the same rules.
 */
import type { Shop } from "@prisma/client";
import type { Db } from "../db.server";
import type { MappingContext, RecentLeadsSource } from "../leads";
import { listCityAliases } from "../models/city-alias.server";
import { listSkuMappings } from "../models/sku-mapping.server";
import { mappingSettingsOf, readShopSettings, type ShopSettings } from "../models/shop-settings";
import type { ReferenceData } from "./reference-data.server";

export interface ShopRules {
  settings: ShopSettings;
  skuMappings: Awaited<ReturnType<typeof listSkuMappings>>;
  cityAliases: Awaited<ReturnType<typeof listCityAliases>>;
}

/**
 * The same rules as last time give the same arrays: the mapper memoises its
 * city and SKU indexes per array, so they are built once per change, not per order.
 */
const lastRules = new Map<string, { json: string; list: unknown }>();
function sameAsLastTime<T>(key: string, list: T): T {
  const json = JSON.stringify(list);
  const last = lastRules.get(key);
  if (last && last.json === json) return last.list as T;
  lastRules.set(key, { json, list });
  return list;
}

export async function loadShopRules(db: Db, shop: Shop): Promise<ShopRules> {
  const [skuMappings, cityAliases] = await Promise.all([
    listSkuMappings(db, shop.domain),
    listCityAliases(db, shop.domain),
  ]);
  return {
    settings: readShopSettings(shop.settings),
    skuMappings: sameAsLastTime(`sku:${shop.domain}`, skuMappings),
    cityAliases: sameAsLastTime(`city:${shop.domain}`, cityAliases),
  };
}

/** What identifies a shop's mapping rules without reading them: each table's row count and latest change. */
export interface RulesVersion {
  skuCount: number;
  skuChangedAt: string | null;
  aliasCount: number;
  aliasChangedAt: string | null;
}

const rulesByShop = new Map<
  string,
  { key: string; skuMappings: ShopRules["skuMappings"]; cityAliases: ShopRules["cityAliases"] }
>();

/** loadShopRules for the hot path: the rules read before while their version (read with the order) is unchanged. */
export async function currentShopRules(db: Db, shop: Shop, version: RulesVersion): Promise<ShopRules> {
  const key = JSON.stringify(version);
  const known = rulesByShop.get(shop.domain);
  if (known && known.key === key)
    return {
      settings: readShopSettings(shop.settings),
      skuMappings: known.skuMappings,
      cityAliases: known.cityAliases,
    };
  const rules = await loadShopRules(db, shop);
  rulesByShop.set(shop.domain, { key, skuMappings: rules.skuMappings, cityAliases: rules.cityAliases });
  return rules;
}

export function mappingContext(
  references: ReferenceData,
  rules: ShopRules,
  options: { now: Date; currency?: string; recentLeads?: RecentLeadsSource },
): MappingContext {
  return {
    now: options.now,
    catalogue: references.catalogue,
    cities: references.cities,
    catalogueFetchedAt: references.catalogueFetchedAt,
    citiesFetchedAt: references.citiesFetchedAt,
    skuMappings: rules.skuMappings,
    cityAliases: rules.cityAliases,
    ...(options.recentLeads ? { recentLeads: options.recentLeads } : {}),
    settings: mappingSettingsOf(rules.settings, options.currency),
  };
}
