/**
 * The rules of city proposals one at a time, on a small index and rankings given by hand: which
 * scores count, how many choices and in what order, which runs of words inside a field point at a
 * city, when a field typed without vowels is read by its consonants, and that remembered proposals
 * belong to the exact question asked.
 */
import { describe, expect, it } from "vitest";
import { buildCityIndex } from "../../app/leads/city-match";
import { certainCity, cityProposals, type FieldSpan } from "../../app/leads/city-proposals";
import type { City, CitySuggestion } from "../../app/leads";

const city = (id: number, name: string): City => ({ id, name, delivery_fee: "20.00" });
// Names far apart in spelling, sound and consonants, so only the rankings given by hand propose them.
const CITIES = [city(1, "Azrou"), city(2, "Imouzzer"), city(3, "Ouezzane"), city(4, "Tafraout"), city(5, "Larache")];
const index = () => buildCityIndex(CITIES);
// A field that sounds like no city and has vowels (so its consonants are not read).
const KEY = "pelikopa";
const shown = (s: CitySuggestion[]) => s.map((x) => [x.cityId, x.score, x.confidence, x.why]);

describe("likely choices from the rankings", () => {
  it("GIVEN five close cities WHEN proposed THEN the three best come, best first, ties by id", () => {
    const full = [
      { cityId: 3, score: 0.9 },
      { cityId: 2, score: 0.8 },
      { cityId: 1, score: 0.8 },
      { cityId: 4, score: 0.95 },
      { cityId: 5, score: 0.76 },
    ];
    expect(shown(cityProposals(index(), { key: KEY, full, spans: [] }))).toEqual([
      [4, 0.95, "likely", "spelling"],
      [3, 0.9, "likely", "spelling"],
      [1, 0.8, "likely", "spelling"],
    ]);
  });

  it("GIVEN a score under the whole field's floor WHEN proposed THEN nothing", () => {
    expect(cityProposals(index(), { key: KEY, full: [{ cityId: 1, score: 0.74 }], spans: [] })).toEqual([]);
  });

  it("GIVEN a field of five letters WHEN its best city scores 0.78 THEN nothing: one letter off a short name is another name", () => {
    expect(cityProposals(index(), { key: "pelik", full: [{ cityId: 1, score: 0.78 }], spans: [] })).toEqual([]);
    expect(shown(cityProposals(index(), { key: "peliko", full: [{ cityId: 1, score: 0.78 }], spans: [] }))).toEqual([
      [1, 0.78, "likely", "spelling"],
    ]);
  });

  it("GIVEN one city reached twice WHEN proposed THEN it keeps its best score and the reason of the first to reach it", () => {
    const span = (score: number): FieldSpan => ({ words: ["azro"], outside: ["hay"], ranked: [{ cityId: 1, score }] });
    expect(shown(cityProposals(index(), { key: KEY, full: [{ cityId: 1, score: 0.85 }], spans: [span(0.9)] }))).toEqual(
      [[1, 0.9, "likely", "in_field"]],
    );
    expect(
      shown(cityProposals(index(), { key: KEY, full: [{ cityId: 1, score: 0.85 }], spans: [span(0.85)] })),
    ).toEqual([[1, 0.85, "likely", "spelling"]]);
    expect(
      shown(cityProposals(index(), { key: KEY, full: [{ cityId: 1, score: 0.95 }], spans: [span(0.85)] })),
    ).toEqual([[1, 0.95, "likely", "spelling"]]);
  });

  it("GIVEN a proven city and three close ones WHEN proposed THEN the proven one first and the three after it", () => {
    const idx = buildCityIndex([city(1, "Kenitra"), ...CITIES.slice(1, 4)]);
    const full = [
      { cityId: 2, score: 0.9 },
      { cityId: 3, score: 0.85 },
      { cityId: 4, score: 0.8 },
    ];
    expect(shown(cityProposals(idx, { key: "quenitra", full, spans: [] }))).toEqual([
      [1, 1, "certain", "sound"],
      [2, 0.9, "likely", "spelling"],
      [3, 0.85, "likely", "spelling"],
      [4, 0.8, "likely", "spelling"],
    ]);
  });

  it("GIVEN a spelling the merchant confirmed WHEN a field is far from it THEN its city is not proposed", () => {
    const idx = buildCityIndex([city(1, "Azrou"), city(5, "Safi")], [{ alias: "Sebt Gzoula", cityId: 5 }]);
    expect(cityProposals(idx, { key: KEY, full: [], spans: [] })).toEqual([]);
    expect(shown(cityProposals(idx, { key: "sebtgzoulla", full: [], spans: [] }))).toEqual([
      [5, 1, "certain", "confirmed"],
    ]);
  });

  it("GIVEN a city already matched WHEN its other candidates are proposed THEN it is left out", () => {
    const full = [
      { cityId: 1, score: 0.9 },
      { cityId: 2, score: 0.85 },
    ];
    expect(shown(cityProposals(index(), { key: KEY, full, spans: [], choicesOnly: true }, 1))).toEqual([
      [2, 0.85, "likely", "spelling"],
    ]);
  });
});

