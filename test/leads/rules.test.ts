/** The shop's own rules as stored: checked, and keyed the way the matcher looks them up. */
import { describe, expect, it } from "vitest";
import { InvalidCityAliasError, InvalidSkuMappingError } from "../../app/leads";
import {
  normalizeCityAliasInput,
  normalizeSkuMappingInput,
  parseSkuMappingTargets,
  type SkuMappingInput,
} from "../../app/leads/rules";

const refused = (input: SkuMappingInput) => {
  try {
    normalizeSkuMappingInput(input);
  } catch (error) {
    expect(error).toBeInstanceOf(InvalidSkuMappingError);
    const { field, message } = error as InvalidSkuMappingError;
    return { field, message };
  }
  throw new Error("accepted");
};

describe("normalizeSkuMappingInput", () => {
  it("keys a SKU mapping by the normalised SKU and trims targets and label", () => {
    expect(
      normalizeSkuMappingInput({
        sourceKind: "sku",
        sourceKey: " pack 1 ",
        targets: [
          { sku: " A ", quantity: 2 },
          { product_id: 5, quantity: 1 },
        ],
        label: "  Pack  ",
      }),
    ).toEqual({
      sourceKind: "sku",
      sourceKey: "PACK1",
      targets: [
        { sku: "A", quantity: 2 },
        { product_id: 5, quantity: 1 },
      ],
      label: "Pack",
    });
  });

  it("keys a variant mapping by the variant id's digits, with no blank label", () => {
    expect(
      normalizeSkuMappingInput({
        sourceKind: "variant",
        sourceKey: "gid://shopify/ProductVariant/9",
        targets: [{ sku: "A", quantity: 1 }],
        label: "  ",
      }),
    ).toEqual({
      sourceKind: "variant",
      sourceKey: "9",
      targets: [{ sku: "A", quantity: 1 }],
      label: null,
    });
  });

  it("refuses an unknown kind or a key with nothing to look up", () => {
    expect(refused({ sourceKind: "handle" as "sku", sourceKey: "x", targets: [] })).toEqual({
      field: "sourceKind",
      message: 'sourceKind must be "variant" or "sku"',
    });
    expect(refused({ sourceKind: "variant", sourceKey: "abc", targets: [] })).toEqual({
      field: "sourceKey",
      message: "sourceKey must be a Shopify variant id",
    });
    expect(refused({ sourceKind: "sku", sourceKey: "  ", targets: [] })).toEqual({
      field: "sourceKey",
      message: "sourceKey must be a SKU",
    });
    expect(refused({ sourceKind: "sku", sourceKey: undefined as unknown as string, targets: [] })).toMatchObject({
      field: "sourceKey",
    });
  });

  it("names the offending target", () => {
    expect(refused({ sourceKind: "sku", sourceKey: "A", targets: [] })).toEqual({
      field: "targets",
      message: "targets: Array must contain at least 1 element(s)",
    });
    expect(
      refused({
        sourceKind: "sku",
        sourceKey: "A",
        targets: [
          { sku: "B", quantity: 1 },
          { sku: "C", quantity: 0 },
        ],
      }),
    ).toEqual({
      field: "targets[1].quantity",
      message: "targets[1].quantity: Number must be greater than or equal to 1",
    });
    expect(refused({ sourceKind: "sku", sourceKey: "A", targets: [{ sku: "B", quantity: 1001 }] })).toMatchObject({
      field: "targets[0].quantity",
    });
  });
});

describe("parseSkuMappingTargets", () => {
  it("reads a stored target list back, and nothing from anything else", () => {
    expect(parseSkuMappingTargets('[{"sku":"A","quantity":1},{"product_id":2,"quantity":3}]')).toEqual([
      { sku: "A", quantity: 1 },
      { product_id: 2, quantity: 3 },
    ]);
    for (const json of ["nope", "[]", '{"sku":"A"}', '[{"sku":"A","quantity":1,"x":1}]'])
      expect(parseSkuMappingTargets(json), json).toBeUndefined();
  });
});

describe("normalizeCityAliasInput", () => {
  it("stores the alias under its city key", () => {
    expect(normalizeCityAliasInput(" Ville de Fès ", 3)).toEqual({ alias: "fes", cityId: 3 });
    expect(() => normalizeCityAliasInput("quartier", 3)).toThrow("alias must contain a place name");
    expect(() => normalizeCityAliasInput("Fes", 0)).toThrow("cityId must be a platform city id");
  });

  it("refuses an alias with no place name or a city id that is not one", () => {
    const fieldOf = (alias: unknown, cityId: number) => {
      try {
        normalizeCityAliasInput(alias as string, cityId);
      } catch (error) {
        expect(error).toBeInstanceOf(InvalidCityAliasError);
        return (error as InvalidCityAliasError).field;
      }
      return "accepted";
    };
    expect([
      fieldOf("quartier", 3),
      fieldOf(5, 1),
      fieldOf("Fes", 0),
      fieldOf("Fes", -2),
      fieldOf("Fes", 1.5),
      fieldOf("Fes", 1),
    ]).toEqual(["alias", "alias", "cityId", "cityId", "cityId", "accepted"]);
  });
});
