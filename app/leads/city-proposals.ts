/**
 * Which delivered city an unrecognised city field may be, and how sure that is.
 *
 * certain: the same name in another spelling or script, by sound (city-sound.ts): the
 * field sounds like one delivered city's name or built-in spelling, or like a spelling
 * the merchant already confirmed, and like no other city's. Shown as the one-click fix.
 *
 * likely: close in spelling, sound or consonants, or a misspelt city beside other words;
 * never on a word that starts many Moroccan place names ("Sebt", "Sidi", "Ouled"...), which
 * proves nothing. Shown as a secondary choice beside the order's address and the city's region.
 *
 * Nothing else is proposed: most unrecognised fields are towns the platform does not deliver.
 * test/leads/proposals-corpus.test.ts measures both on a labelled corpus.
 */
import type { CityIndex, Ranked } from "./city-match";
import { consonantKey, soundKey } from "./city-sound";
import { roundScore, similarity } from "./similarity";
import { collapseRepeats } from "./text";
import type { CityReason, CitySuggestion } from "./types";

const LIKELY_COUNT = 3;
/** Whole-field spelling score from which a city is a likely choice (see the corpus test). */
const LIKELY_FULL = 0.75;
/** One letter off in a name of four or five is another name as often as a typo ("Asni", "Asfi"). */
const LIKELY_SHORT = 0.8;
const SHORT_KEY = 5;
/** The same for a run of words inside a longer field. */
const LIKELY_SPAN = 0.8;
/** Shorter sound keys prove nothing ("fs" could be many names). */
const CERTAIN_MIN_SOUND = 4;
const CERTAIN_MIN_ARABIC = 3;
const CERTAIN_MIN_CONSONANTS = 4;
const MEMO_SIZE = 5000;
/** Scores shown for a kinship by sound or by consonants alone (they are not spelling scores). */
const SOUND_SCORE = 0.9;
const CONSONANT_SCORE = 0.75;
/** One consonant points at too many names to mean one. */
const MIN_CONSONANTS = 2;
/** Fewer letters name nothing (as for the fuzzy ranking). */
const MIN_FIELD = 3;
/** A field with at most this share of vowels was typed without them. */
const VOWELESS = 0.2;

/**
 * Words that begin Moroccan place names (market days, saints, springs, tribes): a town
 * sharing one with a delivered city is no nearer to it ("Sebt Gzoula" is not "Settat").
 */
const PLACE_WORDS = new Set([
  "sebt",
  "sabt",
  "souk",
  "souq",
  "suq",
  "had",
  "tleta",
  "tlat",
  "arbaa",
  "larbaa",
  "khemis",
  "khmis",
  "jemaa",
  "jmaa",
  "tnine",
  "sidi",
  "ain",
  "aioun",
  "oulad",
  "ouled",
  "ulad",
  "bni",
  "beni",
  "dar",
  "ksar",
  "qsar",
  "douar",
  "bir",
  "bab",
  "lalla",
  "moulay",
  "ait",
  "zaouia",
  "zaouiat",
  "kasba",
  "kasbat",
  "oued",
  "ued",
  "wad",
  "wadi",
  "ras",
  "tizi",
  "imi",
  "foum",
  "mers",
  "jorf",
  "karia",
  "kariat",
  "sbt",
  "\u0633\u0628\u062a", // سبت
  "\u0633\u0648\u0642", // سوق
  "\u062d\u062f", // حد
  "\u0633\u064a\u062f\u064a", // سيدي
  "\u0639\u064a\u0646", // عين
  "\u0627\u0648\u0644\u0627\u062f", // اولاد
  "\u0628\u0646\u064a", // بني
  "\u062f\u0627\u0631", // دار
  "\u0642\u0635\u0631", // قصر
  "\u0645\u0648\u0644\u0627\u064a", // مولاي
  "\u0627\u064a\u062a", // ايت
  "\u0648\u0627\u062f", // واد
  "\u0628\u0627\u0628", // باب
]);

/** A field with a word that begins Moroccan place names. */
export function namesAPlace(words: readonly string[]): boolean {
  // A doubled letter typed by mistake ("Bbab Taza") is the same word.
  return words.some((w) => PLACE_WORDS.has(w) || PLACE_WORDS.has(collapseRepeats(w)));
}

export interface FieldSpan {
  words: readonly string[];
  outside: readonly string[];
  ranked: Ranked;
}

export interface ProposalInput {
  /** normalizeCityKey of the whole field. */
  key: string;
  /** Fuzzy candidates of the whole field. */
  full: Ranked;
  /** Fuzzy candidates of runs of words inside a longer field, with the words in and outside each run. */
  spans: readonly FieldSpan[];
  /** Choices only, none proven: the field names a region, or a city was matched already. */
  choicesOnly?: boolean;
}

/** The one city a key sounds like, from a map where null marks a sound two cities share. */
function soleCity(map: ReadonlyMap<string, number | null>, key: string): number | undefined {
  const hit = map.get(key);
  return hit === null ? undefined : hit;
}

/**
 * The one delivered city a key is proven to be by the certain rules: it sounds like that
 * city's name or built-in spelling, or like a spelling the merchant confirmed, and like no
 * other city's. The same proof makes a one-click proposal and lets a misspelling be sent unasked.
 */
