/**
 * How SKUs and product titles are read for proposals: quantities with their units,
 * sizes and colours in one spelling, titles in French, Arabic, Darija and English as
 * the same concepts, and the words that make another product.
 */
import { describe, expect, it } from "vitest";
import {
  colourOf,
  conflictingQuantity,
  isDistinguishing,
  nameConcepts,
  parseQuantity,
  sameQuantity,
  sameSkuToken,
  sizeOf,
  skuTokens,
} from "../../app/leads/product-words";

const tokens = (sku: string) =>
  skuTokens(sku).map((t) =>
    t.kind === "number"
      ? `${t.quantity.value}${t.quantity.dimension ? `:${t.quantity.dimension}` : ""}`
      : `${t.kind}:${t.value}`,
  );

describe("skuTokens", () => {
  it.each([
    ["ARG-OIL-50ML", ["word:arg", "word:oil", "50:volume"]],
    ["arg-oil-50-ml", ["word:arg", "word:oil", "50:volume"]],
    ["TEAPOT-INOX-1-LITRE", ["word:teapot", "word:inox", "1000:volume"]],
    ["TEAPOT-INOX-1.5L", ["word:teapot", "word:inox", "1500:volume"]],
    ["PWRBANK-20K", ["word:pwrbank", "20000"]],
    ["PWRBANK-20000MAH", ["word:pwrbank", "20000:charge"]],
    ["ATLS-HONEY-1KG", ["word:atls", "word:honey", "1000:mass"]],
    ["TEA-GLASS-X6", ["word:tea", "word:glass", "6:count"]],
    ["TEA_GLASS_06", ["word:tea", "word:glass", "6"]],
    ["JLB-SANDAL-T40", ["word:jlb", "word:sandal", "40:size"]],
    ["JLB-SANDAL-39EU", ["word:jlb", "word:sandal", "39:size"]],
    ["JLB-SANDAL-T-42", ["word:jlb", "word:sandal", "42:size"]],
    ["DJELLABA-M-TL", ["word:djellaba", "word:m", "size:l"]],
    ["SMW-X8-NOIR", ["word:smw", "8:count", "colour:black"]],
    ["SHAVER-3D", ["word:shaver", "word:3d"]],
    ["KIDS-TABLET-7-POUCES", ["word:kids", "word:tablet", "7:inch"]],
  ])("reads %s", (sku, expected) => {
    expect(tokens(sku)).toEqual(expected);
  });

  it("compares shop colour codes by their colour, sizes by their size, numbers by their amount", () => {
    const [code] = skuTokens("BLK");
    const [word] = skuTokens("NOIR");
    expect(sameSkuToken(code, word)).toBe(true);
    expect(sameSkuToken(skuTokens("LARGE")[0], skuTokens("L")[0])).toBe(true);
    expect(sameSkuToken(skuTokens("SLV")[0], skuTokens("NOIR")[0])).toBe(false);
    expect(sameSkuToken(skuTokens("50ML")[0], skuTokens("50")[0])).toBe(true);
    expect(sameSkuToken(skuTokens("50ML")[0], skuTokens("50G")[0])).toBe(false);
    expect(sameSkuToken(skuTokens("OIL")[0], skuTokens("OIL")[0])).toBe(true);
    expect(sameSkuToken(skuTokens("OIL")[0], skuTokens("50")[0])).toBe(false);
  });
});

describe("quantities", () => {
  it("reads units, thousands and counts", () => {
    expect(parseQuantity("1.5l")).toEqual({ value: 1500, dimension: "volume", raw: 1.5 });
    expect(parseQuantity("20k")).toEqual({ value: 20000, dimension: "", raw: 20 });
    expect(parseQuantity("x6")).toEqual({ value: 6, dimension: "count", raw: 6 });
    expect(parseQuantity("250", "g")).toEqual({ value: 250, dimension: "mass", raw: 250 });
    expect(parseQuantity("3d")).toBeUndefined();
    expect(parseQuantity("oil")).toBeUndefined();
  });

  it("says when two amounts are the same and when they make two products", () => {
    const ml50 = parseQuantity("50ml")!;
    const ml100 = parseQuantity("100ml")!;
    const bare50 = parseQuantity("50")!;
    const l1 = parseQuantity("1l")!;
    expect(sameQuantity(ml50, bare50)).toBe(true);
    expect(sameQuantity(l1, parseQuantity("1000ml")!)).toBe(true);
    expect(sameQuantity(l1, parseQuantity("1")!)).toBe(true);
    expect(sameQuantity(ml50, ml100)).toBe(false);
    expect(conflictingQuantity(ml50, ml100)).toBe(true);
    expect(conflictingQuantity(ml50, parseQuantity("50g")!)).toBe(false);
    expect(conflictingQuantity(bare50, parseQuantity("30")!)).toBe(false);
  });
});

describe("sizes and colours", () => {
  it.each([
    ["40", "40"],
    ["Pointure 41", "41"],
    ["EU 38", "38"],
    ["Taille L", "l"],
    ["Large", "l"],
    ["XL", "xl"],
  ])("reads the size in %j", (text, size) => {
    expect(sizeOf(text)).toBe(size);
  });

  it("reads no size in a name", () => {
    expect(sizeOf("Noir")).toBeUndefined();
    expect(sizeOf("40 ml rose")).toBeUndefined();
  });

  it.each([
    ["noir", "black"],
    ["noire", "black"],
    ["blk", "black"],
    ["اسود", "black"],
    ["rose", "pink"],
    ["jaune", "yellow"],
    ["argent", "silver"],
  ])("knows %s is %s", (word, colour) => {
    expect(colourOf(word)).toBe(colour);
  });
});

describe("nameConcepts", () => {
  it("reads French, Arabic, Darija and English titles as the same concepts", () => {
    for (const title of ["Huile d'argan 100 ml", "زيت أركان 100 مل", "Zit argan 100ml", "Argan oil 100ml"]) {
      const c = nameConcepts(title);
      expect([...c.words].sort(), title).toEqual(["argan", "huile"]);
      expect(
        c.quantities.map((q) => [q.value, q.dimension]),
        title,
      ).toEqual([[100, "volume"]]);
    }
  });

  it("keeps models, colours, sizes and marketing words apart from the product's words", () => {
    const c = nameConcepts("Montre connectée X8 noire artisanale 2XL");
    expect(c.words).toEqual(["montre", "connectee"]);
    expect(c.models).toEqual(["x8"]);
    expect(c.colours).toEqual(["black"]);
    expect(c.sizes).toEqual(["xxl"]);
    expect(c.generic).toEqual(["artisanale"]);
  });

  it("reads 20 000 as one number and 1,5 as a decimal", () => {
    expect(nameConcepts("Batterie 20 000 mAh").quantities.map((q) => q.value)).toEqual([20000]);
    expect(nameConcepts("Théière 1,5 L").quantities.map((q) => q.value)).toEqual([1500]);
  });

  it("reads sans fil and power bank as one word each, and drops the Arabic article", () => {
    expect(nameConcepts("Écouteurs sans fil").words).toEqual(["ecouteur", "sansfil"]);
    expect(nameConcepts("Power bank").words).toEqual(["batterie"]);
    expect(nameConcepts("تابليت للأطفال").words).toEqual(["tablette", "enfant"]);
  });

  it("knows the words that make another product", () => {
    expect(["enfant", "homme", "lot", "pro", "sansfil"].every(isDistinguishing)).toBe(true);
    expect(isDistinguishing("huile")).toBe(false);
  });
});
