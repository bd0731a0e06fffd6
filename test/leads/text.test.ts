/** Text folding shared by phones, cities, gateways and product names. */
import { describe, expect, it } from "vitest";
import { collapseRepeats, foldDigits, foldText, phrase, words } from "../../app/leads/text";

describe("foldDigits", () => {
  it("turns Arabic-Indic and Eastern Arabic digits into ASCII, leaving the rest", () => {
    expect(foldDigits("٠١٢٣٤٥٦٧٨٩ ۰۱۲۳۴۵۶۷۸۹ 09 abc")).toBe("0123456789 0123456789 09 abc");
  });
});

describe("foldText", () => {
  it("lower-cases, drops accents and unifies letter variants", () => {
    expect(foldText("ÉCOLE Fès Œuvre Straße æ AbC")).toBe("ecole fes oeuvre strasse ae abc");
    expect(foldText("ٱلدار مدينة ى ی البيضاء")).toBe("الدار مدينه ي ي البيضا");
    expect(foldText("گ ڭ ک ݣ ڤ پ ـمـ")).toBe("ك ك ك ك ف ب م");
    expect(foldText("٠٦١٢")).toBe("0612");
  });
});

describe("words", () => {
  it("drops apostrophes inside a word and French elisions at its start", () => {
    expect(words("m'diq d'agadir l'oasis qu'il")).toEqual(["mdiq", "agadir", "oasis", "quil"]);
    expect(words("m\u2019diq d\u2018agadir l`oasis l\u00b4x")).toEqual(["mdiq", "agadir", "oasis", "x"]);
    // The acute accent typed as an apostrophe ("d´Agadir") was kept inside the word, so the city was missed.
    expect(phrase("d\u00b4Agadir M\u00b4diq")).toBe("agadir mdiq");
    expect(words("'x x' a'b")).toEqual(["x", "x", "ab"]);
    expect(words("d'")).toEqual(["d"]);
    expect(words("ab'cd")).toEqual(["abcd"]);
    expect(words("ab' cd")).toEqual(["ab", "cd"]);
  });

  it("splits on ASCII punctuation, Unicode separators, general punctuation and emoji", () => {
    expect(words(",,a-b c_d e.f")).toEqual(["a", "b", "c", "d", "e", "f"]);
    expect(words("Casa\u060cRabat\u00a0Fès\u2013Salé😀Tanger é\u2003x\u200by")).toEqual([
      "Casa",
      "Rabat",
      "Fès",
      "Salé",
      "Tanger",
      "é",
      "x",
      "y",
    ]);
    expect(words("AZaz09")).toEqual(["AZaz09"]);
    // The general punctuation block (U+2000-U+206F) and lone surrogates separate, at both ends.
    expect(words("a\u2000b\u206fc\u1fffd\u2070e")).toEqual(["a", "b", "c\u1fffd\u2070e"]);
    expect(words("a\ud800b\udfffc\ud7ffd\ue000e")).toEqual(["a", "b", "c\ud7ffd\ue000e"]);
    expect(words("@[`{/:")).toEqual([]);
    expect(words("")).toEqual([]);
  });
});

describe("collapseRepeats and phrase", () => {
  it("collapses doubled letters", () => {
    expect(collapseRepeats("marrakkech aa")).toBe("marakech a");
    expect(collapseRepeats("")).toBe("");
    expect(collapseRepeats("abab")).toBe("abab");
  });

  it("folds a phrase into single-spaced words", () => {
    expect(phrase("  Cash on Delivery (COD) ")).toBe("cash on delivery cod");
    expect(phrase("Paiement à la livraison")).toBe("paiement a la livraison");
    expect(phrase("")).toBe("");
  });
});
