/**
 * The platform catalogue and delivered cities, cached per shop on the Shop row
 * and re-read about once a day (the contract's recommended cadence) or when the
 * mapper says a miss cannot be trusted on a list that old.
 */
import type { Shop } from "@prisma/client";
import type { Db } from "../db.server";
import type { CatalogueProduct, City } from "../leads";
import type { SellerApiClient } from "../seller-api";

export const REFERENCE_MAX_AGE_MS = 24 * 3600 * 1000;

export interface ReferenceData {
  catalogue: CatalogueProduct[];
  cities: City[];
  catalogueFetchedAt?: Date;
  citiesFetchedAt?: Date;
}

/**
 * The last list parsed from each JSON text: the same text gives the same array,
 * so the mapper's indexes (memoised per array) are built once, not per order.
 */
const parsedLists = new Map<string, unknown[]>();
const PARSED_LISTS_KEPT = 64;

function parseList<T>(json: string | null): T[] {
  if (!json) return [];
  const known = parsedLists.get(json);
  if (known) return known as T[];
  const list = parseListUncached<T>(json);
  if (parsedLists.size >= PARSED_LISTS_KEPT) parsedLists.delete(parsedLists.keys().next().value!);
  parsedLists.set(json, list);
  return list;
}

function parseListUncached<T>(json: string): T[] {
  try {
    const value = JSON.parse(json) as unknown;
    return Array.isArray(value) ? (value as T[]) : [];
  } catch {
    return [];
  }
}

export function cachedReferenceData(shop: Shop): ReferenceData {
  return {
    catalogue: parseList<CatalogueProduct>(shop.catalogueJson),
    cities: parseList<City>(shop.citiesJson),
    catalogueFetchedAt: shop.catalogueFetchedAt ?? undefined,
    citiesFetchedAt: shop.citiesFetchedAt ?? undefined,
  };
}

function isStale(at: Date | undefined, now: Date, maxAgeMs: number): boolean {
  return !at || now.getTime() - at.getTime() > maxAgeMs;
}

export type ReferenceList = "catalogue" | "cities";

/** Refreshes the lists named (or the stale ones) and returns the shop's reference data. */
export async function ensureReferenceData(
  db: Db,
  shop: Shop,
  client: SellerApiClient,
  options: { now: Date; force?: readonly ReferenceList[]; maxAgeMs?: number },
): Promise<ReferenceData> {
  const data = cachedReferenceData(shop);
  const maxAgeMs = options.maxAgeMs ?? REFERENCE_MAX_AGE_MS;
  const refreshCatalogue =
    options.force?.includes("catalogue") || isStale(data.catalogueFetchedAt, options.now, maxAgeMs);
  const refreshCities = options.force?.includes("cities") || isStale(data.citiesFetchedAt, options.now, maxAgeMs);
  if (!refreshCatalogue && !refreshCities) return data;

  const update: Partial<Shop> = {};
  if (refreshCatalogue) {
    const products = await client.products();
    data.catalogue = products.map((p) => ({
      id: p.id,
      sku: p.sku,
      name: p.name,
      platform_price: p.platform_price,
      in_stock: p.in_stock,
      private: p.private,
      variants: (p.variants ?? []).map((v) => ({ ...(v as Record<string, unknown>) })),
    })) as CatalogueProduct[];
    data.catalogueFetchedAt = options.now;
    Object.assign(update, { catalogueJson: JSON.stringify(data.catalogue), catalogueFetchedAt: options.now });
  }
  if (refreshCities) {
    const cities = await client.cities();
    data.cities = cities.map((c) => ({ id: c.id, name: c.name, delivery_fee: c.delivery_fee }));
    data.citiesFetchedAt = options.now;
    Object.assign(update, { citiesJson: JSON.stringify(data.cities), citiesFetchedAt: options.now });
  }
  await db.shop.update({ where: { id: shop.id }, data: update });
  Object.assign(shop, update);
  return data;
}

/** What identifies a shop's cached lists without reading them: when each was fetched, and its size. */
export interface ReferenceVersion {
  catalogueFetchedAt: Date | null;
  citiesFetchedAt: Date | null;
  catalogueBytes: number | null;
  citiesBytes: number | null;
}

const versionKey = (v: ReferenceVersion) =>
  [v.catalogueFetchedAt?.getTime(), v.citiesFetchedAt?.getTime(), v.catalogueBytes, v.citiesBytes].join("|");

/** The lists last parsed per shop, with the version they were read at. */
const parsedByShop = new Map<string, { key: string; data: ReferenceData }>();

/**
 * The shop's reference data for the hot path: the lists parsed before while
 * their version (read with the order, no JSON) is unchanged, else read once;
 * refreshed from the platform as ensureReferenceData does when stale or asked.
 */
export async function currentReferenceData(
  db: Db,
  shop: Shop,
  version: ReferenceVersion,
  client: SellerApiClient | undefined,
  options: { now: Date; force?: readonly ReferenceList[] },
): Promise<ReferenceData> {
  let known = parsedByShop.get(shop.domain);
  if (!known || known.key !== versionKey(version)) {
    const lists = await db.shop.findUnique({
      where: { domain: shop.domain },
      select: { catalogueJson: true, citiesJson: true, catalogueFetchedAt: true, citiesFetchedAt: true },
    });
    Object.assign(shop, lists ?? {});
    known = { key: versionKey(version), data: cachedReferenceData(shop) };
    parsedByShop.set(shop.domain, known);
  }
  if (!client) return known.data;
  const maxAgeMs = REFERENCE_MAX_AGE_MS;
  const stale =
    isStale(known.data.catalogueFetchedAt, options.now, maxAgeMs) ||
    isStale(known.data.citiesFetchedAt, options.now, maxAgeMs);
  if (!stale && !options.force?.length) return known.data;
  if (shop.catalogueJson === null && shop.citiesJson === null) {
    Object.assign(
      shop,
      await db.shop.findUnique({ where: { domain: shop.domain }, select: { catalogueJson: true, citiesJson: true } }),
    );
  }
  const data = await ensureReferenceData(db, shop, client, options);
  parsedByShop.set(shop.domain, {
    key: versionKey({
      catalogueFetchedAt: shop.catalogueFetchedAt,
      citiesFetchedAt: shop.citiesFetchedAt,
      catalogueBytes: shop.catalogueJson === null ? null : Buffer.byteLength(shop.catalogueJson),
      citiesBytes: shop.citiesJson === null ? null : Buffer.byteLength(shop.citiesJson),
    }),
    data,
  });
  return data;
}
