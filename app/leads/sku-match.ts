/**
 * Matching a Shopify line item to platform catalogue items.
 *
 * The shop's own mappings come first (by variant id, then by SKU): they express what the
 * catalogue cannot know, such as a bundle variant that ships as several platform items.
 * Then the catalogue's product and variant SKUs, compared without case and spaces, then
 * (only when it names one item) without any punctuation. A line that matches nothing
 * carries the products it may be, each certain or likely (product-proposals.ts).
 */
import { productProposals } from "./product-proposals";
import type {
  CatalogueProduct,
  CatalogueVariant,
  ProductSuggestion,
  ShopLineItem,
  SkuMappingRule,
  SkuMappingTarget,
} from "./types";

/** The SKU as compared: upper case, no whitespace. */
export function normalizeSku(sku: string): string {
  // Stryker disable next-line Regex: equivalent, with the g flag one run or each space goes alike
  return sku.toUpperCase().replace(/\s+/g, "");
}

function looseSku(sku: string): string {
  return normalizeSku(sku).replace(/[^\p{L}\p{N}]/gu, "");
}

/** The digits of a Shopify id, from a number, "123" or "gid://shopify/ProductVariant/123". */
export function shopifyIdDigits(id: string | number | null | undefined): string | undefined {
  // Stryker disable next-line ConditionalExpression: equivalent, "null" and "undefined" hold no digits either
  if (id == null) return undefined;
  // Scanned from the end: the regex /(\d+)\s*$/ took quadratic time on a long run of digits.
  const text = String(id).trimEnd();
  let start = text.length;
  // Stryker disable next-line ConditionalExpression,EqualityOperator: equivalent, charCodeAt(-1) is NaN and ends the scan too
  while (start > 0 && text.charCodeAt(start - 1) >= 48 && text.charCodeAt(start - 1) <= 57) start--;
  return start < text.length ? text.slice(start) : undefined;
}

export interface CatalogueEntry {
  product: CatalogueProduct;
  variant?: CatalogueVariant;
  /** The SKU to send: the variant's when there is one. */
  sku: string;
  inStock: boolean;
}

export interface CatalogueIndex {
  readonly bySku: ReadonlyMap<string, CatalogueEntry>;
  readonly byLooseSku: ReadonlyMap<string, CatalogueEntry | null>;
  readonly byProductId: ReadonlyMap<number, CatalogueProduct>;
  /** Every product and variant, for proposals (product-proposals.ts). */
  readonly nameEntries: readonly CatalogueEntry[];
  readonly priceCents: ReadonlyMap<number, number>;
}

export interface MappingIndex {
  readonly byVariant: ReadonlyMap<string, SkuMappingRule>;
  readonly bySku: ReadonlyMap<string, SkuMappingRule>;
  /** SKU rules by their SKU without punctuation; null when two rules share it. */
  readonly byLooseSku: ReadonlyMap<string, SkuMappingRule | null>;
}

/** Cents of a two-decimal amount string; undefined when it is not one. */
function cents(amount: unknown): number | undefined {
  if (typeof amount !== "string" || !/^\d{1,12}(\.\d{1,2})?$/.test(amount.trim())) return undefined;
  // Stryker disable next-line MethodExpression: equivalent, Number() ignores the spaces the pattern above allowed around the amount
  const [whole, fraction = ""] = amount.trim().split(".");
  return Number(whole) * 100 + Number(fraction.padEnd(2, "0"));
}

