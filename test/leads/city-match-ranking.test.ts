/**
 * matchCity beyond single exact spellings: the fuzzy ranking and its order, misspelt cities
 * beside other words, regions, and which of several spellings in a line wins.
 */
import { describe, expect, it } from "vitest";
import { type CityMatch, matchCity } from "../../app/leads";
import { cities as seedCities, cityId } from "./helpers";

/** A fresh copy per call: the matcher memoises its index per array, and each test must build its own. */
const cities = () => [...seedCities];

/** A city of the platform's list; the fee plays no part here. */
const town = (id: number, name: string) => ({ id, name, delivery_fee: "20.00" });
const ids = (m: CityMatch) => (m.status === "missing" ? [] : m.suggestions.map((s) => s.cityId));

describe("fuzzy ranking", () => {
  it("suggests the closest cities first", () => {
    const m = matchCity("Bouknadel", cities());
    expect(m).toMatchObject({ status: "unmatched", source: "city", input: "Bouknadel" });
    expect(m.status === "unmatched" && m.suggestions.map((s) => [s.name, s.score])).toEqual([
      ["Tanger", 0.67],
      ["Boujdour", 0.56],
      ["Bouznika", 0.44],
    ]);
  });

  it("orders equally close cities by id, and calls a tie a question, not a match", () => {
    const twins = [town(2, "Zorbalik"), town(1, "Zorbalim"), town(3, "Qwertyuiop")];
    const m = matchCity("Zorbaliz", twins);
    expect(m.status).toBe("unmatched");
    expect(m.status === "unmatched" && m.suggestions.map((s) => [s.cityId, s.score])).toEqual([
      [1, 0.88],
      [2, 0.88],
    ]);
  });

  it("matches the best candidate and suggests the others, best first, without it", () => {
    const m = matchCity("Casablnaca", cities());
    expect(m).toMatchObject({ status: "matched", via: "fuzzy", score: 0.9, source: "city", input: "Casablnaca" });
    expect(m.status === "matched" && m.city.id).toBe(cityId("Casablanca"));
    const scores = m.status === "matched" ? m.suggestions.map((s) => s.score) : [];
    expect(scores).toHaveLength(3);
    expect([...scores].sort((a, b) => b - a)).toEqual(scores);
    expect(ids(m)).not.toContain(cityId("Casablanca"));
  });

  it("does not fuzzy-match under the threshold", () => {
    expect(matchCity("Zorbalikq", [town(2, "Zorbalik")], [], 0.9).status).toBe("unmatched");
    expect(matchCity("Zorbalikq", [town(2, "Zorbalik")], [], 0.85)).toMatchObject({
      status: "matched",
      via: "fuzzy",
      score: 0.89,
    });
  });
});

describe("a misspelt city beside other words", () => {
  it("finds a one-word misspelling among other words", () => {
    const m = matchCity("Casablanaca hay 7", cities());
    expect(m).toMatchObject({
      status: "matched",
      via: "fuzzy",
      score: 0.91,
      source: "city",
      input: "Casablanaca hay 7",
    });
    expect(m.status === "matched" && m.city.name).toBe("Casablanca");
  });

  it("finds a two-word misspelling among other words", () => {
    const towns = [town(2, "Zorbalik"), town(3, "Mendoubia Kasbah")];
    const m = matchCity("Mendoubya Kasba quartier", towns);
    expect(m).toMatchObject({ status: "matched", via: "fuzzy", score: 0.87, city: { id: 3 } });
  });

  it("keeps the suggestions of every run when none is close enough", () => {
    const m = matchCity("Bouknadel hay 7", cities());
    expect(m.status).toBe("unmatched");
    expect(ids(m)).toContain(cityId("Tanger"));
  });
});

describe("regions and address lines", () => {
  it("asks about a region, suggesting its cities", () => {
    const m = matchCity("Casablanca-Settat", cities());
    expect(m).toMatchObject({ status: "unmatched", source: "city", input: "Casablanca-Settat" });
    expect(ids(m).slice(0, 2)).toEqual([cityId("Casablanca"), cityId("Settat")]);
  });

  it("looks in the address when the city field holds a region", () => {
    expect(matchCity({ city: "Casablanca-Settat", address1: "rue 5, Rabat" }, cities())).toMatchObject({
      status: "matched",
      source: "address1",
      input: "rue 5, Rabat",
      city: { id: cityId("Rabat") },
    });
  });

  it("takes the first city of the city field, the last of an address line", () => {
    expect(matchCity("Casablanca Rabat", cities())).toMatchObject({ city: { name: "Casablanca" }, source: "city" });
    expect(matchCity({ city: "", address1: "12 rue Fes Casablanca" }, cities())).toMatchObject({
      city: { name: "Casablanca" },
      source: "address1",
    });
  });

  it("prefers the longest known spelling", () => {
    expect(matchCity("Sale Al Jadida", cities())).toMatchObject({ city: { name: "Salé" }, via: "alias" });
    expect(matchCity("El Jadida", cities())).toMatchObject({ city: { name: "El Jadida" }, via: "name" });
  });

  it("reads address1, then address2, then the province", () => {
    expect(matchCity({ city: "", address1: "Rabat, Hay Riad", address2: "Casablanca" }, cities())).toMatchObject({
      source: "address1",
      city: { name: "Rabat" },
    });
    expect(matchCity({ city: " ", address2: "Agadir", province: "Marrakech" }, cities())).toMatchObject({
      source: "address2",
      city: { name: "Agadir" },
    });
    expect(matchCity({ city: "", province: "Marrakech" }, cities())).toMatchObject({
      source: "province",
      city: { name: "Marrakech" },
    });
    expect(matchCity({ city: "", address1: "  " }, cities())).toEqual({ status: "missing" });
  });
});
