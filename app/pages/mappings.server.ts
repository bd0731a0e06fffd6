/**
 * The Mappings page: the shop's Shopify variants matched against the cached platform
 * catalogue, its SKU mappings (bundles included), its city aliases, and the CSV
 * import / export of both. Every read and write is scoped to the session's shop: an
 * id of another shop's row is "not found".
 */
import type { Prisma, Shop } from "@prisma/client";
import type { Db } from "../db.server";
import {
  InvalidCityAliasError,
  InvalidSkuMappingError,
  matchSku,
  type CatalogueProduct,
  type City,
  type ProductSuggestion,
  type SkuMappingRule,
  type SkuMappingTarget,
} from "../leads";
import { buildCatalogueIndex, findCatalogueSku } from "../leads/sku-match";
import {
  PAGE_CALL,
  runAdminGraphql,
  type AdminCallPolicy,
  type AdminGraphqlClient,
} from "../shopify/admin-graphql.server";
import { ShopifyAdminError } from "../shopify/errors";
import { shopifyFailureOf, type ShopifyFailureKind } from "../shopify/failure";
import { PRODUCT_VARIANTS_PAGE } from "../shopify/documents";
import { cachedReferenceData } from "../sync/reference-data.server";
import { deleteCityAlias, listCityAliases, saveCityAlias } from "../models/city-alias.server";
import { formatCityAliasesCsv, formatSkuMappingsCsv, parseMappingsCsv, type CsvRowError } from "./mappings-csv";
import { deleteSkuMapping, listSkuMappings, upsertSkuMapping } from "../models/sku-mapping.server";
import { recheckHeldOrders, type Release } from "../sync/release-held.server";

export const VARIANTS_PER_PAGE = 25;

/** A mapping or city alias id the shop does not have (another shop's, or none): the route answers 404. */
export class MappingNotFoundError extends Error {
  constructor(readonly what: string) {
    super(`${what} not found`);
    this.name = "MappingNotFoundError";
  }
}

// ---------------------------------------------------------------- views

/** One platform item the merchant can pick (a product, or one of its variants). */
export interface CatalogueOption {
  sku: string;
  productId: number;
  name: string;
  inStock: boolean;
}

export interface TargetView {
  kind: "sku" | "product";
  /** The SKU, or the product id as text. */
  key: string;
  quantity: number;
  /** Catalogue name; null when the catalogue lacks the item. */
  name: string | null;
  inStock: boolean;
}

export interface SkuMappingView {
  id: string;
  sourceKind: "variant" | "sku";
  sourceKey: string;
  label: string | null;
  targets: TargetView[];
  /** Every target is in the cached catalogue. */
  complete: boolean;
  targetsValid: boolean;
}

export interface CityAliasView {
  id: string;
  alias: string;
  cityId: number;
  cityName: string | null;
  source: "manual" | "learned";
  updatedAt: string;
}

export type VariantStatus = "mapped" | "mapping_broken" | "matched" | "unmatched" | "no_sku";

export interface VariantRow {
  /** Variant id digits. */
  variantId: string;
  sku: string | null;
  title: string;
  displayName: string;
  productTitle: string;
  status: VariantStatus;
  mappingId: string | null;
  /** What the variant resolves to (via the mapping or the catalogue). */
  items: { sku: string; name: string | null; quantity: number }[];
  suggestions: ProductSuggestion[];
}

export type VariantsResult =
  | { ok: true; rows: VariantRow[]; hasNextPage: boolean; endCursor: string | null }
  /** Shopify failed (after the short throttle waits a page allows): the page shows why, with a retry. */
  | { ok: false; error: ShopifyFailureKind; retryAfterSeconds: number | null };

export interface MappingsPageData {
  catalogue: CatalogueOption[];
  cities: { id: number; name: string }[];
  catalogueFetchedAt: string | null;
  citiesFetchedAt: string | null;
  mappings: SkuMappingView[];
  aliases: CityAliasView[];
}

/** Products and their variants, one option per SKU (the first item wins, as in the matcher). */
export function catalogueOptions(catalogue: readonly CatalogueProduct[]): CatalogueOption[] {
  const out: CatalogueOption[] = [];
  const seen = new Set<string>();
  const push = (option: CatalogueOption) => {
    if (seen.has(option.sku)) return;
    seen.add(option.sku);
    out.push(option);
  };
  for (const product of catalogue) {
    if (!product || typeof product.id !== "number") continue;
    const inStock = product.in_stock !== false;
    if (typeof product.sku === "string" && product.sku.trim())
      push({ sku: product.sku, productId: product.id, name: product.name, inStock });
    for (const variant of Array.isArray(product.variants) ? product.variants : []) {
      if (!variant || typeof variant.sku !== "string" || !variant.sku.trim()) continue;
      push({
        sku: variant.sku,
        productId: product.id,
        name: variant.name ? `${product.name} (${variant.name})` : product.name,
        inStock: inStock && variant.in_stock !== false,
      });
    }
  }
  return out;
}