export function buildCatalogueIndex(catalogue: readonly CatalogueProduct[]): CatalogueIndex {
  const bySku = new Map<string, CatalogueEntry>();
  const byLooseSku = new Map<string, CatalogueEntry | null>();
  const byProductId = new Map<number, CatalogueProduct>();
  const nameEntries: CatalogueEntry[] = [];
  const priceCents = new Map<number, number>();

  const addSku = (entry: CatalogueEntry) => {
    const key = normalizeSku(entry.sku);
    if (!key) return;
    if (!bySku.has(key)) bySku.set(key, entry);
    const loose = looseSku(entry.sku);
    const existing = byLooseSku.get(loose);
    // Two items that differ only by punctuation: the loose key proves neither.
    if (existing === undefined) byLooseSku.set(loose, entry);
    else if (existing && existing.sku !== entry.sku) byLooseSku.set(loose, null);
  };

  for (const product of catalogue) {
    if (!product || typeof product.id !== "number") continue;
    byProductId.set(product.id, product);
    const price = cents(product.platform_price);
    if (price !== undefined) priceCents.set(product.id, price);
    const productEntry: CatalogueEntry = { product, sku: product.sku ?? "", inStock: product.in_stock !== false };
    if (typeof product.sku === "string") addSku(productEntry);
    nameEntries.push(productEntry);
    for (const variant of Array.isArray(product.variants) ? product.variants : []) {
      if (!variant || typeof variant.sku !== "string" || !variant.sku.trim()) continue;
      const entry: CatalogueEntry = {
        product,
        variant,
        sku: variant.sku,
        inStock: product.in_stock !== false && variant.in_stock !== false,
      };
      addSku(entry);
      nameEntries.push(entry);
    }
  }
  return { bySku, byLooseSku, byProductId, nameEntries, priceCents };
}

export function buildMappingIndex(mappings: readonly SkuMappingRule[]): MappingIndex {
  const byVariant = new Map<string, SkuMappingRule>();
  const bySku = new Map<string, SkuMappingRule>();
  const byLooseSku = new Map<string, SkuMappingRule | null>();
  for (const rule of mappings) {
    if (!rule || !Array.isArray(rule.targets) || rule.targets.length === 0) continue;
    if (rule.sourceKind === "variant") {
      const id = shopifyIdDigits(rule.sourceKey);
      if (id) byVariant.set(id, rule);
    } else if (rule.sourceKind === "sku" && typeof rule.sourceKey === "string") {
      const key = normalizeSku(rule.sourceKey);
      if (key) bySku.set(key, rule);
      const loose = looseSku(rule.sourceKey);
      if (loose) byLooseSku.set(loose, byLooseSku.has(loose) ? null : rule);
    }
  }
  return { byVariant, bySku, byLooseSku };
}

export function findCatalogueSku(index: CatalogueIndex, sku: string): CatalogueEntry | undefined {
  return index.bySku.get(normalizeSku(sku)) ?? index.byLooseSku.get(looseSku(sku)) ?? undefined;
}

/** One platform item a line resolves to, before quantities are summed across lines. */
export interface ResolvedItem {
  /** What the lead item carries. */
  target: SkuMappingTarget;
  /** The catalogue entry, when the platform knows the item. */
  entry?: CatalogueEntry;
  /** Per unit of the Shopify line (a bundle target may hold several). */
  quantityPerUnit: number;
}

export type SkuMatch =
  | { status: "matched"; via: "mapping" | "sku"; items: ResolvedItem[]; mappingId?: string }
  /** A mapping names an item the catalogue lacks, or the line's SKU is not in it. */
  | {
      status: "unmatched";
      via: "mapping" | "sku";
      sku?: string;
      /** What can still be sent (the platform then flags the unknown SKU). */
      items: ResolvedItem[];
      unknown: string[];
      suggestions: ProductSuggestion[];
      mappingId?: string;
    }
  | { status: "missing"; suggestions: ProductSuggestion[] };

function resolveTarget(catalogue: CatalogueIndex, target: SkuMappingTarget): ResolvedItem {
  const perUnit = Number.isInteger(target.quantity) && target.quantity > 0 ? target.quantity : 1;
  if ("product_id" in target) {
    const product = catalogue.byProductId.get(target.product_id);
    const entry = product ? { product, sku: product.sku, inStock: product.in_stock !== false } : undefined;
    return { target: { product_id: target.product_id, quantity: perUnit }, entry, quantityPerUnit: perUnit };
  }
  const entry = findCatalogueSku(catalogue, target.sku);
  // The catalogue's own spelling, so "arg-oil-50" is sent as "ARG-OIL-50".
  return { target: { sku: entry ? entry.sku : target.sku.trim(), quantity: perUnit }, entry, quantityPerUnit: perUnit };
}

/**
 * The one catalogue item a mapping of the same SKU written another way names
 * ("huile_argan_50" when the merchant mapped "HUILE-ARGAN-50"): a fix they confirmed.
 */