export function certainCity(index: CityIndex, key: string): { cityId: number; confirmed: boolean } | undefined {
  const sound = soundKey(key);
  const arabic = /[\u0600-\u06ff]/.test(sound);
  if (sound.length < (arabic ? CERTAIN_MIN_ARABIC : CERTAIN_MIN_SOUND)) return undefined;
  // Three consonants and their vowels are shared by too many names ("Goulmima", "Guelmime").
  if (!arabic && consonantKey(key).length < CERTAIN_MIN_CONSONANTS) return undefined;
  // The merchant's confirmed spellings come first, as for exact spellings; two of them that sound alike
  // but name two cities prove neither.
  const confirmed = soleCity(index.shopSounds, sound);
  if (confirmed !== undefined) return { cityId: confirmed, confirmed: true };
  if (index.shopSounds.has(sound)) return undefined;
  const cityId = soleCity(index.sounds, sound);
  return cityId === undefined ? undefined : { cityId, confirmed: false };
}

function compute(index: CityIndex, input: ProposalInput, skip: number | undefined): CitySuggestion[] {
  const out: CitySuggestion[] = [];
  // Stryker disable next-line ConditionalExpression,ArrayDeclaration: equivalent, a set holding a value no city id equals skips no city
  const seen = new Set<number>(skip === undefined ? [] : [skip]);
  const push = (cityId: number, score: number, confidence: "certain" | "likely", why: CityReason) => {
    const city = index.byId.get(cityId);
    if (!city || seen.has(cityId)) return;
    seen.add(cityId);
    out.push({ kind: "city", cityId, name: city.name, score: roundScore(score), confidence, why });
  };

  const certain = input.choicesOnly ? undefined : certainCity(index, input.key);
  if (certain) push(certain.cityId, 1, "certain", certain.confirmed ? "confirmed" : "sound");

  const likely = new Map<number, { score: number; why: CityReason }>();
  const consider = (cityId: number, score: number, why: CityReason) => {
    if (score > (likely.get(cityId)?.score ?? 0)) likely.set(cityId, { score, why });
  };
  const floor = input.key.length <= SHORT_KEY ? LIKELY_SHORT : LIKELY_FULL;
  for (const { cityId, score } of input.full) if (score >= floor) consider(cityId, score, "spelling");
  // A spelling close to one the merchant confirmed (the fuzzy index holds only the built-in ones).
  for (const [aliasKey, cityId] of index.shopKeys) {
    const score = similarity(input.key, aliasKey);
    if (score >= LIKELY_SPAN) consider(cityId, score, "confirmed");
  }
  for (const { words, outside, ranked } of input.spans) {
    // A run of place-name words only ("Sidi", "Ain") points nowhere; a run beside one is part of a name.
    if (words.every((w) => PLACE_WORDS.has(w)) || namesAPlace(outside)) continue;
    for (const { cityId, score } of ranked) if (score >= LIKELY_SPAN) consider(cityId, score, "in_field");
  }
  const sound = soundKey(input.key);
  const bySound = sound ? soleCity(index.sounds, sound) : undefined;
  // Stryker disable next-line ConditionalExpression: equivalent, a choice without a city is never shown and takes no place
  if (bySound !== undefined) consider(bySound, SOUND_SCORE, "sound");
  // Consonants alone only for a field typed without vowels, as Darija often is ("Mrkch", "Brkn", "Grsif").
  const consonants = consonantKey(input.key);
  const voweless = (input.key.match(/[aeiouy]/g) ?? []).length <= VOWELESS * input.key.length;
  const byConsonants =
    voweless && input.key.length >= MIN_FIELD && consonants.length >= MIN_CONSONANTS
      ? soleCity(index.consonants, consonants)
      : undefined;
  // Stryker disable next-line ConditionalExpression: equivalent, a choice without a city is never shown and takes no place
  if (byConsonants !== undefined) consider(byConsonants, CONSONANT_SCORE, "consonants");

  const ranked = [...likely].sort((a, b) => b[1].score - a[1].score || a[0] - b[0]);
  for (const [cityId, { score, why }] of ranked) {
    if (out.length >= LIKELY_COUNT + (certain ? 1 : 0)) break;
    push(cityId, score, "likely", why);
  }
  return out;
}

/**
 * The delivered cities an unrecognised field may be: the certain one first (at most
 * one), then up to three likely ones, best first. `skip` leaves out a city already
 * matched (a fuzzy match's other candidates).
 */
export function cityProposals(index: CityIndex, input: ProposalInput, skip?: number): CitySuggestion[] {
  const spans = input.spans.map((s) => s.words.join(" ")).join("|");
  // Stryker disable next-line LogicalOperator: equivalent, "undefined" for no skip keeps the keys apart as well
  const memoKey = `${input.key}\u0000${input.choicesOnly ? 1 : 0}\u0000${skip ?? ""}\u0000${spans}`;
  const known = index.proposalMemo.get(memoKey);
  // Stryker disable next-line ConditionalExpression: a memo; computing again gives the same proposals, only slower
  if (known) return known.map((s) => ({ ...s }));
  const out = compute(index, input, skip);
  // Stryker disable next-line ConditionalExpression,EqualityOperator,CallExpression: bounds the memo; clearing it early or never changes no proposal
  if (index.proposalMemo.size >= MEMO_SIZE) index.proposalMemo.clear();
  // Stryker disable next-line CallExpression: a memo; not keeping an answer gives the same proposals, only slower
  index.proposalMemo.set(memoKey, out);
  return out.map((s) => ({ ...s }));
}
