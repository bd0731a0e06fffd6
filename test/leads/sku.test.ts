import { describe, expect, it } from "vitest";
import { matchSku, normalizeSku, type SkuMappingRule } from "../../app/leads";
import { catalogue, catalogueFor, line } from "./helpers";

describe("matchSku: catalogue SKUs", () => {
  it.each([
    ["ARG-OIL-50", "ARG-OIL-50"],
    ["arg-oil-50", "ARG-OIL-50"],
    [" ARG-OIL-50 ", "ARG-OIL-50"],
    ["ARG - OIL - 50", "ARG-OIL-50"],
    ["Arg-Oil-50", "ARG-OIL-50"],
    ["ARG_OIL_50", "ARG-OIL-50"], // punctuation-blind fallback, unambiguous here
    ["smw-x8-blk", "SMW-X8-BLK"], // variant SKU
    ["SMW-X8", "SMW-X8"], // product SKU of a product with variants
    ["JLB-SANDAL-40", "JLB-SANDAL-40"],
  ])("matches %j to %s", (sku, expected) => {
    const match = matchSku(line({ sku }), catalogue);
    expect(match).toMatchObject({ status: "matched", via: "sku" });
    if (match.status === "matched") expect(match.items.map((i) => i.target)).toEqual([{ sku: expected, quantity: 1 }]);
  });

  it("reports the variant and its stock", () => {
    const match = matchSku(line({ sku: "SMW-X8-PNK" }), catalogue);
    expect(match.status === "matched" && match.items[0].entry).toMatchObject({
      inStock: false,
      variant: { id: 100703 },
    });
  });

  it("does not see another seller's private products", () => {
    expect(matchSku(line({ sku: "RIF-OLIVE-1L" }), catalogueFor("ACC-1001")).status).toBe("unmatched");
    expect(matchSku(line({ sku: "RIF-OLIVE-1L" }), catalogueFor("ACC-1002")).status).toBe("matched");
  });

  it("suggests products by name for an unknown SKU", () => {
    const match = matchSku(line({ sku: "HUILE-ARGAN", name: "Huile d'argan cosmétique 50ml" }), catalogue);
    expect(match.status).toBe("unmatched");
    if (match.status !== "unmatched") return;
    expect(match.items).toEqual([{ target: { sku: "HUILE-ARGAN", quantity: 1 }, quantityPerUnit: 1 }]);
    expect(match.suggestions.length).toBeGreaterThan(0);
    expect(match.suggestions.length).toBeLessThanOrEqual(3);
    expect(match.suggestions[0]).toMatchObject({ kind: "product", sku: "ARG-OIL-50" });
  });

  it("says missing when the line has no SKU and no mapping, with suggestions", () => {
    const match = matchSku(line({ sku: undefined, name: "Sandales cuir artisanal - 41" }), catalogue);
    expect(match.status).toBe("missing");
    if (match.status === "missing")
      expect(match.suggestions).toEqual([expect.objectContaining({ sku: "JLB-SANDAL-41", confidence: "certain" })]);
  });
});

describe("matchSku: the shop's mappings come first", () => {
  const mappings: SkuMappingRule[] = [
    { id: "m1", sourceKind: "variant", sourceKey: "4001", targets: [{ sku: "AMLOU-250", quantity: 1 }] },
    {
      id: "m2",
      sourceKind: "sku",
      sourceKey: " pack-Ramadan ",
      targets: [
        { sku: "arg-oil-50", quantity: 1 },
        { product_id: 1003, quantity: 2 },
      ],
    },
    { id: "m3", sourceKind: "sku", sourceKey: "OLD-SKU", targets: [{ sku: "DISCONTINUED-1", quantity: 1 }] },
    {
      id: "m4",
      sourceKind: "variant",
      sourceKey: "gid://shopify/ProductVariant/777",
      targets: [{ product_id: 1016, quantity: 1 }],
    },
  ];

  it("uses the variant mapping before the line's own SKU", () => {
    const match = matchSku(line({ variantId: "4001", sku: "ARG-OIL-50" }), catalogue, mappings);
    expect(match).toMatchObject({ status: "matched", via: "mapping", mappingId: "m1" });
    if (match.status === "matched") expect(match.items[0].target).toEqual({ sku: "AMLOU-250", quantity: 1 });
  });

  it("maps a SKU to a bundle of platform items, in the catalogue's spelling", () => {
    const match = matchSku(line({ variantId: "9", sku: "PACK-RAMADAN" }), catalogue, mappings);
    expect(match.status).toBe("matched");
    if (match.status !== "matched") return;
    expect(match.items.map((i) => [i.target, i.quantityPerUnit])).toEqual([
      [{ sku: "ARG-OIL-50", quantity: 1 }, 1],
      [{ product_id: 1003, quantity: 2 }, 2],
    ]);
  });

  it("accepts a GraphQL gid as the mapped variant", () => {
    expect(matchSku(line({ variantId: "777", sku: undefined }), catalogue, mappings)).toMatchObject({
      status: "matched",
      mappingId: "m4",
    });
  });

  it("flags a mapping that points outside the catalogue", () => {
    const match = matchSku(line({ variantId: "9", sku: "old-sku" }), catalogue, mappings);
    expect(match).toMatchObject({ status: "unmatched", via: "mapping", unknown: ["DISCONTINUED-1"], mappingId: "m3" });
  });

  it("ignores a mapping without targets", () => {
    const broken: SkuMappingRule[] = [{ sourceKind: "sku", sourceKey: "ARG-OIL-50", targets: [] }];
    expect(matchSku(line({ sku: "ARG-OIL-50" }), catalogue, broken)).toMatchObject({ status: "matched", via: "sku" });
  });
});

describe("normalizeSku", () => {
  it.each([
    ["arg-oil-50", "ARG-OIL-50"],
    [" a b\tc ", "ABC"],
    ["", ""],
  ])("%j -> %j", (input, expected) => expect(normalizeSku(input)).toBe(expected));
});