function targetView(catalogue: ReturnType<typeof buildCatalogueIndex>, target: SkuMappingTarget): TargetView {
  if ("product_id" in target) {
    const product = catalogue.byProductId.get(target.product_id);
    return {
      kind: "product",
      key: String(target.product_id),
      quantity: target.quantity,
      name: product?.name ?? null,
      inStock: product ? product.in_stock !== false : false,
    };
  }
  const entry = findCatalogueSku(catalogue, target.sku);
  const name = entry
    ? entry.variant?.name
      ? `${entry.product.name} (${entry.variant.name})`
      : entry.product.name
    : null;
  return { kind: "sku", key: target.sku, quantity: target.quantity, name, inStock: entry?.inStock ?? false };
}

async function shopRow(db: Db, shop: string): Promise<Shop | null> {
  return db.shop.findUnique({ where: { domain: shop } });
}

export async function loadMappingsPage(db: Db, shop: string): Promise<MappingsPageData> {
  const [row, mappings, aliases] = await Promise.all([
    shopRow(db, shop),
    listSkuMappings(db, shop),
    listCityAliases(db, shop),
  ]);
  const references = row ? cachedReferenceData(row) : { catalogue: [] as CatalogueProduct[], cities: [] as City[] };
  const index = buildCatalogueIndex(references.catalogue);
  const cityNames = new Map(references.cities.map((c) => [c.id, c.name]));
  return {
    catalogue: catalogueOptions(references.catalogue),
    cities: references.cities.map((c) => ({ id: c.id, name: c.name })).sort((a, b) => a.name.localeCompare(b.name)),
    catalogueFetchedAt: row?.catalogueFetchedAt?.toISOString() ?? null,
    citiesFetchedAt: row?.citiesFetchedAt?.toISOString() ?? null,
    mappings: mappings.map((m) => {
      const targets = m.targets.map((t) => targetView(index, t));
      return {
        id: m.id,
        sourceKind: m.sourceKind,
        sourceKey: m.sourceKey,
        label: m.label,
        targets,
        complete: m.targetsValid && targets.every((t) => t.name !== null),
        targetsValid: m.targetsValid,
      };
    }),
    aliases: aliases.map((a) => ({
      id: a.id,
      alias: a.alias,
      cityId: a.cityId,
      cityName: cityNames.get(a.cityId) ?? null,
      source: a.source,
      updatedAt: a.updatedAt.toISOString(),
    })),
  };
}

// ---------------------------------------------------------------- Shopify variants

interface VariantsPage {
  productVariants: {
    nodes: {
      id: string;
      sku: string | null;
      title: string;
      displayName: string;
      product: { id: string; title: string } | null;
    }[];
    pageInfo: { hasNextPage: boolean; endCursor: string | null };
  };
}

/** Pure: a page of Shopify variants with how each one matches (mapping first, then catalogue SKU). */
export function matchVariants(
  nodes: VariantsPage["productVariants"]["nodes"],
  catalogue: readonly CatalogueProduct[],
  mappings: readonly SkuMappingRule[],
): VariantRow[] {
  const index = buildCatalogueIndex(catalogue);
  return nodes.map((node) => {
    const variantId = /(\d+)$/.exec(node.id)?.[1] ?? node.id;
    const sku = node.sku?.trim() ? node.sku.trim() : null;
    const match = matchSku(
      {
        id: variantId,
        variantId,
        productId: node.product ? /(\d+)$/.exec(node.product.id)?.[1] : undefined,
        ...(sku ? { sku } : {}),
        name: node.displayName,
        title: node.product?.title ?? node.displayName,
        variantTitle: node.title,
        quantity: 1,
        requiresShipping: true,
        giftCard: false,
      },
      catalogue,
      mappings,
    );
    const status: VariantStatus =
      match.status === "missing"
        ? "no_sku"
        : match.via === "mapping"
          ? match.status === "matched"
            ? "mapped"
            : "mapping_broken"
          : match.status === "matched"
            ? "matched"
            : "unmatched";
    const items =
      match.status === "missing"
        ? []
        : match.items.map((item) => {
            const view = targetView(index, item.target);
            return {
              sku: "sku" in item.target ? item.target.sku : `#${item.target.product_id}`,
              name: view.name,
              quantity: item.quantityPerUnit,
            };
          });
    return {
      variantId,
      sku,
      title: node.title,
      // Shopify names a product's only variant "Default Title": the product's name says it.
      displayName: node.title === "Default Title" && node.product ? node.product.title : node.displayName,
      productTitle: node.product?.title ?? "",
      status,
      mappingId: "mappingId" in match && match.mappingId ? match.mappingId : null,
      items: status === "unmatched" ? [] : items,
      suggestions: match.status === "matched" ? [] : match.suggestions,
    };
  });
}

