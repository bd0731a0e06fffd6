/**
 * matchCity at the edges of its index and its input: spellings two cities share, a
 * malformed platform list, long shop aliases, address lines split into parts, fields past
 * their bound.
 */
import { describe, expect, it } from "vitest";
import { matchCity } from "../../app/leads";
import { MAX_FIELD_CHARS } from "../../app/leads/field-limits";
import { cities as seedCities, cityId } from "./helpers";

/** A fresh copy per call: the matcher memoises its index per array, and each test must build its own. */
const cities = () => [...seedCities];
const town = (id: number, name: string) => ({ id, name, delivery_fee: "20.00" });

describe("the index of spellings", () => {
  it("takes a spelling two delivered cities share for neither", () => {
    const m = matchCity("Zorbalik", [town(1, "Zorbalik"), town(2, "Zorbalik"), town(3, "Qwertyuiop")]);
    expect(m.status).toBe("unmatched");
    expect(m.status === "unmatched" && m.suggestions.map((s) => [s.cityId, s.score])).toEqual([
      [1, 1],
      [2, 1],
    ]);
  });

  it("skips malformed entries of the platform's list and still matches the others", () => {
    const list = [null, { id: 5 }, town(1, "Zorbalik")] as unknown as ReturnType<typeof town>[];
    expect(matchCity("Zorbalik", list)).toMatchObject({ status: "matched", via: "name", city: { id: 1 } });
    expect(matchCity("Zorbalikq", list)).toMatchObject({ status: "matched", via: "sound", city: { id: 1 } });
  });

  it("reads a shop alias with more words than any city's own spelling", () => {
    const aliases = [{ alias: "Ain Sebaa Beni Yakhlef", cityId: 1 }];
    expect(matchCity("Ain Sebaa Beni Yakhlef", [town(1, "Zorbalik")], aliases)).toMatchObject({
      status: "matched",
      via: "shop_alias",
      score: 1,
      city: { id: 1 },
    });
  });

  it("lets a shop alias to a city the platform no longer delivers shadow nothing", () => {
    const stale = [{ alias: "Rabat", cityId: 99999 }];
    expect(matchCity("Rabat", cities(), stale)).toMatchObject({
      status: "matched",
      via: "name",
      score: 1,
      city: { id: cityId("Rabat") },
    });
  });

  it("reads a name typed as one word with its article", () => {
    expect(matchCity("Eljadida", cities())).toMatchObject({
      status: "matched",
      via: "name",
      score: 1,
      city: { id: cityId("El Jadida") },
    });
  });

  it("lets a city's own name win over another city's district, whatever the list's order", () => {
    for (const list of [
      [town(1, "Casablanca"), town(2, "Maarif")],
      [town(2, "Maarif"), town(1, "Casablanca")],
    ]) {
      expect(matchCity("Maarif", list)).toMatchObject({ status: "matched", via: "name", city: { id: 2 } });
      expect(matchCity("Ain Sebaa", list)).toMatchObject({ status: "matched", via: "district", city: { id: 1 } });
    }
  });

  it("reads a city listed twice by the platform", () => {
    expect(matchCity("Zorbalik", [town(1, "Zorbalik"), town(1, "Zorbalik")])).toMatchObject({
      status: "matched",
      via: "name",
      city: { id: 1 },
    });
  });

  it("says which table a spelling came from", () => {
    expect(matchCity("Maarif", cities())).toEqual({
      status: "matched",
      city: expect.objectContaining({ id: cityId("Casablanca") }),
      via: "district",
      score: 1,
      source: "city",
      input: "Maarif",
      suggestions: [],
    });
    // The platform spells it "Fez": our "Fès" is one of its spellings, not its name.
    expect(matchCity("Fès", [town(7, "Fez")])).toMatchObject({
      status: "matched",
      via: "alias",
      score: 1,
      city: { id: 7 },
    });
  });

  it.each<[string, string]>([
    ["Al Jadida", "El Jadida"],
    ["La Ayoune", "Laâyoune"],
    ["Es Semara", "Es-Semara"],
  ])("reads %s exactly, with or without its article", (typed, name) => {
    expect(matchCity(typed, cities())).toMatchObject({
      status: "matched",
      via: "name",
      score: 1,
      city: { id: cityId(name) },
    });
  });

  it("orders equally close suggestions by id", () => {
    const m = matchCity("Zorbaliz", [town(3, "Zorbalik"), town(1, "Zorbalim"), town(2, "Zorbalin")]);
    expect(m.status === "unmatched" && m.suggestions.map((s) => s.cityId)).toEqual([1, 2, 3]);
  });

  it("offers no suggestion for fewer than three letters", () => {
    expect(matchCity("Fs", cities())).toEqual({ status: "unmatched", source: "city", input: "Fs", suggestions: [] });
  });
});

