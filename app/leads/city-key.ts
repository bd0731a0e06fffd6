/**
 * The normal form of a city spelling, shared by the matcher and the stored shop aliases:
 * "Ville de Fès", "FES", "fès-ville" and "Fez" must meet on one key (or on one alias).
 *
 * Steps: fold case, accents, Arabic letter variants and digits; split into words; drop
 * words that are never part of a city name (ville, quartier, rue, digits of a zip code...);
 * drop articles (el, al, es, ال) so "El Jadida" and "Jadida" meet; join without spaces so
 * "Ben Guerir" and "Benguerir" meet; collapse doubled letters ("Marrakech" / "Marakech").
 */
import { collapseRepeats, foldText, words } from "./text";

// Words dropped anywhere: address and administrative noise customers put in the city field.
const NOISE = new Set([
  "ville",
  "city",
  "cite",
  "quartier",
  "qrt",
  "qtr",
  "qt",
  "hay",
  "hy",
  "derb",
  "douar",
  "dr",
  "rue",
  "avenue",
  "av",
  "ave",
  "bd",
  "boulevard",
  "blvd",
  "route",
  "rte",
  "residence",
  "res",
  "immeuble",
  "imm",
  "appartement",
  "appt",
  "apt",
  "etage",
  "lot",
  "lots",
  "lotissement",
  "n",
  "no",
  "num",
  "numero",
  "nr",
  "bloc",
  "secteur",
  "zone",
  "province",
  "prefecture",
  "region",
  "commune",
  "centre",
  "center",
  "centreville",
  "downtown",
  "maroc",
  "morocco",
  "marocco",
  "morroco",
  "morrocco",
  "royaume",
  "kingdom",
  "de",
  "du",
  "des",
  "et",
  "and",
  "of",
  "مدينه",
  "حي",
  "شارع",
  "زنقه",
  "رقم",
  "مغرب",
  "اقليم",
  "عماله",
  "جهه",
  "ولايه",
  "دوار",
  "درب",
  "عماره",
  "شقه",
  "طابق",
  "تجزئه",
  "اقامه",
  "مركز",
]);

// Articles: dropped from the key, kept when indexing the joined form ("eljadida").
const LATIN_ARTICLES = new Set(["el", "al", "le", "la", "les", "l", "ad", "as", "es", "er", "ed", "ech", "ez", "the"]);

// A street named after a city ("Rue de Fès, Meknès") must not be read as the city.
const STREET_WORDS = new Set([
  "rue",
  "avenue",
  "av",
  "ave",
  "bd",
  "boulevard",
  "blvd",
  "route",
  "rte",
  "zankat",
  "zenkat",
  "impasse",
  "place",
  "angle",
  "شارع",
  "زنقه",
  "طريق",
]);

function isNoise(word: string): boolean {
  return NOISE.has(stripArabicArticle(word)) || /^\d+$/.test(word);
}

/**
 * Folded words of a city text, noise removed, articles kept. With `skipStreetNames`, the
 * first word naming a street after "rue", "avenue", "شارع"... is dropped too.
 */
export function cityWords(raw: string, skipStreetNames = false): string[] {
  const all = words(foldText(raw));
  const kept: string[] = [];
  let skipNext = false;
  for (const word of all) {
    if (skipStreetNames && STREET_WORDS.has(stripArabicArticle(word))) {
      skipNext = true;
      continue;
    }
    // Stryker disable next-line Regex: equivalent, it only matters for articles and fillers, which hold no digit
    const number = /^\d+$/.test(word);
    if (skipNext) {
      // "rue de la Paix", "rue 12": articles and fillers wait, the name (or number) is dropped.
      if (!number && (LATIN_ARTICLES.has(word) || NOISE.has(word))) continue;
      skipNext = false;
      continue;
    }
    if (!isNoise(word)) kept.push(word);
  }
  return kept;
}

function stripArabicArticle(word: string): string {
  return word.length > 3 && word.startsWith("ال") ? word.slice(2) : word;
}

/** A word as it appears in a key: Arabic article removed, "" for a Latin article. */
export function keyPart(word: string): string {
  if (LATIN_ARTICLES.has(word) || word === "ال") return "";
  return stripArabicArticle(word);
}

/** Joins words into a key; without articles unless that would leave nothing. */
export function keyOf(wordList: readonly string[], withArticles = false): string {
  let joined = withArticles ? wordList.join("") : wordList.map(keyPart).join("");
  if (joined === "" && !withArticles) joined = wordList.join("");
  return collapseRepeats(joined);
}

/**
 * The key a city spelling is matched and stored under ("" when nothing city-like is left).
 * Applied again until stable, so a stored key normalises to itself: joining and
 * undoubling can spell a filler ("dée" -> "de") that a second pass would drop.
 */
export function normalizeCityKey(raw: string): string {
  let key = keyOf(cityWords(raw));
  // Stryker disable next-line UpdateOperator,EqualityOperator: equivalent, the key is stable after the first extra pass for any text we know of; the bound only guards against a loop
  for (let pass = 0; pass < 4; pass++) {
    const next = keyOf(cityWords(key));
    // Stryker disable next-line ConditionalExpression: equivalent, further passes of a stable key give the same key
    if (next === key) break;
    key = next;
  }
  return key;
}
