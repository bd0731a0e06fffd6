/**
 * matchSku's indexes: exact SKU before the punctuation-blind one, the first product of a
 * repeated SKU, variants, platform prices, Shopify ids, mapping targets and suggestions.
 */
import { describe, expect, it } from "vitest";
import { buildCatalogueIndex, matchSku, shopifyIdDigits, suggestProducts } from "../../app/leads/sku-match";
import type { CatalogueProduct, SkuMappingRule } from "../../app/leads";
import { line } from "./helpers";

/** A fresh copy per call: the matcher memoises its index per array, and each test must build its own. */
const CATALOGUE = [
  { id: 1, sku: "AB-1", name: "Alpha", platform_price: "45.5", in_stock: true, variants: [] },
  { id: 2, sku: "AB1", name: "Alpha bis", platform_price: " 12.00 ", in_stock: true, variants: [] },
  { id: 3, sku: "DUP", name: "First dup", platform_price: "45.555", variants: [] },
  { id: 4, sku: "dup", name: "Second dup", platform_price: "1", in_stock: true, variants: [] },
  {
    id: 5,
    sku: "SHOE",
    name: "Shoe",
    platform_price: "100.00",
    in_stock: false,
    variants: [{ sku: "SHOE-38", name: "38", in_stock: true }, { sku: "  ", name: "blank" }, null, { name: "no sku" }],
  },
  { id: 6, sku: "X.Y-Z", name: "Punct", platform_price: "1234567890123.00", variants: [] },
  { id: 8, sku: "NUM-PRICE", name: "Priced as a number", platform_price: 12, in_stock: true, variants: [] },
  {
    id: 7,
    sku: "BOOT",
    name: "Boot",
    platform_price: "50.00",
    in_stock: true,
    variants: [{ sku: "BOOT-40", name: "40", in_stock: false }],
  },
] as unknown as CatalogueProduct[];
const catalogue = (): CatalogueProduct[] => [...CATALOGUE];

const sent = (sku: string, mappings: SkuMappingRule[] = []) => {
  const m = matchSku(line({ sku }), catalogue(), mappings);
  return m.status === "matched" ? m.items.map((i) => [i.target, i.entry?.product.id, i.entry?.inStock]) : m.status;
};

describe("catalogue SKUs", () => {
  it("finds the exact SKU even when another differs from it only by punctuation", () => {
    expect(sent("AB-1")).toEqual([[{ sku: "AB-1", quantity: 1 }, 1, true]]);
    expect(sent("ab-1")).toEqual([[{ sku: "AB-1", quantity: 1 }, 1, true]]);
    expect(sent("AB1")).toEqual([[{ sku: "AB1", quantity: 1 }, 2, true]]);
    expect(sent("ab 1")).toEqual([[{ sku: "AB1", quantity: 1 }, 2, true]]);
  });

  it("does not guess between two SKUs that differ only by punctuation", () => {
    expect(sent("AB_1")).toBe("unmatched");
    expect(sent("AB.1")).toBe("unmatched");
  });

  it("ignores punctuation when it names a single item, sending the catalogue's spelling", () => {
    expect(sent("xyz")).toEqual([[{ sku: "X.Y-Z", quantity: 1 }, 6, true]]);
    expect(sent("x y/z")).toEqual([[{ sku: "X.Y-Z", quantity: 1 }, 6, true]]);
  });

  it("keeps the first product of a SKU listed twice", () => {
    expect(sent("Dup")).toEqual([[{ sku: "DUP", quantity: 1 }, 3, true]]);
  });

  it("finds variants, in stock only when both product and variant are", () => {
    expect(sent("shoe-38")).toEqual([[{ sku: "SHOE-38", quantity: 1 }, 5, false]]);
    expect(sent("SHOE")).toEqual([[{ sku: "SHOE", quantity: 1 }, 5, false]]);
    expect(sent("BOOT-40")).toEqual([[{ sku: "BOOT-40", quantity: 1 }, 7, false]]);
    expect(sent("BOOT")).toEqual([[{ sku: "BOOT", quantity: 1 }, 7, true]]);
  });

  it("reports an unknown SKU as typed, trimmed", () => {
    const m = matchSku(line({ sku: " NOPE-9 " }), catalogue());
    expect(m).toMatchObject({
      status: "unmatched",
      via: "sku",
      sku: "NOPE-9",
      unknown: ["NOPE-9"],
      items: [{ target: { sku: "NOPE-9", quantity: 1 }, quantityPerUnit: 1 }],
    });
  });

  it("reads two-decimal platform prices and skips anything else", () => {
    expect([...buildCatalogueIndex(catalogue()).priceCents]).toEqual([
      [1, 4550],
      [2, 1200],
      [4, 100],
      [5, 10000],
      [7, 5000],
    ]);
  });
});

describe("Shopify ids", () => {
  it("takes the trailing digits of a number, a string or a gid", () => {
    expect(shopifyIdDigits("gid://shopify/ProductVariant/123")).toBe("123");
    expect(shopifyIdDigits(45)).toBe("45");
    expect(shopifyIdDigits("12 ")).toBe("12");
    expect(shopifyIdDigits("a1b22")).toBe("22");
    expect(shopifyIdDigits("0")).toBe("0");
    for (const none of ["abc", "", "12a", null, undefined]) expect(shopifyIdDigits(none)).toBeUndefined();
  });
});

