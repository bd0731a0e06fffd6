import { describe, expect, it } from "vitest";
import { buildCityIndex, type CityFields, matchCity, matchCityWithIndex, normalizeCityKey } from "../../app/leads";
import { cities, cityId, readJson } from "./helpers";

interface CityCase {
  input: string | CityFields;
  city: string | null;
  kind: "name" | "alias" | "arabic" | "fuzzy" | "district" | "address" | "none";
}

const corpus = readJson<{ cases: CityCase[] }>("test", "fixtures", "leads", "city-spellings.json").cases;
const label = (input: CityCase["input"]) => (typeof input === "string" ? input : JSON.stringify(input));

describe("matchCity: corpus of customer spellings", () => {
  it("holds at least 300 spellings, Latin and Arabic, misspelt and with districts", () => {
    expect(corpus.length).toBeGreaterThanOrEqual(300);
    const kinds = new Set(corpus.map((c) => c.kind));
    for (const kind of ["name", "alias", "arabic", "fuzzy", "district", "address", "none"])
      expect(kinds).toContain(kind);
  });

  it.each(corpus.map((c) => [label(c.input), c] as const))("%s", (_label, c) => {
    const match = matchCity(c.input, cities);
    if (c.city === null) {
      expect(match.status).not.toBe("matched");
      return;
    }
    expect(match.status).toBe("matched");
    if (match.status !== "matched") return;
    expect(match.city.id).toBe(cityId(c.city));
    if (c.kind === "fuzzy") expect(match.via === "fuzzy" || match.via === "sound" || match.score === 1).toBe(true);
    if (c.kind === "address") expect(match.source).not.toBe("city");
  });

  it("reads many misspellings through the fuzzy matcher (the rest meet a spelling once doubled letters fold)", () => {
    const fuzzy = corpus.filter((c) => c.kind === "fuzzy").map((c) => matchCity(c.input, cities));
    const viaFuzzy = fuzzy.filter((m) => m.status === "matched" && (m.via === "fuzzy" || m.via === "sound"));
    expect(viaFuzzy.length).toBeGreaterThanOrEqual(40);
    for (const m of viaFuzzy) if (m.status === "matched") expect(m.score).toBeGreaterThanOrEqual(0.8);
    // Some are proven by their sound (sent unasked), the rest only look alike (held by default).
    expect(viaFuzzy.some((m) => m.status === "matched" && m.via === "sound")).toBe(true);
    expect(viaFuzzy.some((m) => m.status === "matched" && m.via === "fuzzy")).toBe(true);
  });
});

describe("normalizeCityKey", () => {
  it.each([
    ["Fès", "Fes", "FES", "Ville de Fès", "fès-ville", " fes 30000 "],
    ["El Jadida", "Jadida", "EL-JADIDA", "El Jadida"],
    ["Ben Guerir", "Benguerir", "BEN-GUERIR"],
    ["Marrakech", "Marakech", "MARRAKECH"],
    ["الدار البيضاء", "الدار البيضا", "دار البيضاء", "الدار  البيضاء"],
    ["M'diq", "M’diq", "Mdiq"],
    ["Oujda", "d'Oujda", "l’Oujda", "Ville d'Oujda"],
  ])("gives one key to %s and its variants", (...spellings) => {
    const keys = new Set(spellings.map(normalizeCityKey));
    expect(keys.size).toBe(1);
    expect([...keys][0]).not.toBe("");
  });

  it.each(["Quartier", "Centre ville", "12", "---", "Maroc", ""])("leaves nothing city-like in %j", (text) => {
    expect(normalizeCityKey(text)).toBe("");
  });

  it("is idempotent, so stored aliases can be normalised again", () => {
    for (const c of corpus) {
      if (typeof c.input !== "string") continue;
      const key = normalizeCityKey(c.input);
      expect(normalizeCityKey(key)).toBe(key);
    }
  });
});

