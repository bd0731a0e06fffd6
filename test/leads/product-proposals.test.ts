/**
 * Product proposals: a primary (certain) one only when a rule proves it, likely ones
 * that contradict nothing, and nothing for a product the platform does not have. The
 * merchant walk's wrong proposals are gone: olive oil is not argan oil, a zellige lamp
 * is not a pair of sandals.
 */
import { describe, expect, it } from "vitest";
import {
  buildCatalogueIndex,
  buildMappingIndex,
  matchSku,
  suggestProducts,
  type CatalogueProduct,
} from "../../app/leads";
import { catalogueFor, line } from "./helpers";

const atlas = buildCatalogueIndex(catalogueFor("ACC-1001"));
const propose = (fields: { sku?: string; name: string; variantTitle?: string }) =>
  suggestProducts(atlas, { title: undefined, variantTitle: undefined, ...fields }).map((s) => [s.sku, s.confidence]);

describe("the merchant walk's wrong proposals", () => {
  it("GIVEN another seller's olive oil WHEN it is proposed THEN no argan oil is offered at all", () => {
    const m = matchSku(
      line({ sku: "RIF-OLIVE-1L", name: "Huile d'olive vierge 1 L", title: "Huile d'olive vierge 1 L" }),
      catalogueFor("ACC-1001"),
    );
    expect(m).toMatchObject({ status: "unmatched", suggestions: [] });
  });

  it("GIVEN a zellige lamp WHEN it is proposed THEN sandals are not offered: nothing is", () => {
    const m = matchSku(
      line({ sku: "ZELLIGE-LAMP-01", name: "Lampe zellige artisanale", title: "Lampe zellige artisanale" }),
      catalogueFor("ACC-1001"),
    );
    expect(m).toMatchObject({ status: "unmatched", suggestions: [] });
  });
});

describe("certain: one item, proven by a rule", () => {
  it("reads the platform's SKU with its variant's colour, in any language or code", () => {
    expect(propose({ sku: "SMW-X8-NOIR", name: "Montre" })).toEqual([["SMW-X8-BLK", "certain"]]);
    expect(propose({ sku: "smw-x8-silver", name: "Watch" })).toEqual([["SMW-X8-SLV", "certain"]]);
    expect(propose({ sku: "BABOUCHE-CLS-JAUNE", name: "Babouches" })).toEqual([["BABOUCHE-CLS-YEL", "certain"]]);
  });

  it("reads the platform's SKU with its variant's size, or its own size restated", () => {
    expect(propose({ sku: "JLB-SANDAL-T40", name: "Sandales" })).toEqual([["JLB-SANDAL-40", "certain"]]);
    expect(propose({ sku: "DJELLABA-M-LARGE", name: "Djellaba" })).toEqual([["DJELLABA-M-L", "certain"]]);
    expect(propose({ sku: "ARG-OIL-100ML", name: "Huile" })).toEqual([["ARG-OIL-100", "certain"]]);
    expect(propose({ sku: "PWRBANK-20000", name: "Batterie" })).toEqual([["PWRBANK-20K", "certain"]]);
  });

  it("reads the platform's name word for word, in another spelling or language, with its variant", () => {
    expect(propose({ sku: "HA-50", name: "HUILE D’ARGAN COSMETIQUE 50ML" })).toEqual([["ARG-OIL-50", "certain"]]);
    expect(propose({ name: "Montre connectée X8 - Argent", variantTitle: "Argent" })).toEqual([
      ["SMW-X8-SLV", "certain"],
    ]);
    expect(propose({ name: "Stainless teapot 1L" })).toEqual([["TEAPOT-INOX-1L", "certain"]]);
  });

  it("reads a SKU the merchant mapped, written another way, as their confirmed choice", () => {
    const mappings = buildMappingIndex([
      { sourceKind: "sku", sourceKey: "huile-argan-50", targets: [{ sku: "ARG-OIL-50", quantity: 1 }] },
    ]);
    expect(suggestProducts(atlas, { sku: "HUILE_ARGAN_50", name: "x" }, mappings)).toEqual([
      expect.objectContaining({ sku: "ARG-OIL-50", confidence: "certain" }),
    ]);
    const bundle = buildMappingIndex([
      {
        sourceKind: "sku",
        sourceKey: "PACK-RAMADAN",
        targets: [
          { sku: "ARG-OIL-50", quantity: 1 },
          { sku: "AMLOU-250", quantity: 2 },
        ],
      },
    ]);
    expect(suggestProducts(atlas, { sku: "PACK_RAMADAN", name: "Pack" }, bundle)).toEqual([]);
  });

  it("proves nothing when two items fit the rule", () => {
    const twins = buildCatalogueIndex([
      { id: 1, sku: "A-1", name: "Savon noir 200 g", platform_price: "10.00", in_stock: true, variants: [] },
      { id: 2, sku: "B-1", name: "Savon noir 200 g", platform_price: "12.00", in_stock: true, variants: [] },
    ] as CatalogueProduct[]);
    const out = suggestProducts(twins, { name: "Savon noir 200g" });
    expect(out.map((s) => s.confidence)).toEqual(["likely", "likely"]);
  });
});

