/**
 * City proposals for a field no delivered city matches: certain only when it is a
 * delivered city's name (or a confirmed alias) in another spelling, likely when close,
 * nothing for a town the platform does not deliver. Sebt Gzoula is not Settat.
 */
import { describe, expect, it } from "vitest";
import { matchCity, type CityMatch } from "../../app/leads";
import { cities as seedCities, cityId } from "./helpers";

const cities = () => [...seedCities];
const proposals = (m: CityMatch) =>
  m.status === "unmatched" ? m.suggestions.map((s) => [s.name, s.confidence]) : m.status;

describe("the merchant walk's wrong proposal", () => {
  it("GIVEN Sebt Gzoula, a town near Safi WHEN nothing matches THEN Settat is not proposed: nothing is", () => {
    expect(proposals(matchCity({ city: "Sebt Gzoula", address1: "Douar Ouled Salem" }, cities()))).toEqual([]);
  });

  it("GIVEN the merchant confirmed Sebt Gzoula as Safi WHEN a customer spells it otherwise THEN Safi is the certain fix", () => {
    const aliases = [{ alias: "Sebt Gzoula", cityId: cityId("Safi") }];
    expect(proposals(matchCity("Sebt Gzola", cities(), aliases))).toEqual([["Safi", "certain"]]);
    expect(proposals(matchCity("Sebt Guezoula", cities(), aliases))).toEqual([["Safi", "likely"]]);
  });
});

describe("certain", () => {
  it.each([
    ["Quenitra", "Kénitra"],
    ["Lkhmissat", "Khémisset"],
    ["Lmrrakch", "Marrakech"],
    ["ربات", "Rabat"],
    ["ورززات", "Ouarzazate"],
  ])("proposes %s as %s", (input, city) => {
    expect(proposals(matchCity(input, cities()))[0]).toEqual([city, "certain"]);
  });

  it("never proves a name of three consonants or fewer, a region, or a sound two cities share", () => {
    // "Goulmim" is Guelmim, but "Goulmima" is another town: three consonants prove neither.
    expect(proposals(matchCity("Goulmim", cities()))).toEqual([["Guelmim", "likely"]]);
    expect(proposals(matchCity("Tetwane", cities()))).toEqual([["Tétouan", "likely"]]);
    const m = matchCity(
      "Quenitra",
      [
        { id: 1, name: "Kenitra", delivery_fee: "20.00" },
        { id: 2, name: "Kinitra", delivery_fee: "20.00" },
      ],
      [],
      0.99,
    );
    expect(m.status === "unmatched" && m.suggestions.every((s) => s.confidence === "likely")).toBe(true);
    expect(proposals(matchCity("Fes-Meknes", cities()))).toEqual([
      ["Fès", "likely"],
      ["Meknès", "likely"],
    ]);
  });

  it("lets the merchant's confirmed spelling win over the table, unless two of them disagree", () => {
    const confirmed = [{ alias: "Kinitra", cityId: cityId("Rabat") }];
    expect(proposals(matchCity("Quenitra", cities(), confirmed))).toEqual([
      ["Rabat", "certain"],
      ["Kénitra", "likely"],
    ]);
    const disagreeing = [...confirmed, { alias: "Kenitrra", cityId: cityId("Salé") }];
    expect(proposals(matchCity("Quenitra", cities(), disagreeing))).not.toContainEqual(
      expect.arrayContaining(["certain"]),
    );
  });
});

describe("likely and nothing", () => {
  it("offers a city typed without vowels, and a close misspelling", () => {
    expect(proposals(matchCity("Brkn", cities()))).toEqual([["Berkane", "likely"]]);
    expect(proposals(matchCity("Tinejir", cities()))).toEqual([["Tinghir", "likely"]]);
  });

  it.each(["Oulad Said", "Tamri", "Zemamra", "Massa", "Sidi Yahya Zaer", "Hay Salam", "Bouknadel"])(
    "proposes nothing for %s",
    (input) => {
      expect(proposals(matchCity(input, cities()))).toEqual([]);
    },
  );

  it("GIVEN a proposed city WHEN it is shown THEN it says why: a sound, a confirmed spelling, letters or consonants", () => {
    const why = (m: CityMatch) => (m.status === "unmatched" ? m.suggestions.map((s) => [s.name, s.why]) : m.status);
    const aliases = [{ alias: "Sebt Gzoula", cityId: cityId("Safi") }];
    expect(why(matchCity("Quenitra", cities()))).toEqual([["Kénitra", "sound"]]);
    expect(why(matchCity("Sebt Gzola", cities(), aliases))).toEqual([["Safi", "confirmed"]]);
    expect(why(matchCity("Sebt Guezoula", cities(), aliases))).toEqual([["Safi", "confirmed"]]);
    expect(why(matchCity("Tetwane", cities()))).toEqual([["Tétouan", "sound"]]);
    expect(why(matchCity("Tinejir", cities()))).toEqual([["Tinghir", "spelling"]]);
    expect(why(matchCity("Brkn", cities()))).toEqual([["Berkane", "consonants"]]);
  });

  it("remembers a field's proposals and hands out copies", () => {
    const first = matchCity("Brkn", cities());
    if (first.status === "unmatched") first.suggestions[0].name = "changed";
    expect(proposals(matchCity("Brkn", cities()))).toEqual([["Berkane", "likely"]]);
  });
});