describe("the city field", () => {
  it("does not take a street named after a city for the city", () => {
    expect(matchCity("Avenue de Fès", cities())).toEqual({
      status: "unmatched",
      source: "city",
      input: "Avenue de Fès",
      suggestions: [],
    });
  });

  it("reads the city field as one text, commas included", () => {
    expect(matchCity("Ben, Guerir", cities())).toMatchObject({
      status: "matched",
      via: "name",
      city: { id: cityId("Ben Guerir") },
    });
  });

  it.each(["Casablnaca chez Ahmed", "Ahmed Casablnaca", "Ahmed Casablnaca Ali"])(
    "finds a misspelt city beside other names: %s",
    (typed) => {
      expect(matchCity(typed, cities())).toMatchObject({
        status: "matched",
        via: "fuzzy",
        score: 0.9,
        input: typed,
        city: { id: cityId("Casablanca") },
      });
    },
  );

  it("finds a misspelt three-word city beside other names", () => {
    const towns = [town(1, "Sidi Bou Othmane"), town(2, "Zorbalik")];
    expect(matchCity("Sidi Bou Otmane chez Ahmed", towns)).toMatchObject({
      status: "matched",
      via: "fuzzy",
      score: 0.93,
      city: { id: 1 },
    });
  });

  it("reads a spelling whose article the customer wrote differently", () => {
    // Our spelling is "Salé Al Jadida"; "El Jadida" inside it must not win.
    expect(matchCity("Salé El Jadida", cities())).toMatchObject({
      status: "matched",
      via: "alias",
      score: 1,
      city: { id: cityId("Salé") },
    });
  });

  it("reads a misspelt four-letter city beside other names", () => {
    expect(matchCity("Rabt chez Ahmed", cities())).toMatchObject({
      status: "matched",
      via: "fuzzy",
      score: 0.8,
      city: { id: cityId("Rabat") },
    });
  });

  it("finds a misspelt two-word city beside other names", () => {
    const towns = [town(2, "Zorbalik"), town(3, "Mendoubia Kasbah")];
    expect(matchCity("Mendoubya Kasba chez Ahmed", towns)).toMatchObject({
      status: "matched",
      via: "fuzzy",
      score: 0.87,
      city: { id: 3 },
    });
  });

  it("proposes nothing when no run of words is close to a delivered city (a town the platform does not deliver)", () => {
    const m = matchCity("Bouknadel chez Ahmed", cities());
    expect(m).toMatchObject({ status: "unmatched", suggestions: [] });
  });

  it("offers a run of words close to a city as a likely choice, never as proven", () => {
    const m = matchCity("Tangerr chez Ahmed Ali Zahra", cities());
    expect(m.status === "matched" ? m.city.name : m.status === "unmatched" && m.suggestions[0]).toBeTruthy();
    const m2 = matchCity("Casablnca zz", cities());
    const proposals = m2.status === "missing" ? [] : m2.suggestions;
    expect(proposals.every((s) => s.confidence === "likely")).toBe(true);
  });
});

describe("address lines", () => {
  it("takes the last city of a line without separators", () => {
    expect(matchCity({ address1: "Agadir Marrakech" }, cities())).toMatchObject({
      city: { id: cityId("Marrakech") },
      source: "address1",
    });
  });

  it("keeps a city read in an earlier part when the later parts hold none", () => {
    expect(matchCity({ address1: "Rabat, Imm 4 appt 5", address2: "Casablanca" }, cities())).toMatchObject({
      city: { id: cityId("Rabat") },
      source: "address1",
    });
  });

  it("prefers the longest spelling there too: Salé Al Jadida is Salé", () => {
    expect(matchCity({ address1: "Salé Al Jadida" }, cities())).toMatchObject({
      city: { id: cityId("Salé") },
      source: "address1",
    });
  });

  it.each([", ", "; ", "\n"])(
    "reads each part between %j on its own, and the last part with a city wins",
    (separator) => {
      // Unsplit, "Salé Al Jadida" would be read as one spelling (Salé).
      expect(matchCity({ address1: `Résidence Salé${separator}Al Jadida` }, cities())).toMatchObject({
        city: { id: cityId("El Jadida") },
        source: "address1",
      });
      expect(matchCity({ address1: `Agadir${separator}Marrakech` }, cities())).toMatchObject({
        city: { id: cityId("Marrakech") },
      });
    },
  );

  it("reports the line it read without its surrounding spaces", () => {
    expect(matchCity({ address1: "  Rabat  " }, cities())).toEqual({
      status: "matched",
      city: expect.objectContaining({ id: cityId("Rabat") }),
      via: "name",
      score: 1,
      source: "address1",
      input: "Rabat",
      suggestions: [],
    });
  });
});

describe("fields past their bound", () => {
  const pad = "x".repeat(MAX_FIELD_CHARS - 5);

  it("reads only the first characters of an address line", () => {
    expect(matchCity({ city: "", address1: `${pad} Rabat` }, cities())).toEqual({ status: "missing" });
    expect(matchCity({ city: "", address1: `Rabat ${pad}` }, cities())).toMatchObject({
      status: "matched",
      city: { id: cityId("Rabat") },
    });
  });

  it("reads and reports only the first characters of the city field", () => {
    const m = matchCity({ city: `Rabat ${pad}`, address1: "Fes" }, cities());
    expect(m).toMatchObject({ status: "matched", source: "city", city: { id: cityId("Rabat") } });
    expect(m.status === "matched" && m.input).toBe(`Rabat ${pad}`.slice(0, MAX_FIELD_CHARS));
  });
});
