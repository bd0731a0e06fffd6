/** The fuzzy-matching primitives (edit distance, bigram index) and the city key normal form. */
import { describe, expect, it } from "vitest";
import { cityWords, keyOf, keyPart, normalizeCityKey } from "../../app/leads/city-key";
import { BigramIndex, bigrams, editDistance, roundScore, similarity } from "../../app/leads/similarity";

describe("editDistance", () => {
  it("counts insertions, deletions, substitutions and a swapped pair as one edit each", () => {
    expect(editDistance("rabat", "rabat")).toBe(0);
    expect(editDistance("rabat", "rbat")).toBe(1);
    expect(editDistance("rbat", "rabat")).toBe(1);
    expect(editDistance("rabat", "rabit")).toBe(1);
    expect(editDistance("abcd", "acbd")).toBe(1);
    expect(editDistance("casa", "csaa")).toBe(1);
    expect(editDistance("kitten", "sitting")).toBe(3);
    expect(editDistance("ca", "abc")).toBe(3); // a swapped pair is not edited again
    expect(editDistance("", "abc")).toBe(3);
    expect(editDistance("abc", "")).toBe(3);
  });

  it("counts an insertion, a deletion and a substitution at the end", () => {
    expect(editDistance("a", "ab")).toBe(1);
    expect(editDistance("abc", "abcd")).toBe(1);
    expect(editDistance("abcd", "abc")).toBe(1);
    expect(editDistance("abc", "abd")).toBe(1);
  });

  it("handles strings longer than its reused rows", () => {
    // 64 cells hold a row for 63 characters; 64 needs the rows grown.
    expect(editDistance("a".repeat(64), "b".repeat(64))).toBe(64);
    expect(editDistance("a".repeat(70), "b".repeat(70))).toBe(70);
    expect(editDistance(`${"x".repeat(99)}y`, "x".repeat(100))).toBe(1);
    expect(editDistance("rabat", "rbat")).toBe(1);
  });
});

describe("similarity, bigrams and scores", () => {
  it("is 1 minus the edits over the longer length", () => {
    expect(similarity("", "")).toBe(1);
    expect(similarity("abc", "abd")).toBeCloseTo(2 / 3, 10);
    expect(similarity("ab", "ba")).toBe(0.5);
    expect(similarity("abcd", "")).toBe(0);
  });

  it("pads bigrams with start and end markers", () => {
    expect(bigrams("ab")).toEqual(["^a", "ab", "b$"]);
    expect(bigrams("")).toEqual(["^$"]);
  });

  it("rounds scores to two decimals", () => {
    expect([roundScore(0.666), roundScore(0.125), roundScore(0.994), roundScore(1)]).toEqual([0.67, 0.13, 0.99, 1]);
  });
});

describe("BigramIndex", () => {
  const index = new BigramIndex(["rabat", "rbat", "casa", "sale", "rabatt", "rabat"]);

  it("ranks keys by shared bigrams, best first, ties by id, up to the limit", () => {
    expect(index.rank("rabat", 3)).toEqual([
      { id: 0, dice: 1 },
      { id: 5, dice: 1 },
      { id: 4, dice: 12 / 13 },
    ]);
    expect(index.rank("rabat", 10).map((r) => r.id)).toEqual([0, 5, 4, 1]);
    expect(index.rank("rabat", 1)).toEqual([{ id: 0, dice: 1 }]);
    expect(index.rank("zzz", 3)).toEqual([]);
  });

  it("breaks a tie at the cut by id too, so the top 1 is the first of the top 2", () => {
    // Both share two bigrams with "ab"; "abz" (id 1) is reached first, by "^a".
    const tied = new BigramIndex(["zab", "abz"]);
    expect(tied.rank("ab", 2).map((r) => r.id)).toEqual([0, 1]);
    expect(tied.rank("ab", 1).map((r) => r.id)).toEqual([0]);
  });

  it("gives the same answer when asked again (its scratch space is reset)", () => {
    const first = index.rank("sale", 5);
    expect(index.rank("sale", 5)).toEqual(first);
    expect(first[0]).toEqual({ id: 3, dice: 1 });
  });
});

describe("city keys", () => {
  it("drops noise words, zip codes and, in addresses, the name of a street", () => {
    expect(cityWords("Hay Riad 10000 Rabat")).toEqual(["riad", "rabat"]);
    expect(cityWords("Rue de Fès, Meknès")).toEqual(["fes", "meknes"]);
    expect(cityWords("Rue de Fès, Meknès", true)).toEqual(["meknes"]);
    expect(cityWords("rue 12 Casablanca", true)).toEqual(["casablanca"]);
    expect(cityWords("rue de la Paix Rabat", true)).toEqual(["rabat"]);
    expect(cityWords("شارع فاس الرباط", true)).toEqual(["الرباط"]);
    expect(cityWords("المدينه الرباط")).toEqual(["الرباط"]);
    // Only all-digit words are zip codes or numbers: "A12" and "12B" may be a place.
    expect(cityWords("Bloc A12 Rabat 12B 20000")).toEqual(["a12", "rabat", "12b"]);
  });

  it("drops articles from key parts unless nothing would be left", () => {
    expect([keyPart("el"), keyPart("ال"), keyPart("الرباط"), keyPart("الى"), keyPart("rabat")]).toEqual([
      "",
      "",
      "رباط",
      "الى",
      "rabat",
    ]);
    expect(keyOf(["el", "jadida"])).toBe("jadida");
    expect(keyOf(["el", "jadida"], true)).toBe("eljadida");
    expect(keyOf(["el"])).toBe("el");
    expect(keyOf(["el", "la"])).toBe("ela");
    expect(keyOf(["marrakech"])).toBe("marakech");
  });

  it("brings every spelling of a city to one stable key", () => {
    expect(["Ville de Fès", "FES", "fès-ville"].map(normalizeCityKey)).toEqual(["fes", "fes", "fes"]);
    expect(normalizeCityKey("El Jadida")).toBe("jadida");
    expect(normalizeCityKey("Ben Guerir")).toBe(normalizeCityKey("Benguerir"));
    expect(normalizeCityKey("quartier 5")).toBe("");
    expect(normalizeCityKey("dée")).toBe("");
    for (const raw of ["dée", "Ville de Fès", "Marrakech", "d e d e"])
      expect(normalizeCityKey(normalizeCityKey(raw))).toBe(normalizeCityKey(raw));
  });
});
