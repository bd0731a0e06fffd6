/**
 * The region (one of Morocco's twelve since 2015) of each delivered city, so a merchant
 * judging a proposed city sees where it is: "Settat · Casablanca-Settat" beside an
 * order written "Sebt Gzoula", province of Safi, tells them it is not the same place.
 * Looked up by any spelling the built-in table knows, never by the platform's id.
 */
import { BUILT_IN_CITIES } from "./city-aliases";
import { normalizeCityKey } from "./city-key";

const REGION_CITIES: Record<string, readonly string[]> = {
  "Casablanca-Settat": [
    "Casablanca",
    "Mohammedia",
    "Bouskoura",
    "Dar Bouazza",
    "Had Soualem",
    "Berrechid",
    "Settat",
    "El Jadida",
    "Azemmour",
    "Sidi Bennour",
    "Benslimane",
    "Bouznika",
    "Aïn Harrouda",
    "Tit Mellil",
    "Médiouna",
  ],
  "Rabat-Salé-Kénitra": [
    "Rabat",
    "Salé",
    "Témara",
    "Kénitra",
    "Skhirat",
    "Khémisset",
    "Tiflet",
    "Sidi Kacem",
    "Sidi Slimane",
    "Souk El Arbaa",
    "Mechra Bel Ksiri",
    "Sidi Yahya El Gharb",
    "Arbaoua",
  ],
  "Tanger-Tétouan-Al Hoceïma": [
    "Tanger",
    "Tétouan",
    "Martil",
    "M'diq",
    "Fnideq",
    "Chefchaouen",
    "Ouazzane",
    "Al Hoceïma",
    "Larache",
    "Ksar El Kébir",
    "Asilah",
    "Imzouren",
  ],
  Oriental: [
    "Nador",
    "Driouch",
    "Zaïo",
    "Berkane",
    "Saïdia",
    "Oujda",
    "Taourirt",
    "Guercif",
    "Jerada",
    "Ahfir",
    "Bouarfa",
  ],
  "Fès-Meknès": ["Taza", "Fès", "Meknès", "Sefrou", "Ifrane", "Azrou", "El Hajeb", "Missour"],
  "Béni Mellal-Khénifra": [
    "Khénifra",
    "Beni Mellal",
    "Fquih Ben Salah",
    "Kasba Tadla",
    "Khouribga",
    "Oued Zem",
    "Azilal",
    "Demnate",
  ],
  "Drâa-Tafilalet": ["Midelt", "Errachidia", "Ouarzazate", "Zagora", "Tinghir"],
  "Marrakech-Safi": [
    "Marrakech",
    "Tamansourt",
    "Chichaoua",
    "Kalaat Sraghna",
    "Ben Guerir",
    "Youssoufia",
    "Safi",
    "Essaouira",
    "Amizmiz",
    "Ait Ourir",
  ],
  "Souss-Massa": [
    "Agadir",
    "Inezgane",
    "Aït Melloul",
    "Dcheira El Jihadia",
    "Biougra",
    "Taroudant",
    "Tiznit",
    "Tata",
    "Oulad Teima",
  ],
  "Guelmim-Oued Noun": ["Sidi Ifni", "Guelmim", "Tan-Tan"],
  "Laâyoune-Sakia El Hamra": ["Laâyoune", "Boujdour", "Es-Semara"],
  "Dakhla-Oued Ed-Dahab": ["Dakhla"],
};

const regionByKey: Map<string, string> = (() => {
  const map = new Map<string, string>();
  for (const [region, cities] of Object.entries(REGION_CITIES)) {
    for (const city of cities) {
      const builtIn = BUILT_IN_CITIES.find((c) => c.name === city);
      for (const spelling of [city, ...(builtIn?.aliases ?? [])]) {
        const key = normalizeCityKey(spelling);
        if (key && !map.has(key)) map.set(key, region);
      }
    }
  }
  return map;
})();

/** The region of a delivered city, by its platform name in any spelling we know; undefined when unknown. */
export function regionOf(cityName: string): string | undefined {
  return regionByKey.get(normalizeCityKey(cityName));
}
