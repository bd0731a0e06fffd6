/**
 * Validation and normal form of the shop's own rules before they are stored: the same
 * normalisers as the matcher, so what is saved is what will be looked up.
 */
import { z } from "zod";
import { normalizeCityKey } from "./city-key";
import { InvalidCityAliasError, InvalidSkuMappingError } from "./errors";
import { normalizeSku, shopifyIdDigits } from "./sku-match";
import type { SkuMappingRule, SkuMappingTarget } from "./types";

const MAX_TARGETS = 20;
const MAX_QUANTITY = 1000;

const targetSchema = z.union([
  z.object({ sku: z.string().trim().min(1), quantity: z.number().int().min(1).max(MAX_QUANTITY) }).strict(),
  z.object({ product_id: z.number().int().positive(), quantity: z.number().int().min(1).max(MAX_QUANTITY) }).strict(),
]);
const targetsSchema = z.array(targetSchema).min(1).max(MAX_TARGETS);

export interface SkuMappingInput {
  sourceKind: "variant" | "sku";
  sourceKey: string;
  targets: SkuMappingTarget[];
  label?: string | null;
}

/** Checks a mapping and puts its source key in the form the matcher looks up. */
export function normalizeSkuMappingInput(input: SkuMappingInput): Required<Omit<SkuMappingRule, "id">> {
  if (input.sourceKind !== "variant" && input.sourceKind !== "sku") {
    throw new InvalidSkuMappingError('sourceKind must be "variant" or "sku"', "sourceKind");
  }
  const sourceKey =
    input.sourceKind === "variant" ? shopifyIdDigits(input.sourceKey) : normalizeSku(String(input.sourceKey ?? ""));
  if (!sourceKey) {
    throw new InvalidSkuMappingError(
      input.sourceKind === "variant" ? "sourceKey must be a Shopify variant id" : "sourceKey must be a SKU",
      "sourceKey",
    );
  }
  const parsed = targetsSchema.safeParse(input.targets);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const field = ["targets", ...issue.path]
      .map((p) => (typeof p === "number" ? `[${p}]` : p))
      .join(".")
      .replace(/\.\[/g, "[");
    throw new InvalidSkuMappingError(`${field}: ${issue.message}`, field);
  }
  const targets = parsed.data.map((t): SkuMappingTarget =>
    // Stryker disable next-line MethodExpression: equivalent, the schema has trimmed the SKU already
    "sku" in t ? { sku: t.sku.trim(), quantity: t.quantity } : { product_id: t.product_id, quantity: t.quantity },
  );
  const label = typeof input.label === "string" && input.label.trim() ? input.label.trim() : null;
  return { sourceKind: input.sourceKind, sourceKey, targets, label };
}

/** Targets read back from storage; undefined when the stored JSON is not a valid target list. */
export function parseSkuMappingTargets(json: string): SkuMappingTarget[] | undefined {
  let value: unknown;
  try {
    value = JSON.parse(json);
    // Stryker disable next-line BlockStatement: equivalent, with no value the schema below refuses it too
  } catch {
    return undefined;
  }
  const parsed = targetsSchema.safeParse(value);
  return parsed.success ? parsed.data : undefined;
}

/** The key a shop's city alias is stored under; throws when nothing city-like is left. */
export function normalizeCityAliasInput(alias: string, cityId: number): { alias: string; cityId: number } {
  const key = normalizeCityKey(typeof alias === "string" ? alias : "");
  if (!key) throw new InvalidCityAliasError("alias must contain a place name", "alias");
  if (!Number.isInteger(cityId) || cityId <= 0)
    throw new InvalidCityAliasError("cityId must be a platform city id", "cityId");
  return { alias: key, cityId };
}
