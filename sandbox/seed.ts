/** Seed data (cities, catalogue, sellers) read from sandbox/seed/, validated once. */
import { readFileSync } from "node:fs";
import { z } from "zod";

const decimal = z.string().regex(/^\d+\.\d{2}$/);

const citySchema = z.object({ id: z.number().int().positive(), name: z.string().min(1), delivery_fee: decimal });
const variantSchema = z.object({
  id: z.number().int().positive(),
  sku: z.string().min(1),
  name: z.string(),
  in_stock: z.boolean(),
});
const productSchema = z.object({
  id: z.number().int().positive(),
  sku: z.string().min(1),
  name: z.string(),
  platform_price: decimal,
  in_stock: z.boolean(),
  private_to: z.string().nullable(),
  variants: z.array(variantSchema),
});
const sellerSchema = z.object({
  account: z.string().min(1),
  name: z.string().min(1),
  lead_prefix: z.string().regex(/^[A-Z0-9]+$/),
  keys: z.array(z.object({ name: z.string().min(1), store: z.string().nullable().optional() })),
});

export type SeedCity = z.infer<typeof citySchema>;
export type SeedProduct = z.infer<typeof productSchema>;
export type SeedVariant = z.infer<typeof variantSchema>;
export type SeedSeller = z.infer<typeof sellerSchema>;

export interface Seed {
  cities: SeedCity[];
  products: SeedProduct[];
  sellers: SeedSeller[];
}

function readSeedFile<T>(name: string, schema: z.ZodType<T>): T {
  const text = readFileSync(new URL(`./seed/${name}`, import.meta.url), "utf8");
  return schema.parse(JSON.parse(text));
}

let cached: Seed | undefined;

/** The seed is immutable input, so it is read from disk once per process. */
export function loadSeed(): Seed {
  cached ??= {
    cities: readSeedFile("cities.json", z.array(citySchema)),
    products: readSeedFile("products.json", z.array(productSchema)),
    sellers: readSeedFile("sellers.json", z.array(sellerSchema)),
  };
  return cached;
}
