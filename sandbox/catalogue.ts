/**
 * The catalogue and cities as one seller sees them: public products plus its own
 * private ones. Lookups used by lead creation live here so isolation is in one place.
 */
import type { Seed, SeedCity, SeedProduct } from "./seed";

export interface ProductView {
  id: number;
  sku: string;
  name: string;
  platform_price: string;
  in_stock: boolean;
  private: boolean;
  variants: { id: number; sku: string; name: string; in_stock: boolean }[];
}

/** What an item line resolved to; variants are priced at their product's platform price. */
export interface ResolvedItem {
  product_id: number;
  variant_id: number | null;
  sku: string;
  platform_price: string;
}

export interface SellerCatalogue {
  products: ProductView[];
  bySku(sku: string): ResolvedItem | null;
  byProductId(id: number): ResolvedItem | null;
}

export function buildSellerCatalogue(products: SeedProduct[], account: string): SellerCatalogue {
  const visible = products.filter((p) => p.private_to === null || p.private_to === account).sort((a, b) => a.id - b.id);
  const skus = new Map<string, ResolvedItem>();
  const ids = new Map<number, ResolvedItem>();
  for (const p of visible) {
    const item = { product_id: p.id, variant_id: null, sku: p.sku, platform_price: p.platform_price };
    skus.set(p.sku, item);
    ids.set(p.id, item);
    for (const v of p.variants)
      skus.set(v.sku, { product_id: p.id, variant_id: v.id, sku: v.sku, platform_price: p.platform_price });
  }
  return {
    products: visible.map((p) => ({
      id: p.id,
      sku: p.sku,
      name: p.name,
      platform_price: p.platform_price,
      in_stock: p.in_stock,
      private: p.private_to !== null,
      variants: p.variants.map((v) => ({ id: v.id, sku: v.sku, name: v.name, in_stock: v.in_stock })),
    })),
    // SKUs match exactly (case and spaces included): mapping is the caller's job.
    bySku: (sku) => skus.get(sku) ?? null,
    byProductId: (id) => ids.get(id) ?? null,
  };
}

export interface CityDirectory {
  cities: SeedCity[];
  resolve(city: string | number): SeedCity | null;
  byId(id: number): SeedCity | null;
}

const cityKey = (name: string) => name.normalize("NFC").trim().toLowerCase();

export function buildCityDirectory(cities: SeedCity[]): CityDirectory {
  const sorted = [...cities].sort((a, b) => a.id - b.id);
  const ids = new Map(sorted.map((c) => [c.id, c]));
  const names = new Map(sorted.map((c) => [cityKey(c.name), c]));
  const byId = (id: number) => ids.get(id) ?? null;
  return {
    cities: sorted,
    byId,
    // A name matches case-insensitively after trimming; accents count. A string of digits is an id.
    resolve: (city) =>
      typeof city === "number"
        ? byId(city)
        : /^\d+$/.test(city.trim())
          ? byId(Number(city.trim()))
          : (names.get(cityKey(city)) ?? null),
  };
}

export interface World {
  cities: CityDirectory;
  catalogues: Map<string, SellerCatalogue>;
}

export function buildWorld(seed: Seed): World {
  return {
    cities: buildCityDirectory(seed.cities),
    catalogues: new Map(seed.sellers.map((s) => [s.account, buildSellerCatalogue(seed.products, s.account)])),
  };
}