/** One page of the shop's variants from Shopify, matched; a failed call is an answer, not a crash. */
export async function loadVariantsPage(
  db: Db,
  shop: string,
  admin: AdminGraphqlClient,
  options: { query?: string; after?: string | null; first?: number; policy?: AdminCallPolicy },
): Promise<VariantsResult> {
  const [row, mappings] = await Promise.all([shopRow(db, shop), listSkuMappings(db, shop)]);
  const catalogue = row ? cachedReferenceData(row).catalogue : [];
  let data: VariantsPage;
  try {
    data = await runAdminGraphql<VariantsPage>(
      admin,
      PRODUCT_VARIANTS_PAGE,
      { first: options.first ?? VARIANTS_PER_PAGE, after: options.after || null, query: options.query?.trim() || null },
      options.policy ?? PAGE_CALL,
    );
  } catch (error) {
    if (!(error instanceof ShopifyAdminError)) throw error;
    const failure = shopifyFailureOf(error);
    return { ok: false, error: failure.kind, retryAfterSeconds: failure.retryAfterSeconds };
  }
  const rules = mappings.filter((m) => m.targetsValid);
  return {
    ok: true,
    rows: matchVariants(data.productVariants.nodes, catalogue, rules),
    hasNextPage: data.productVariants.pageInfo.hasNextPage,
    endCursor: data.productVariants.pageInfo.endCursor,
  };
}

// ---------------------------------------------------------------- changes

export type RuleFieldError = { field: string; message: string };
export type ChangeResult<T = object> = ({ ok: true } & T) | { ok: false; error: RuleFieldError };
/** A saved fix: the held orders it freed (their findings already rewritten), for the page to offer sending. */
export type Released = { release: Release };

const targetsError = (message: string): { ok: false; error: RuleFieldError } => ({
  ok: false,
  error: { field: "targets", message },
});

function parseTargets(json: string): SkuMappingTarget[] | undefined {
  try {
    const value = JSON.parse(json) as unknown;
    return Array.isArray(value) ? (value as SkuMappingTarget[]) : undefined;
  } catch {
    return undefined;
  }
}

export interface SaveMappingForm {
  /** Set when editing: the mapping must be the shop's. */
  id?: string;
  sourceKind: string;
  sourceKey: string;
  /** JSON array of { sku, quantity } | { product_id, quantity }. */
  targets: string;
  label?: string;
}

/**
 * Creates or replaces a mapping (a bundle when it has several targets), then checks
 * the held orders it may free again. Throws MappingNotFoundError for another shop's id.
 */
export async function saveSkuMapping(
  db: Db,
  shop: string,
  form: SaveMappingForm,
): Promise<ChangeResult<{ id: string } & Released>> {
  const targets = parseTargets(form.targets);
  if (!targets) return targetsError("targets must be a list of platform items");
  if (form.sourceKind !== "variant" && form.sourceKind !== "sku") {
    return { ok: false, error: { field: "sourceKind", message: 'sourceKind must be "variant" or "sku"' } };
  }
  const input = { sourceKind: form.sourceKind, sourceKey: form.sourceKey, targets, label: form.label ?? null } as const;
  try {
    const saved = await db.$transaction(async (tx: Prisma.TransactionClient) => {
      if (form.id) {
        const existing = await tx.skuMapping.findFirst({ where: { id: form.id, shop }, select: { id: true } });
        if (!existing) throw new MappingNotFoundError("mapping");
        // The source may have changed: the edited row goes, the upsert below writes the new one.
        await deleteSkuMapping(tx, shop, form.id);
      }
      return upsertSkuMapping(tx, shop, input);
    });
    return { ok: true, id: saved.id, release: await recheckHeldOrders(db, shop, { kind: "products" }) };
  } catch (error) {
    if (error instanceof InvalidSkuMappingError)
      return { ok: false, error: { field: error.field, message: error.message } };
    throw error;
  }
}

