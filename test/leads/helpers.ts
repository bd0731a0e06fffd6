/**
 * Fixtures for the mapping tests: the sandbox's seed catalogue and cities (read from
 * sandbox/seed, never copied), and builders for orders and contexts.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import type { CatalogueProduct, City, MappingContext, ShopLineItem, ShopOrder } from "../../app/leads";

const root = join(import.meta.dirname, "..", "..");

interface SeedProduct extends Omit<CatalogueProduct, "private"> {
  private_to: string | null;
}

export function readJson<T>(...path: string[]): T {
  return JSON.parse(readFileSync(join(root, ...path), "utf8")) as T;
}

export const cities: City[] = readJson<City[]>("sandbox", "seed", "cities.json");

/** The catalogue as GET /v1/products shows it to `account`: public products plus its own private ones. */
export function catalogueFor(account = "ACC-1001"): CatalogueProduct[] {
  return readJson<SeedProduct[]>("sandbox", "seed", "products.json")
    .filter((p) => p.private_to === null || p.private_to === account)
    .map(({ private_to, ...p }) => ({ ...p, private: private_to !== null }));
}

export const catalogue = catalogueFor();

export function cityId(name: string): number {
  const city = cities.find((c) => c.name === name);
  if (!city) throw new Error(`no seed city ${name}`);
  return city.id;
}

export const NOW = new Date("2026-03-10T12:00:00Z");
export const FRESH = new Date("2026-03-10T11:50:00Z");

export function line(overrides: Partial<ShopLineItem> = {}): ShopLineItem {
  return {
    id: "111",
    variantId: "4001",
    productId: "3001",
    sku: "ARG-OIL-50",
    name: "Huile d'argan 50 ml",
    title: "Huile d'argan 50 ml",
    quantity: 1,
    requiresShipping: true,
    giftCard: false,
    ...overrides,
  };
}

/** A plain COD order from Casablanca for one argan oil at 149.00 MAD. */
export function order(overrides: Partial<ShopOrder> = {}): ShopOrder {
  return {
    id: "5551234567890",
    name: "#1001",
    currency: "MAD",
    presentmentCurrency: "MAD",
    currentTotal: { amount: "149.00", currencyCode: "MAD" },
    currentTotalPresentment: { amount: "149.00", currencyCode: "MAD" },
    financialStatus: "pending",
    paymentGatewayNames: ["Cash on Delivery (COD)"],
    test: false,
    shippingAddress: {
      firstName: "Fatima",
      lastName: "Zahra",
      address1: "12 Rue Ibnou Mounir",
      city: "Casablanca",
      countryCode: "MA",
      phone: "0612345678",
    },
    lineItems: [line()],
    tags: [],
    ...overrides,
  };
}

export function context(overrides: Partial<MappingContext> = {}): MappingContext {
  return {
    now: NOW,
    catalogue,
    cities,
    catalogueFetchedAt: FRESH,
    citiesFetchedAt: FRESH,
    ...overrides,
  };
}

export function withAddress(o: ShopOrder, fields: Partial<NonNullable<ShopOrder["shippingAddress"]>>): ShopOrder {
  return { ...o, shippingAddress: { ...o.shippingAddress, ...fields } };
}
