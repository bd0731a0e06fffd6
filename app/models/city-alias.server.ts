/**
 * A shop's own city spellings. A merchant's fix of an unmatched city is saved here
 * (source "learned") and matched for the shop's later orders before any built-in spelling.
 * Every query is scoped by shop; aliases are stored normalised, as the matcher looks them up.
 */
import type { Prisma } from "@prisma/client";
import { normalizeCityAliasInput } from "../leads/rules";
import type { CityAliasRule } from "../leads/types";

type CityAliasDb = Pick<Prisma.TransactionClient, "cityAlias">;

export interface CityAliasRecord extends CityAliasRule {
  id: string;
  source: "manual" | "learned";
  createdAt: Date;
  updatedAt: Date;
}

export interface CityAliasInput {
  /** The spelling as typed ("Casa Anfa"); stored normalised. */
  alias: string;
  cityId: number;
  source?: "manual" | "learned";
}

type Row = { id: string; alias: string; cityId: number; source: string; createdAt: Date; updatedAt: Date };

function toRecord(row: Row): CityAliasRecord {
  return {
    id: row.id,
    alias: row.alias,
    cityId: row.cityId,
    source: row.source === "learned" ? "learned" : "manual",
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
  };
}

export async function listCityAliases(db: CityAliasDb, shop: string): Promise<CityAliasRecord[]> {
  const rows = await db.cityAlias.findMany({ where: { shop }, orderBy: [{ alias: "asc" }] });
  return rows.map(toRecord);
}

/** Saves (or re-points) a spelling; throws InvalidCityAliasError when it holds no place name. */
export async function saveCityAlias(db: CityAliasDb, shop: string, input: CityAliasInput): Promise<CityAliasRecord> {
  const { alias, cityId } = normalizeCityAliasInput(input.alias, input.cityId);
  const source = input.source === "learned" ? "learned" : "manual";
  const row = await db.cityAlias.upsert({
    where: { shop_alias: { shop, alias } },
    create: { shop, alias, cityId, source },
    update: { cityId, source },
  });
  return toRecord(row);
}

/** Deletes one of the shop's aliases; false when the shop has no alias with that id. */
export async function deleteCityAlias(db: CityAliasDb, shop: string, id: string): Promise<boolean> {
  const { count } = await db.cityAlias.deleteMany({ where: { shop, id } });
  return count > 0;
}
