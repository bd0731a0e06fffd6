/**
 * A shop's own history from the app's database as the evaluation's orders: its
 * sent orders (readOddsHistory, as the daily fit reads them) with their money
 * from the shop's cached catalogue and cities (today's prices and fees).
 */
import type { PrismaClient } from "@prisma/client";
import { deliveryFeeCents, platformCostCents } from "../../../app/customers/delivery-odds.server";
import { readOddsHistory } from "../../../app/customers/odds-fit.server";
import type { CatalogueProduct, City } from "../../../app/leads/types";
import type { EvalOrder } from "./evaluate";

const list = <T>(json: string | null): T[] => {
  try {
    const value = json ? (JSON.parse(json) as unknown) : [];
    return Array.isArray(value) ? (value as T[]) : [];
  } catch {
    return [];
  }
};

export async function ordersFromDatabase(
  db: PrismaClient,
  shop: string,
): Promise<
  (Omit<EvalOrder, "address"> & {
    address?: string;
    items: { product: string; quantity: number; price: string | null }[];
  })[]
> {
  const row = await db.shop.findUnique({ where: { domain: shop }, select: { catalogueJson: true, citiesJson: true } });
  if (!row) throw new RangeError(`no shop ${shop} in this database`);
  const catalogue = list<CatalogueProduct>(row.catalogueJson);
  const cities = list<City>(row.citiesJson);
  const history = await readOddsHistory(db, shop);
  return history.map(({ address, ...o }) => ({
    ...o,
    ...(address === null ? {} : { address }),
    platformCostCents: o.items.length ? platformCostCents(o.items, catalogue) : null,
    deliveryFeeCents: deliveryFeeCents(o.cityId, cities),
    items: o.items.map((i) => {
      const cost = platformCostCents([i], catalogue);
      return {
        product: i.sku ?? String(i.product_id),
        quantity: i.quantity,
        price: cost === null ? null : (cost / i.quantity / 100).toFixed(2),
      };
    }),
  }));
}
