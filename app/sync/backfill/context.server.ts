/**
 * The mapping context of a shop as the pipeline builds it for post-lead (cached
 * catalogue and cities, the shop's SKU mappings and city aliases, its settings),
 * read once per backfill page. Nothing is refreshed from the platform here: a dry
 * run must not spend the seller's API calls, and the run's post-lead jobs refresh
 * stale lists themselves before sending.
 */
import type { Shop } from "@prisma/client";
import type { Db } from "../../db.server";
import { mapOrderToLead, type MappingResult, type ShopOrder } from "../../leads";
import { listCityAliases } from "../../models/city-alias.server";
import { listSkuMappings } from "../../models/sku-mapping.server";
import { mappingSettingsOf, readShopSettings } from "../../models/shop-settings";
import { cachedReferenceData } from "../reference-data.server";

export type MapOrder = (order: ShopOrder) => MappingResult;

export async function backfillMapper(db: Db, shop: Shop, now: Date): Promise<MapOrder> {
  const references = cachedReferenceData(shop);
  const settings = readShopSettings(shop.settings);
  const [skuMappings, cityAliases] = await Promise.all([listSkuMappings(db, shop.domain), listCityAliases(db, shop.domain)]);
  // Built once so the mapper's per-array indexes are reused for every order.
  const base = {
    now,
    catalogue: references.catalogue,
    cities: references.cities,
    catalogueFetchedAt: references.catalogueFetchedAt,
    citiesFetchedAt: references.citiesFetchedAt,
    skuMappings,
    cityAliases,
  };
  const settingsByCurrency = new Map<string, ReturnType<typeof mappingSettingsOf>>();
  return (order) => {
    const currency = order.currency ?? "";
    let mapped = settingsByCurrency.get(currency);
    if (!mapped) settingsByCurrency.set(currency, (mapped = mappingSettingsOf(settings, order.currency)));
    // Old orders: the duplicate check against recent leads does not apply.
    return mapOrderToLead(order, { ...base, settings: mapped });
  };
}
