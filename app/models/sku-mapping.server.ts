/**
 * A shop's SKU mappings: Shopify variant id or SKU -> platform SKU(s) or product id(s).
 * Every query is scoped by shop; keys are stored in the form the matcher looks up.
 */
import type { Prisma } from "@prisma/client";
import { normalizeSkuMappingInput, parseSkuMappingTargets, type SkuMappingInput } from "../leads/rules";
import type { SkuMappingRule, SkuMappingTarget } from "../leads/types";

type SkuMappingDb = Pick<Prisma.TransactionClient, "skuMapping">;

export interface SkuMappingRecord extends SkuMappingRule {
  id: string;
  label: string | null;
  /** False when the stored targets cannot be read (the mapper then ignores the rule). */
  targetsValid: boolean;
  createdAt: Date;
  updatedAt: Date;
}

type Row = {
  id: string;
  sourceKind: string;
  sourceKey: string;
  targets: string;
  label: string | null;
  createdAt: Date;
  updatedAt: Date;
};

function toRecord(row: Row): SkuMappingRecord {
  const targets: SkuMappingTarget[] | undefined = parseSkuMappingTargets(row.targets);
  return {
    id: row.id,
    sourceKind: row.sourceKind === "variant" ? "variant" : "sku",
    sourceKey: row.sourceKey,
    targets: targets ?? [],
    label: row.label,
    targetsValid: targets !== undefined && (row.sourceKind === "variant" || row.sourceKind === "sku"),
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
  };
}

export async function listSkuMappings(db: SkuMappingDb, shop: string): Promise<SkuMappingRecord[]> {
  const rows = await db.skuMapping.findMany({ where: { shop }, orderBy: [{ createdAt: "asc" }, { id: "asc" }] });
  return rows.map(toRecord);
}

/** Creates or replaces the shop's mapping for one source; throws InvalidSkuMappingError on bad input. */
export async function upsertSkuMapping(
  db: SkuMappingDb,
  shop: string,
  input: SkuMappingInput,
): Promise<SkuMappingRecord> {
  const { sourceKind, sourceKey, targets, label } = normalizeSkuMappingInput(input);
  const data = { targets: JSON.stringify(targets), label };
  const row = await db.skuMapping.upsert({
    where: { shop_sourceKind_sourceKey: { shop, sourceKind, sourceKey } },
    create: { shop, sourceKind, sourceKey, ...data },
    update: data,
  });
  return toRecord(row);
}

/** Deletes one of the shop's mappings; false when the shop has no mapping with that id. */
export async function deleteSkuMapping(db: SkuMappingDb, shop: string, id: string): Promise<boolean> {
  const { count } = await db.skuMapping.deleteMany({ where: { shop, id } });
  return count > 0;
}