describe("matchCity: rules", () => {
  it("offers the city a field typed without vowels may be, as a likely choice below the threshold", () => {
    const match = matchCity("Mrkch", cities);
    expect(match.status).toBe("unmatched");
    if (match.status !== "unmatched") return;
    expect(match.suggestions).toEqual([
      expect.objectContaining({ kind: "city", cityId: cityId("Marrakech"), confidence: "likely" }),
    ]);
    for (const s of match.suggestions) expect(s.score).toBeLessThan(0.8);
  });

  it("proposes a city as certain when the field is its name in another spelling (Quenitra is Kénitra)", () => {
    const match = matchCity("Quenitra", cities);
    expect(match).toMatchObject({
      status: "unmatched",
      suggestions: [{ kind: "city", cityId: cityId("Kénitra"), confidence: "certain" }],
    });
  });

  it("accepts a misspelling from the threshold and reports its score", () => {
    const match = matchCity("Casablnaca", cities);
    expect(match).toMatchObject({ status: "matched", via: "fuzzy", city: { id: cityId("Casablanca") } });
    if (match.status === "matched") expect(match.score).toBeGreaterThanOrEqual(0.8);
  });

  it("follows a stricter threshold", () => {
    expect(matchCity("Rabta", cities, [], 0.8).status).toBe("matched");
    expect(matchCity("Rabta", cities, [], 0.9).status).toBe("unmatched");
  });

  it("refuses a coin toss between two cities", () => {
    // "Tata" and "Taza" are both delivered; "Tatza" is one edit from each.
    expect(matchCity("Tatza", cities).status).toBe("unmatched");
  });

  it("lets the shop's alias win over the built-in table and the fuzzy matcher", () => {
    const aliases = [
      { alias: "Youssoufia", cityId: cityId("Rabat") },
      { alias: "Casa Anfa Sud", cityId: cityId("Casablanca") },
      { alias: "Sebt Gzoula", cityId: cityId("Safi") },
    ];
    expect(matchCity("Youssoufia", cities, aliases)).toMatchObject({
      via: "shop_alias",
      city: { id: cityId("Rabat") },
    });
    expect(matchCity("casa-anfa sud", cities, aliases)).toMatchObject({
      via: "shop_alias",
      city: { id: cityId("Casablanca") },
    });
    expect(matchCity("SEBT GZOULA", cities, aliases)).toMatchObject({
      via: "shop_alias",
      city: { id: cityId("Safi") },
    });
    expect(matchCity("Sebt Gzoula", cities).status).toBe("unmatched");
  });

  it("ignores a shop alias to a city the platform no longer delivers", () => {
    expect(matchCity("Sebt Gzoula", cities, [{ alias: "Sebt Gzoula", cityId: 99999 }]).status).toBe("unmatched");
  });

  it("prefers the longest spelling: Salé Al Jadida is Salé, not El Jadida", () => {
    expect(matchCity("Salé Al Jadida", cities)).toMatchObject({ city: { id: cityId("Salé") } });
  });

  it("does not read a street named after a city as the city", () => {
    expect(matchCity({ address1: "Rue de Fès, Meknès" }, cities)).toMatchObject({
      city: { id: cityId("Meknès") },
      source: "address1",
    });
    expect(matchCity({ address1: "Avenue de Marrakech" }, cities)).toEqual({ status: "missing" });
  });

  it("uses the address lines when the city field is not a city, and says so", () => {
    const match = matchCity({ city: "Hay Nahda 2", address1: "Imm 4, Tanger" }, cities);
    expect(match).toMatchObject({ status: "matched", source: "address1", city: { id: cityId("Tanger") } });
  });

  it("keeps the city field's suggestions when nothing else is found", () => {
    const match = matchCity({ city: "Casablamka zz", address1: "Rue 5" }, cities);
    expect(
      match.status === "matched" ? match.city.id : match.status === "unmatched" ? match.suggestions[0]?.cityId : 0,
    ).toBe(cityId("Casablanca"));
  });

  it("does not take a region name for a city", () => {
    expect(matchCity({ province: "Casablanca-Settat" }, cities)).toEqual({ status: "missing" });
    expect(matchCity("Rabat-Salé-Kénitra", cities).status).toBe("unmatched");
  });

  it("reports missing when no field holds anything", () => {
    expect(matchCity({ city: " ", address1: "", address2: undefined }, cities)).toEqual({ status: "missing" });
  });

  it("knows only the cities the platform delivers", () => {
    const fewer = cities.filter((c) => c.name !== "Tata");
    expect(matchCity("Tata", fewer).status).toBe("unmatched");
  });

  it("matches a platform that spells a city differently, through the built-in spellings", () => {
    const renamed = [{ id: 7, name: "Fez", delivery_fee: "30.00" }];
    expect(matchCityWithIndex(buildCityIndex(renamed), "فاس")).toMatchObject({ status: "matched", city: { id: 7 } });
    expect(matchCityWithIndex(buildCityIndex(renamed), "Fès")).toMatchObject({ status: "matched", city: { id: 7 } });
  });

  it("gives every delivered city at least one Arabic spelling", () => {
    const index = buildCityIndex(cities);
    const arabicKeys = new Set([...index.keys].filter(([k]) => /[\u0600-\u06ff]/.test(k)).map(([, e]) => e.cityId));
    expect(cities.filter((c) => !arabicKeys.has(c.id)).map((c) => c.name)).toEqual([]);
  });
});
