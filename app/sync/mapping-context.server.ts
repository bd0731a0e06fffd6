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

export async function loadShopRules(db: Db, shop: Shop): Promise<ShopRules> {
  const [skuMappings, cityAliases] = await Promise.all([listSkuMappings(db, shop.domain), listCityAliases(db, shop.domain)]);
  return { settings: readShopSettings(shop.settings), skuMappings, cityAliases };
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
