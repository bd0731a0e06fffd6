/**
 * A model's rows read by prepared SQL (app/db/sql) in the shape Prisma gives
 * them: the column list and the value conversions come from the data model
 * (Prisma's DMMF), so a column added to prisma/schema.prisma is read with the
 * others, typed, without touching the statements that select a whole row.
 */
import { Prisma } from "@prisma/client";
import { asBool, asDate, type Row } from "./sql";

type ScalarField = { name: string; type: string };

const fieldsByModel = new Map<string, ScalarField[]>();
function scalarFields(model: Prisma.ModelName): ScalarField[] {
  let fields = fieldsByModel.get(model);
  if (!fields) {
    const found = Prisma.dmmf.datamodel.models.find((m) => m.name === model);
    if (!found) throw new Error(`no model ${model}`);
    fields = found.fields
      .filter((f) => f.kind === "scalar" || f.kind === "enum")
      .map((f) => ({ name: f.name, type: f.type }));
    fieldsByModel.set(model, fields);
  }
  return fields;
}

/** `alias."col" AS "<prefix>col", ...` for every scalar column of the model but `except`. */
export function modelColumns(
  model: Prisma.ModelName,
  alias: string,
  options: { prefix?: string; except?: readonly string[] } = {},
): string {
  const prefix = options.prefix ?? "";
  return scalarFields(model)
    .filter((f) => !options.except?.includes(f.name))
    .map((f) => `${alias}."${f.name}" AS "${prefix}${f.name}"`)
    .join(", ");
}

function convert(type: string, value: unknown): unknown {
  if (value === null || value === undefined) return null;
  switch (type) {
    case "DateTime":
      return asDate(value);
    case "Boolean":
      return asBool(value);
    case "Int":
    case "Float":
      return typeof value === "number" ? value : Number(value);
    case "BigInt":
      return typeof value === "bigint" ? value : BigInt(value as string | number);
    default:
      return value;
  }
}

/** The model's row from a result row (columns named `<prefix>field`); columns left out of the read are null. */
export function modelRow<T>(model: Prisma.ModelName, row: Row, prefix = ""): T {
  const out: Record<string, unknown> = {};
  for (const field of scalarFields(model)) out[field.name] = convert(field.type, row[`${prefix}${field.name}`]);
  return out as T;
}