describe("likely: shares the name, contradicts nothing", () => {
  it("offers the platform's product when the title says less than its name", () => {
    expect(propose({ sku: "ARGAN50", name: "Huile d'argan 50ml" })).toEqual([["ARG-OIL-50", "likely"]]);
    expect(propose({ name: "بلغة صفراء" })).toEqual([["BABOUCHE-CLS-YEL", "likely"]]);
  });

  it.each([
    ["another size", "ARG-OIL-250", "Huile d'argan cosmétique 250 ml"],
    ["another capacity", "PB-10K", "Batterie externe 10 000 mAh"],
    ["another model", "SMW-X9-BLK", "Montre connectée X9 noire"],
    ["a pro model", "SMW-X8-PRO", "Montre connectée X8 Pro"],
    ["a colour the product does not come in", "BABOUCHE-CLS-NOIR", "Babouches classiques - Noir"],
    ["a size the product does not come in", "DJELLABA-M-XXL", "Djellaba femme brodée - XXL"],
    ["another audience", "DJELLABA-HOMME", "Djellaba homme brodée"],
    ["a pack", "ARG-OIL-50-PACK3", "Huile d'argan 50 ml (lot de 3)"],
    ["another variety", "SAVON-NOIR-ARGAN-200", "Savon noir à l'argan 200 g"],
    ["another product of a kind", "HN-100", "Huile de nigelle 100 ml"],
  ])("offers nothing for %s", (_why, sku, name) => {
    expect(propose({ sku, name })).toEqual([]);
  });

  it("never offers a product sold in variants as a whole, and offers each SKU once, at most three", () => {
    const out = suggestProducts(atlas, { name: "Montre connectée" });
    expect(out.map((s) => s.sku)).not.toContain("SMW-X8");
    expect(new Set(out.map((s) => s.sku)).size).toBe(out.length);
    expect(out.length).toBeLessThanOrEqual(3);
  });
});

describe("why an item is proposed", () => {
  const why = (fields: { sku?: string; name: string; variantTitle?: string }) =>
    suggestProducts(atlas, { title: undefined, variantTitle: undefined, ...fields }).map((s) => [s.sku, s.why]);

  it("GIVEN a proven item WHEN it is proposed THEN it names the rule that proves it", () => {
    expect(why({ sku: "SMW-X8-NOIR", name: "Montre" })).toEqual([["SMW-X8-BLK", "sku"]]);
    expect(why({ sku: "HA-50", name: "HUILE D’ARGAN COSMETIQUE 50ML" })).toEqual([["ARG-OIL-50", "name"]]);
    const mappings = buildMappingIndex([
      { sourceKind: "sku", sourceKey: "huile-argan-50", targets: [{ sku: "ARG-OIL-50", quantity: 1 }] },
    ]);
    expect(suggestProducts(atlas, { sku: "HUILE_ARGAN_50", name: "x" }, mappings).map((s) => s.why)).toEqual([
      "confirmed",
    ]);
  });

  it("GIVEN a likely item WHEN it is proposed THEN it says what resembles: the names' words or the SKU's start", () => {
    expect(why({ sku: "ARGAN50", name: "Huile d'argan 50ml" })).toEqual([["ARG-OIL-50", "shared_words"]]);
    expect(why({ sku: "ARG-OIL-50-B2", name: "Huile" })).toEqual([["ARG-OIL-50", "sku_family"]]);
  });
});

describe("the memo", () => {
  it("gives the same proposals again, as copies the caller may change", () => {
    const first = suggestProducts(atlas, { sku: "SMW-X8-NOIR", name: "Montre" });
    first[0].name = "changed";
    expect(suggestProducts(atlas, { sku: "SMW-X8-NOIR", name: "Montre" })[0].name).toBe("Montre connectée X8 (Noir)");
  });
});