describe("mappings", () => {
  const rule = (r: Partial<SkuMappingRule>): SkuMappingRule =>
    ({ sourceKind: "sku", sourceKey: "X", targets: [], ...r }) as SkuMappingRule;

  it("applies a variant mapping by gid, resolving every target with a sane quantity", () => {
    const mappings = [
      rule({
        id: "r1",
        sourceKind: "variant",
        sourceKey: "gid://shopify/ProductVariant/77",
        targets: [
          { sku: "ab-1", quantity: 2.5 },
          { product_id: 5, quantity: 3 },
        ],
      }),
    ];
    const m = matchSku(line({ sku: "", variantId: "77" }), catalogue(), mappings);
    expect(m).toMatchObject({ status: "matched", via: "mapping", mappingId: "r1" });
    expect(m.status === "matched" && m.items.map((i) => [i.target, i.quantityPerUnit, i.entry?.sku])).toEqual([
      [{ sku: "AB-1", quantity: 1 }, 1, "AB-1"],
      [{ product_id: 5, quantity: 3 }, 3, "SHOE"],
    ]);
  });

  it("prefers the variant mapping to the SKU mapping, and either to the catalogue", () => {
    const mappings = [
      rule({ id: "s", sourceKind: "sku", sourceKey: "ab-1", targets: [{ sku: "SHOE", quantity: 1 }] }),
      rule({ id: "v", sourceKind: "variant", sourceKey: "9", targets: [{ sku: "DUP", quantity: 1 }] }),
    ];
    expect(matchSku(line({ sku: "AB-1", variantId: "9" }), catalogue(), mappings)).toMatchObject({
      via: "mapping",
      mappingId: "v",
    });
    expect(matchSku(line({ sku: "AB-1", variantId: "10" }), catalogue(), mappings)).toMatchObject({
      via: "mapping",
      mappingId: "s",
    });
    expect(matchSku(line({ sku: " a b-1 ", variantId: "10" }), catalogue(), mappings)).toMatchObject({
      via: "mapping",
      mappingId: "s",
    });
  });

  it("ignores mappings without targets, without a key, or of an unknown kind", () => {
    const mappings = [
      rule({ id: "empty", sourceKey: "AB-1", targets: [] }),
      rule({ id: "blank", sourceKey: "  ", targets: [{ sku: "DUP", quantity: 1 }] }),
      rule({ id: "novariant", sourceKind: "variant", sourceKey: "none", targets: [{ sku: "DUP", quantity: 1 }] }),
      rule({ id: "odd", sourceKind: "handle" as "sku", sourceKey: "AB-1", targets: [{ sku: "DUP", quantity: 1 }] }),
      rule({ id: "nokey", sourceKey: 5 as unknown as string, targets: [{ sku: "DUP", quantity: 1 }] }),
    ];
    expect(matchSku(line({ sku: "AB-1", variantId: "none" }), catalogue(), mappings)).toMatchObject({
      status: "matched",
      via: "sku",
    });
    expect(matchSku(line({ sku: "", variantId: "none" }), catalogue(), mappings)).toMatchObject({ status: "missing" });
  });

  it("reports a mapping's unknown targets, without a mapping id it lacks", () => {
    const bySku = matchSku(line({ sku: " pack 1 ", variantId: "9" }), catalogue(), [
      rule({ sourceKey: "PACK1", targets: [{ sku: " nope ", quantity: 0 }] }),
    ]);
    expect(bySku).toMatchObject({
      status: "unmatched",
      via: "mapping",
      sku: "pack 1",
      unknown: ["nope"],
      items: [{ target: { sku: "nope", quantity: 1 } }],
    });
    expect(bySku).not.toHaveProperty("mappingId");
    const byVariant = matchSku(line({ sku: "", variantId: "9" }), catalogue(), [
      rule({ id: "m", sourceKind: "variant", sourceKey: "9", targets: [{ product_id: 99, quantity: -1 }] }),
    ]);
    expect(byVariant).toMatchObject({
      status: "unmatched",
      unknown: ["#99"],
      mappingId: "m",
      items: [{ target: { product_id: 99, quantity: 1 } }],
    });
    expect(byVariant).not.toHaveProperty("sku");
    const matched = matchSku(line({ sku: "", variantId: "9" }), catalogue(), [
      rule({ sourceKind: "variant", sourceKey: "9", targets: [{ sku: "DUP", quantity: 1 }] }),
    ]);
    expect(matched).toEqual(expect.objectContaining({ status: "matched" }));
    expect(matched).not.toHaveProperty("mappingId");
  });
});