describe("runs of words inside a longer field", () => {
  const run = (words: string[], outside: string[]): FieldSpan => ({
    words,
    outside,
    ranked: [{ cityId: 2, score: 0.85 }],
  });
  const viaRun = (s: FieldSpan) => shown(cityProposals(index(), { key: KEY, full: [], spans: [s] }));

  it("GIVEN a misspelt city among other words WHEN proposed THEN it is a choice found in the field", () => {
    expect(viaRun(run(["imouzer"], ["hay", "salam"]))).toEqual([[2, 0.85, "likely", "in_field"]]);
    expect(viaRun(run(["sidi", "imouzer"], []))).toEqual([[2, 0.85, "likely", "in_field"]]);
  });

  it("GIVEN a run of place-name words only, or a run beside one (a doubled letter too) WHEN proposed THEN nothing", () => {
    expect(viaRun(run(["sidi"], ["imouzer"]))).toEqual([]);
    expect(viaRun(run(["imouzer"], ["bbab"]))).toEqual([]);
    expect(viaRun(run(["imouzer"], ["oulad"]))).toEqual([]);
  });

  it("GIVEN a run scoring under 0.8 WHEN proposed THEN nothing", () => {
    expect(viaRun({ words: ["imouzer"], outside: [], ranked: [{ cityId: 2, score: 0.79 }] })).toEqual([]);
  });
});

describe("a field typed without vowels", () => {
  // Taza's consonants are "tz"; Tiznit's "tznt".
  const consonantIndex = () => buildCityIndex([city(1, "Taza"), city(2, "Tiznit")]);
  const read = (key: string) => shown(cityProposals(consonantIndex(), { key, full: [], spans: [] }));

  it("GIVEN three letters, at most a fifth of them vowels WHEN proposed THEN the city with the same consonants", () => {
    expect(read("tzz")).toEqual([[1, 0.75, "likely", "consonants"]]);
    expect(read("tznta")).toEqual([[2, 0.75, "likely", "consonants"]]);
  });

  it("GIVEN a field whose consonants are one letter WHEN proposed THEN nothing: one consonant points at too many names", () => {
    expect(cityProposals(buildCityIndex([city(1, "Azou")]), { key: "zzz", full: [], spans: [] })).toEqual([]);
  });

  it("GIVEN two letters, or more than a fifth of vowels WHEN proposed THEN nothing by consonants", () => {
    expect(read("tz")).toEqual([]);
    expect(read("tznnta")).toEqual([[2, 0.75, "likely", "consonants"]]);
    expect(read("tzntaa")).toEqual([]);
  });
});

describe("what is proven", () => {
  it("GIVEN two cities that sound the same WHEN a field sounds like both THEN neither is proven", () => {
    const twins = buildCityIndex([city(1, "Kenitra"), city(2, "Kinitra")]);
    expect(certainCity(twins, "quenitra")).toBeUndefined();
    expect(certainCity(buildCityIndex([city(1, "Kenitra")]), "quenitra")).toEqual({ cityId: 1, confirmed: false });
    expect(certainCity(buildCityIndex([city(1, "Kenitra")]), "pelikopa")).toBeUndefined();
  });

  it("GIVEN an Arabic name of two sounds WHEN the field is that name THEN it is not proven: too short to tell", () => {
    expect(certainCity(buildCityIndex([city(1, "\u0641\u0627\u0633")]), "\u0641\u0627\u0633")).toBeUndefined();
  });
});

describe("remembered proposals", () => {
  it("GIVEN the same field asked twice WHEN the second answer is changed THEN the remembered one is not", () => {
    const idx = index();
    const input = { key: KEY, full: [{ cityId: 1, score: 0.9 }], spans: [] };
    const first = cityProposals(idx, input);
    first[0].name = "changed";
    expect(shown(cityProposals(idx, input))).toEqual([[1, 0.9, "likely", "spelling"]]);
    expect(cityProposals(idx, input)[0].name).toBe("Azrou");
  });

  it("GIVEN the same field WHEN asked with another skip, other runs or for choices only THEN each gets its own answer", () => {
    const idx = index();
    const full = [{ cityId: 1, score: 0.9 }];
    expect(cityProposals(idx, { key: KEY, full, spans: [] }, 1)).toEqual([]);
    expect(shown(cityProposals(idx, { key: KEY, full, spans: [] }))).toEqual([[1, 0.9, "likely", "spelling"]]);
    const a: FieldSpan = { words: ["imouzer"], outside: [], ranked: [{ cityId: 2, score: 0.85 }] };
    const b: FieldSpan = { words: ["ouezan"], outside: [], ranked: [{ cityId: 3, score: 0.85 }] };
    expect(shown(cityProposals(idx, { key: KEY, full: [], spans: [a] }))).toEqual([[2, 0.85, "likely", "in_field"]]);
    expect(shown(cityProposals(idx, { key: KEY, full: [], spans: [b] }))).toEqual([[3, 0.85, "likely", "in_field"]]);
    // Runs told apart by their words, not by their letters run together.
    const split: FieldSpan = { words: ["ouez", "an"], outside: [], ranked: [{ cityId: 4, score: 0.85 }] };
    expect(shown(cityProposals(idx, { key: KEY, full: [], spans: [split] }))).toEqual([
      [4, 0.85, "likely", "in_field"],
    ]);
    const two: FieldSpan[] = [
      { words: ["ouezan"], outside: [], ranked: [{ cityId: 5, score: 0.85 }] },
      { words: ["x"], outside: [], ranked: [] },
    ];
    const joined: FieldSpan = { words: ["ouezanx"], outside: [], ranked: [{ cityId: 1, score: 0.85 }] };
    expect(shown(cityProposals(idx, { key: KEY, full: [], spans: two }))).toEqual([[5, 0.85, "likely", "in_field"]]);
    expect(shown(cityProposals(idx, { key: KEY, full: [], spans: [joined] }))).toEqual([
      [1, 0.85, "likely", "in_field"],
    ]);
  });
});