function confirmedEntry(
  catalogue: CatalogueIndex,
  mappings: MappingIndex,
  sku: string | undefined,
): CatalogueEntry | undefined {
  const rule = sku ? mappings.byLooseSku.get(looseSku(sku)) : undefined;
  // A bundle is not one product: the merchant maps it again.
  if (!rule || rule.targets.length !== 1) return undefined;
  const target = rule.targets[0];
  if ("product_id" in target) {
    const product = catalogue.byProductId.get(target.product_id);
    return product ? { product, sku: product.sku, inStock: product.in_stock !== false } : undefined;
  }
  return findCatalogueSku(catalogue, target.sku);
}

/** The catalogue items an unknown line may be, certain first, then likely (product-proposals.ts). */
export function suggestProducts(
  catalogue: CatalogueIndex,
  line: Pick<ShopLineItem, "sku" | "name" | "title" | "variantTitle">,
  mappings?: MappingIndex,
): ProductSuggestion[] {
  const sku = typeof line.sku === "string" && line.sku.trim() ? line.sku.trim() : undefined;
  return productProposals(catalogue, line, mappings ? confirmedEntry(catalogue, mappings, sku) : undefined);
}

/** Matches one line item with prebuilt indexes. */
export function matchSkuWithIndex(line: ShopLineItem, catalogue: CatalogueIndex, mappings: MappingIndex): SkuMatch {
  const variantId = shopifyIdDigits(line.variantId);
  const sku = typeof line.sku === "string" && line.sku.trim() ? line.sku.trim() : undefined;
  const rule =
    (variantId !== undefined ? mappings.byVariant.get(variantId) : undefined) ??
    (sku ? mappings.bySku.get(normalizeSku(sku)) : undefined);

  if (rule) {
    const items = rule.targets.map((t) => resolveTarget(catalogue, t));
    const unknown = items
      .filter((i) => !i.entry)
      .map((i) => ("sku" in i.target ? i.target.sku : `#${i.target.product_id}`));
    const mappingId = rule.id;
    if (unknown.length === 0) return { status: "matched", via: "mapping", items, ...(mappingId ? { mappingId } : {}) };
    return {
      status: "unmatched",
      via: "mapping",
      ...(sku ? { sku } : {}),
      items,
      unknown,
      suggestions: suggestProducts(catalogue, line, mappings),
      ...(mappingId ? { mappingId } : {}),
    };
  }

  if (!sku) return { status: "missing", suggestions: suggestProducts(catalogue, line, mappings) };
  const entry = findCatalogueSku(catalogue, sku);
  if (entry)
    return {
      status: "matched",
      via: "sku",
      items: [{ target: { sku: entry.sku, quantity: 1 }, entry, quantityPerUnit: 1 }],
    };
  return {
    status: "unmatched",
    via: "sku",
    sku,
    items: [{ target: { sku, quantity: 1 }, quantityPerUnit: 1 }],
    unknown: [sku],
    suggestions: suggestProducts(catalogue, line, mappings),
  };
}

const EMPTY_MAPPINGS: readonly SkuMappingRule[] = Object.freeze([]);
const catalogueCache = new WeakMap<readonly CatalogueProduct[], CatalogueIndex>();
const mappingCache = new WeakMap<readonly SkuMappingRule[], MappingIndex>();

export function catalogueIndexFor(catalogue: readonly CatalogueProduct[]): CatalogueIndex {
  let index = catalogueCache.get(catalogue);
  // Stryker disable next-line ConditionalExpression: a cache; rebuilding every time gives the same index, only slower
  if (!index) catalogueCache.set(catalogue, (index = buildCatalogueIndex(catalogue)));
  return index;
}

export function mappingIndexFor(mappings: readonly SkuMappingRule[] = EMPTY_MAPPINGS): MappingIndex {
  let index = mappingCache.get(mappings);
  // Stryker disable next-line ConditionalExpression: a cache; rebuilding every time gives the same index, only slower
  if (!index) mappingCache.set(mappings, (index = buildMappingIndex(mappings)));
  return index;
}

/**
 * Matches one Shopify line item to platform items (the shop's mappings first, then the
 * catalogue by SKU). Indexes are memoised per array, as for `matchCity`.
 */
export function matchSku(
  line: ShopLineItem,
  catalogue: readonly CatalogueProduct[],
  mappings: readonly SkuMappingRule[] = EMPTY_MAPPINGS,
): SkuMatch {
  return matchSkuWithIndex(line, catalogueIndexFor(catalogue), mappingIndexFor(mappings));
}