describe("suggestions", () => {
  const index = buildCatalogueIndex(catalogue());

  it("proves the variant a line names, never its product as a whole", () => {
    expect(suggestProducts(index, { name: "", title: "Shoe", variantTitle: "38" })).toEqual([
      {
        kind: "product",
        productId: 5,
        sku: "SHOE-38",
        name: "Shoe (38)",
        score: 1,
        confidence: "certain",
        why: "name",
      },
    ]);
    expect(suggestProducts(index, { name: "Shoe - 38", title: "ignored", variantTitle: "" })[0]).toMatchObject({
      sku: "SHOE-38",
      confidence: "certain",
    });
  });

  it("offers items that share the name and contradict nothing as likely, best first", () => {
    expect(suggestProducts(index, { name: "Alpha bis extra" }).map((s) => [s.sku, s.confidence])).toEqual([
      ["AB1", "likely"],
      ["AB-1", "likely"],
    ]);
  });

  it("suggests nothing for a line without a name", () => {
    expect(suggestProducts(index, { name: "", title: "", variantTitle: "" })).toEqual([]);
    expect(suggestProducts(index, { name: "  ", title: "", variantTitle: undefined })).toEqual([]);
  });

  it("comes with a missing SKU", () => {
    const m = matchSku(line({ sku: "  ", name: "Alpha", variantId: null as unknown as string }), catalogue());
    expect(m.status).toBe("missing");
    expect(m.status === "missing" && m.suggestions[0]).toMatchObject({
      productId: 1,
      name: "Alpha",
      confidence: "certain",
    });
  });
});

describe("malformed lists", () => {
  it("skips catalogue entries that are not products, and mappings without a rule or a target list", () => {
    const list = [
      null,
      { sku: "NOID", name: "No id" },
      { id: "9", sku: "STRID", name: "String id" },
      ...CATALOGUE,
    ] as unknown as CatalogueProduct[];
    expect(matchSku(line({ sku: "NOID" }), list)).toMatchObject({ status: "unmatched" });
    expect(matchSku(line({ sku: "STRID" }), list)).toMatchObject({ status: "unmatched" });
    expect(matchSku(line({ sku: "AB-1" }), list)).toMatchObject({ status: "matched", via: "sku" });
    const mappings = [null, { sourceKind: "sku", sourceKey: "AB-1", targets: "DUP" }] as unknown as SkuMappingRule[];
    expect(matchSku(line({ sku: "AB-1" }), catalogue(), mappings)).toMatchObject({ status: "matched", via: "sku" });
  });
});

describe("stock", () => {
  const shop = (): CatalogueProduct[] =>
    [
      {
        id: 1,
        sku: "TEE",
        name: "Tee",
        platform_price: "10.00",
        in_stock: true,
        variants: [
          { sku: "TEE-M", name: "M", in_stock: true },
          { sku: "TEE-L", name: "L" },
        ],
      },
      { id: 2, sku: "CAP", name: "Cap", platform_price: "10.00", in_stock: false, variants: [] },
    ] as unknown as CatalogueProduct[];

  it("counts a variant in stock when both it and its product are, or say nothing", () => {
    expect(matchSku(line({ sku: "TEE-M" }), shop())).toMatchObject({ items: [{ entry: { inStock: true } }] });
    expect(matchSku(line({ sku: "TEE-L" }), shop())).toMatchObject({ items: [{ entry: { inStock: true } }] });
  });

  it("reads the stock of a product a mapping names by id", () => {
    const rule = (productId: number) =>
      [{ sourceKind: "sku", sourceKey: "X", targets: [{ product_id: productId, quantity: 1 }] }] as SkuMappingRule[];
    expect(matchSku(line({ sku: "X" }), shop(), rule(2))).toMatchObject({
      items: [{ entry: { inStock: false, sku: "CAP" } }],
    });
    expect(matchSku(line({ sku: "X" }), shop(), rule(1))).toMatchObject({
      items: [{ entry: { inStock: true, sku: "TEE" } }],
    });
  });
});

describe("suggestions of variants", () => {
  const list = [
    {
      id: 1,
      sku: "KIT",
      name: "Kit",
      platform_price: "10.00",
      variants: [
        { sku: "KIT", name: "Standard" },
        { sku: "KIT-XL", name: "XL" },
      ],
    },
    { id: 2, sku: "NN", name: "Nameless", platform_price: "10.00", variants: [{ sku: "NN-1" }] },
  ] as unknown as CatalogueProduct[];

  it("names a variant by its product and itself, and proposes each SKU once", () => {
    expect(suggestProducts(buildCatalogueIndex(list), { name: "Kit Standard" })).toEqual([
      {
        kind: "product",
        productId: 1,
        sku: "KIT",
        name: "Kit (Standard)",
        score: 1,
        confidence: "certain",
        why: "name",
      },
      {
        kind: "product",
        productId: 1,
        sku: "KIT-XL",
        name: "Kit (XL)",
        score: 0.67,
        confidence: "likely",
        why: "shared_words",
      },
    ]);
  });

  it("reads a variant without a name as its product", () => {
    expect(
      suggestProducts(buildCatalogueIndex(list), { name: "Nameless" }).map((s) => [s.sku, s.name, s.confidence]),
    ).toEqual([["NN-1", "Nameless", "certain"]]);
  });
});
