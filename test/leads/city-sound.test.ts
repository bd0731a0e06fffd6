/**
 * The sound of a city spelling: transliterations of one name meet, other names with
 * the same consonants do not.
 */
import { describe, expect, it } from "vitest";
import { normalizeCityKey } from "../../app/leads/city-key";
import { consonantKey, soundKey } from "../../app/leads/city-sound";
import { regionOf } from "../../app/leads/city-regions";
import { cities } from "./helpers";

const sound = (text: string) => soundKey(normalizeCityKey(text));

describe("soundKey", () => {
  it.each([
    ["Tétouan", "Titwan", "Tetuan"],
    ["Kénitra", "Quenitra", "Kinitra"],
    ["Ouarzazat", "Warzazat"],
    ["Guercif", "Guersif", "Gersif"],
    ["Nouaceur", "Nouasseur", "Nwasser"],
    ["Sebt Gzoula", "Sebt Gzola", "Sabt Gzoula"],
    ["الرباط", "ربات", "رباط"],
    ["وجدة", "وجضة"],
    ["تمارة", "تمارا", "تمرة"],
    ["الناظور", "الناضور"],
  ])("gives %s and its spellings one sound", (...spellings) => {
    expect(new Set(spellings.map(sound)).size).toBe(1);
  });

  it.each([
    ["Tamri", "Témara"],
    ["Goulmima", "Guelmim"],
    ["Aourir", "Ait Ourir"],
    ["Hay Salam", "Had Soualem"],
    ["Midar", "Midelt"],
    ["Goulmime", "Guelmim"],
    ["Messire", "Missour"],
    ["كلميمة", "كلميم"],
  ])("keeps %s apart from %s", (a, b) => {
    expect(sound(a)).not.toBe(sound(b));
  });

  it("is empty for nothing, and keeps consonants alone for a weaker kinship", () => {
    expect(soundKey("")).toBe("");
    expect(consonantKey(normalizeCityKey("Mrkch"))).toBe(consonantKey(normalizeCityKey("Marrakech")));
    expect(consonantKey(normalizeCityKey("Tamri"))).toBe(consonantKey(normalizeCityKey("Temara")));
  });
});

describe("regionOf", () => {
  it("knows the region of every delivered city", () => {
    expect(cities.filter((c) => !regionOf(c.name)).map((c) => c.name)).toEqual([]);
  });

  it("finds it by any spelling the table knows, and nothing for a town it does not", () => {
    expect(regionOf("Settat")).toBe("Casablanca-Settat");
    expect(regionOf("Fez")).toBe("Fès-Meknès");
    expect(regionOf("Safi")).toBe("Marrakech-Safi");
    expect(regionOf("Sebt Gzoula")).toBeUndefined();
  });
});
