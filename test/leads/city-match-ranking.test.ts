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
  it("proposes no city for a town whose closest city is far (Bouknadel is not Tanger)", () => {
    const m = matchCity("Bouknadel", cities());
    expect(m).toMatchObject({ status: "unmatched", source: "city", input: "Bouknadel", suggestions: [] });
  });

  it("proposes the close cities, best first, as likely choices", () => {
    const towns = [town(1, "Zorbalikan"), town(2, "Zorbolukan"), town(3, "Qwertyuiop")];
    const m = matchCity("Zorbalkan", towns, [], 0.95);
    expect(m.status).toBe("unmatched");
    expect(m.status === "unmatched" && m.suggestions.map((s) => [s.cityId, s.score, s.confidence])).toEqual([
      [1, 0.9, "likely"],
      [2, 0.8, "likely"],
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
    // Nothing proves it: the city it was read as is the first choice; no other delivered city is close.
    expect(ids(m)).toEqual([cityId("Casablanca")]);
    const twins = [town(1, "Zorbalikan"), town(2, "Zorbalukon")];
    const matched = matchCity("Zorbalikn", twins, [], 0.85);
    expect(matched).toMatchObject({ status: "matched", city: { id: 1 } });
    expect(matched.status === "matched" && matched.suggestions.map((s) => [s.cityId, s.confidence])).toEqual([
      [1, "likely"],
      [2, "likely"],
    ]);
  });

  it("does not fuzzy-match under the threshold", () => {
    expect(matchCity("Zorbalikq", [town(2, "Zorbalik")], [], 0.9).status).toBe("unmatched");
    // Close enough, and it sounds like that city alone: proven.
    expect(matchCity("Zorbalikq", [town(2, "Zorbalik")], [], 0.85)).toMatchObject({
      status: "matched",
      via: "sound",
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

  it("keeps the choices of every run when none is close enough to send", () => {
    const towns = [town(1, "Zorbalikan"), town(2, "Qwertyuiop")];
    const m = matchCity("Zorblikn hay 7 qwertyuio", towns, [], 0.95);
    expect(m.status).toBe("unmatched");
    expect([...ids(m)].sort()).toEqual([1, 2]);
  });

  it("does not send a run of words beside a word that starts place names: Bir Jdid is not El Jadida", () => {
    const m = matchCity("Bir Jdid", cities());
    expect(m).toMatchObject({ status: "unmatched", suggestions: [] });
    expect(matchCity("Souk Sebt Oulad Nemma", cities()).status).toBe("unmatched");
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