export async function removeSkuMapping(db: Db, shop: string, id: string): Promise<void> {
  if (!(await deleteSkuMapping(db, shop, id))) throw new MappingNotFoundError("mapping");
}

/** Saves a city spelling, then checks the held orders it may free again. */
export async function addCityAlias(
  db: Db,
  shop: string,
  form: { alias: string; cityId: string },
): Promise<ChangeResult<{ id: string } & Released>> {
  const cityId = Number(form.cityId);
  const row = await shopRow(db, shop);
  const cities = row ? cachedReferenceData(row).cities : [];
  if (cities.length > 0 && !cities.some((c) => c.id === cityId)) {
    return { ok: false, error: { field: "cityId", message: "cityId must be one of the platform's delivered cities" } };
  }
  try {
    const saved = await saveCityAlias(db, shop, { alias: form.alias, cityId, source: "manual" });
    return { ok: true, id: saved.id, release: await recheckHeldOrders(db, shop, { kind: "cities" }) };
  } catch (error) {
    if (error instanceof InvalidCityAliasError)
      return { ok: false, error: { field: error.field, message: error.message } };
    throw error;
  }
}

export async function removeCityAlias(db: Db, shop: string, id: string): Promise<void> {
  if (!(await deleteCityAlias(db, shop, id))) throw new MappingNotFoundError("city alias");
}

// ---------------------------------------------------------------- CSV

export type CsvFileKind = "sku_mappings" | "city_aliases";

export async function exportMappingsCsv(db: Db, shop: string, kind: CsvFileKind): Promise<string> {
  if (kind === "sku_mappings") {
    const mappings = await listSkuMappings(db, shop);
    return formatSkuMappingsCsv(mappings.filter((m) => m.targetsValid));
  }
  const [row, aliases] = await Promise.all([shopRow(db, shop), listCityAliases(db, shop)]);
  return formatCityAliasesCsv(aliases, row ? cachedReferenceData(row).cities : []);
}

export type CsvImportResult =
  | ({ ok: true; kind: CsvFileKind; saved: number; rows: number } & Released)
  | { ok: false; kind: CsvFileKind | null; errors: CsvRowError[] };

// Thousands of upserts in one transaction take longer than Prisma's 5 s default.
const IMPORT_TRANSACTION = { timeout: 60_000, maxWait: 10_000 };

/** Checks every row, then saves all of them in one transaction, or nothing when any row is wrong. */
export async function importMappingsCsv(db: Db, shop: string, text: string): Promise<CsvImportResult> {
  const row = await shopRow(db, shop);
  const cities = row ? cachedReferenceData(row).cities : [];
  const parsed = parseMappingsCsv(text, { cities });
  if (!parsed.ok) return parsed;
  if (parsed.kind === "sku_mappings") {
    await db.$transaction(async (tx: Prisma.TransactionClient) => {
      for (const mapping of parsed.mappings) await upsertSkuMapping(tx, shop, mapping);
    }, IMPORT_TRANSACTION);
    return {
      ok: true,
      kind: parsed.kind,
      saved: parsed.mappings.length,
      rows: parsed.rows,
      release: await recheckHeldOrders(db, shop, { kind: "products" }),
    };
  }
  await db.$transaction(async (tx: Prisma.TransactionClient) => {
    for (const alias of parsed.aliases) await saveCityAlias(tx, shop, alias);
  }, IMPORT_TRANSACTION);
  return {
    ok: true,
    kind: parsed.kind,
    saved: parsed.aliases.length,
    rows: parsed.rows,
    release: await recheckHeldOrders(db, shop, { kind: "cities" }),
  };
}

/** What the Mappings route's action answers, by intent (the page's fetchers read it). */
export type MappingsActionResult =
  | ({ intent: "saveMapping" } & ChangeResult<{ id: string } & Released>)
  | { intent: "deleteMapping"; ok: true }
  | ({ intent: "saveAlias" } & ChangeResult<{ id: string } & Released>)
  | { intent: "deleteAlias"; ok: true }
  | ({ intent: "importCsv" } & CsvImportResult)
  | { intent: "sendReleased"; ok: true; sent: number }
  | { intent: "sendReleased"; ok: false; error: "group_changed" };
