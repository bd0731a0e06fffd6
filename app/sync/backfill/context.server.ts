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
import { cachedReferenceData } from "../reference-data.server";
import { loadShopRules, mappingContext } from "../mapping-context.server";

export type MapOrder = (order: ShopOrder) => MappingResult;

export async function backfillMapper(db: Db, shop: Shop, now: Date): Promise<MapOrder> {
  const references = cachedReferenceData(shop);
  const rules = await loadShopRules(db, shop);
  // One context per currency, reused for every order so the mapper's per-array indexes are too.
  // Old orders: the duplicate check against recent leads does not apply.
  const contexts = new Map<string, ReturnType<typeof mappingContext>>();
  return (order) => {
    const currency = order.currency ?? "";
    let context = contexts.get(currency);
    if (!context)
      contexts.set(currency, (context = mappingContext(references, rules, { now, currency: order.currency })));
    return mapOrderToLead(order, context);
  };
}
