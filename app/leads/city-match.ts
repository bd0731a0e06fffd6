/**
 * Matching what the customer typed to one of the platform's delivered cities.
 *
 * Order of trust: the shop's own aliases (a merchant's fix beats our table), the platform
 * name and our built-in spellings and districts, then a fuzzy match on the city field
 * accepted from a score threshold; then the address lines and the province, which
 * customers fill when the city field is empty or holds something else.
 */
import { BUILT_IN_CITIES } from "./city-aliases";
import { cityWords, keyOf, keyPart, normalizeCityKey } from "./city-key";
import { certainCity, cityProposals, namesAPlace, type FieldSpan, type ProposalInput } from "./city-proposals";
import { consonantKey, soundKey } from "./city-sound";
import { BigramIndex, roundScore, similarity } from "./similarity";
import { MAX_FIELD_CHARS } from "./field-limits";
import { collapseRepeats } from "./text";
import type { City, CityAliasRule, CityMatchVia, CityReason, CitySuggestion } from "./types";

export const DEFAULT_CITY_FUZZY_THRESHOLD = 0.8;
/** Two different cities scoring within this margin are a coin toss, not a match. */
const AMBIGUITY_MARGIN = 0.05;
const FUZZY_CANDIDATES = 12;
const FUZZY_MEMO_SIZE = 5000;

export type CitySource = "city" | "address1" | "address2" | "province";

export interface CityFields {
  city?: string;
  address1?: string;
  address2?: string;
  province?: string;
}

export type CityInput = string | CityFields;

export type CityMatch =
  | {
      status: "matched";
      city: City;
      via: CityMatchVia;
      /** 1 for an exact spelling, the fuzzy score otherwise. */
      score: number;
      /** Where the city was read. */
      source: CitySource;
      /** The text it was read from. */
      input: string;
      /** Other candidates, for a fuzzy match. */
      suggestions: CitySuggestion[];
    }
  | { status: "unmatched"; source: CitySource; input: string; suggestions: CitySuggestion[] }
  | { status: "missing" };

interface KeyEntry {
  cityId: number;
  via: Exclude<CityMatchVia, "fuzzy" | "sound" | "shop_alias">;
  priority: number;
  ambiguous: boolean;
}

export interface CityIndex {
  readonly byId: ReadonlyMap<number, City>;
  readonly shopKeys: ReadonlyMap<string, number>;
  readonly keys: ReadonlyMap<string, KeyEntry>;
  readonly fuzzyCityIds: readonly number[];
  readonly fuzzy: BigramIndex;
  readonly maxSpan: number;
  readonly regionKeys: ReadonlySet<string>;
  /** Fuzzy rankings already computed, per key (bounded; results never change for an index). */
  readonly fuzzyMemo: Map<string, Ranked>;
  /** Sound keys (city-sound.ts) of the cities' names and built-in spellings; null when two cities share one. */
  readonly sounds: ReadonlyMap<string, number | null>;
  readonly consonants: ReadonlyMap<string, number | null>;
  /** Sound keys of the shop's confirmed aliases. */
  readonly shopSounds: ReadonlyMap<string, number | null>;
  /** Proposals already computed for an unrecognised field (bounded, as fuzzyMemo). */
  readonly proposalMemo: Map<string, CitySuggestion[]>;
}

const PRIORITY = { name: 3, alias: 2, district: 1 } as const;

/** Candidate cities with their fuzzy scores, best first. */
export type Ranked = readonly { cityId: number; score: number }[];

/** Records a sound for a city; a sound two cities share is marked null (it proves neither). */
function addSound(map: Map<string, number | null>, sound: string, cityId: number) {
  if (!sound) return;
  const existing = map.get(sound);
  if (existing === undefined) map.set(sound, cityId);
  else if (existing !== cityId) map.set(sound, null);
}

// Region names customers put in "province": they name several cities, so they prove none.
const REGIONS = [
  "Casablanca-Settat",
  "Rabat-Salé-Kénitra",
  "Fès-Meknès",
  "Marrakech-Safi",
  "Tanger-Tétouan-Al Hoceïma",
  "Souss-Massa",
  "Béni Mellal-Khénifra",
  "Drâa-Tafilalet",
  "Oriental",
  "L'Oriental",
  "Guelmim-Oued Noun",
  "Laâyoune-Sakia El Hamra",
  "Dakhla-Oued Ed-Dahab",
  "Grand Casablanca",
  "Rabat-Salé-Zemmour-Zaër",
  "Souss-Massa-Drâa",
  "Tadla-Azilal",
  "Doukkala-Abda",
  "Chaouia-Ouardigha",
  "Gharb-Chrarda-Béni Hssen",
  "Meknès-Tafilalet",
  "Taza-Al Hoceïma-Taounate",
];

// Built-in spellings grouped by the key of any of their spellings, so a platform city is
// found whichever of them the platform uses as its name.
const builtInByKey: Map<string, (typeof BUILT_IN_CITIES)[number]> = (() => {
  const map = new Map<string, (typeof BUILT_IN_CITIES)[number]>();
  for (const entry of BUILT_IN_CITIES) {
    for (const spelling of [entry.name, ...entry.aliases]) {
      const key = normalizeCityKey(spelling);
      if (key && !map.has(key)) map.set(key, entry);
    }
  }
  return map;
})();

/** Indexes the platform's cities, our spellings of them and the shop's aliases. Build once, match many. */
export function buildCityIndex(cities: readonly City[], shopAliases: readonly CityAliasRule[] = []): CityIndex {
  const byId = new Map<number, City>();
  const keys = new Map<string, KeyEntry>();
  const fuzzyKeys: string[] = [];
  const fuzzyCityIds: number[] = [];
  const fuzzySeen = new Set<string>();
  const sounds = new Map<string, number | null>();
  const consonants = new Map<string, number | null>();
  let maxSpan = 1;

  const add = (spelling: string, cityId: number, via: KeyEntry["via"]) => {
    const spellingWords = cityWords(spelling);
    // Stryker disable next-line ConditionalExpression: equivalent, no words make the empty key, which the loop below skips
    if (spellingWords.length === 0) return;
    maxSpan = Math.max(maxSpan, spellingWords.length);
    for (const key of new Set([keyOf(spellingWords), keyOf(spellingWords, true)])) {
      // Stryker disable next-line ConditionalExpression: equivalent, the key of one or more words is never empty (articles alone are kept)
      if (!key) continue;
      const existing = keys.get(key);
      const priority = PRIORITY[via];
      if (!existing || existing.priority < priority) {
        keys.set(key, { cityId, via, priority, ambiguous: false });
      } else if (existing.priority === priority && existing.cityId !== cityId) {
        existing.ambiguous = true;
      }
      // Districts are places inside a city, not its name: they sound like nothing proven.
      if (via !== "district") {
        addSound(sounds, soundKey(key), cityId);
        addSound(consonants, consonantKey(key), cityId);
      }
      if (!fuzzySeen.has(`${cityId}:${key}`)) {
        fuzzySeen.add(`${cityId}:${key}`);
        fuzzyKeys.push(key);
        fuzzyCityIds.push(cityId);
      }
    }
  };

  for (const city of cities) {
    if (!city || typeof city.name !== "string") continue;
    byId.set(city.id, city);
    add(city.name, city.id, "name");
    const builtIn = builtInByKey.get(normalizeCityKey(city.name));
    if (builtIn) {
      add(builtIn.name, city.id, "alias");
      for (const alias of builtIn.aliases) add(alias, city.id, "alias");
      // Stryker disable next-line ArrayDeclaration: the default only spares a loop; a made-up district spelling changes no real text's match
      for (const district of builtIn.districts ?? []) add(district, city.id, "district");
    }
  }

  const shopKeys = new Map<string, number>();
  const shopSounds = new Map<string, number | null>();
  for (const alias of shopAliases) {
    const key = normalizeCityKey(alias.alias);
    // An alias to a city the platform no longer delivers is ignored, not trusted.
    if (key && byId.has(alias.cityId)) {
      shopKeys.set(key, alias.cityId);
      addSound(shopSounds, soundKey(key), alias.cityId);
    }
    maxSpan = Math.max(maxSpan, cityWords(alias.alias).length);
  }

  return {
    byId,
    shopKeys,
    keys,
    fuzzyCityIds,
    fuzzy: new BigramIndex(fuzzyKeys),
    // Stryker disable next-line MethodExpression: a cap on the work per text; no city name or alias needs more than six words
    maxSpan: Math.min(maxSpan, 6),
    regionKeys: new Set(REGIONS.map(normalizeCityKey)),
    fuzzyMemo: new Map(),
    sounds,
    consonants,
    shopSounds,
    proposalMemo: new Map(),
  };
}

interface ExactHit {
  cityId: number;
  via: Exclude<CityMatchVia, "fuzzy" | "sound">;
  start: number;
  length: number;
}

function lookup(index: CityIndex, key: string, joinedKey: string): Omit<ExactHit, "start" | "length"> | undefined {
  // Stryker disable next-line ConditionalExpression,EqualityOperator: equivalent, looking the same key up twice finds the same entry
  for (const k of key === joinedKey ? [key] : [key, joinedKey]) {
    // Stryker disable next-line ConditionalExpression: equivalent, no index holds the empty key (add and the shop aliases skip it)
    if (!k) continue;
    const shop = index.shopKeys.get(k);
    if (shop !== undefined) return { cityId: shop, via: "shop_alias" };
    const entry = index.keys.get(k);
    if (entry && !entry.ambiguous) return { cityId: entry.cityId, via: entry.via };
  }
  return undefined;
}

/** Every run of words that is a known spelling, longest runs first. */
function exactHits(index: CityIndex, textWords: readonly string[]): ExactHit[] {
  const hits: ExactHit[] = [];
  const parts = textWords.map(keyPart);
  const n = textWords.length;
  // Stryker disable next-line MethodExpression: equivalent, runs longer than the text have no start and longer than maxSpan spell nothing
  for (let length = Math.min(index.maxSpan, n); length >= 1; length--) {
    // Stryker disable next-line ArithmeticOperator: equivalent, the extra runs read past the text's end and spell no city
    for (let start = 0; start + length <= n; start++) {
      let stripped = "";
      let joined = "";
      for (let i = start; i < start + length; i++) {
        stripped += parts[i];
        joined += textWords[i];
      }
      joined = collapseRepeats(joined);
      const hit = lookup(index, stripped ? collapseRepeats(stripped) : joined, joined);
      if (hit) hits.push({ ...hit, start, length });
    }
  }
  return hits;
}

function bestOf(hits: ExactHit[], preferLast: boolean): ExactHit | undefined {
  if (hits.length === 0) return undefined;
  // Longest run wins ("Salé Al Jadida" over "El Jadida"); then first in the city field,
  // last in an address line, where the city ends the line.
  return hits.reduce((best, hit) => {
    // Stryker disable next-line EqualityOperator: equivalent, hits come longest first, so a later hit is never longer
    if (hit.length !== best.length) return hit.length > best.length ? hit : best;
    return preferLast ? (hit.start > best.start ? hit : best) : hit.start < best.start ? hit : best;
  });
}

/** Fuzzy candidates for a key, best city first (memoised: the same misspellings come back all day). */
function fuzzyRank(index: CityIndex, key: string): Ranked {
  // Stryker disable next-line ArrayDeclaration: equivalent, an entry without cityId or score is neither matched nor suggested
  if (key.length < 3) return [];
  const memo = index.fuzzyMemo;
  let ranked = memo.get(key);
  // Stryker disable next-line ConditionalExpression: a cache; ranking again gives the same list, only slower
  if (!ranked) {
    // Stryker disable next-line ConditionalExpression,EqualityOperator,CallExpression: bounds the cache's memory; clearing it early or never changes no ranking
    if (memo.size >= FUZZY_MEMO_SIZE) memo.clear();
    memo.set(key, (ranked = computeFuzzyRank(index, key)));
  }
  return ranked;
}

function computeFuzzyRank(index: CityIndex, key: string): Ranked {
  const best = new Map<number, number>();
  for (const { id } of index.fuzzy.rank(key, FUZZY_CANDIDATES)) {
    const cityId = index.fuzzyCityIds[id];
    const score = similarity(key, index.fuzzy.keys[id]);
    // Stryker disable next-line EqualityOperator: equivalent, an equal score is replaced by the same score
    if (score > (best.get(cityId) ?? -1)) best.set(cityId, score);
  }
  return [...best]
    .map(([cityId, score]) => ({ cityId, score }))
    .sort((a, b) => b.score - a.score || a.cityId - b.cityId);
}

function accepted(ranked: Ranked, threshold: number): boolean {
  const [first, second] = ranked;
  return first !== undefined && first.score >= threshold && (!second || first.score - second.score >= AMBIGUITY_MARGIN);
}

function mergeRanks(lists: readonly Ranked[]): Ranked {
  const best = new Map<number, number>();
  for (const list of lists)
    // Stryker disable next-line EqualityOperator: equivalent, an equal score is replaced by the same score
    for (const { cityId, score } of list) if (score > (best.get(cityId) ?? -1)) best.set(cityId, score);
  return [...best]
    .map(([cityId, score]) => ({ cityId, score }))
    .sort((a, b) => b.score - a.score || a.cityId - b.cityId);
}

function exactIn(index: CityIndex, text: string | undefined, source: CitySource): CityMatch | undefined {
  // Stryker disable next-line MethodExpression: equivalent, a blank text has no words, so no hit below
  if (!text || !text.trim()) return undefined;
  let best: ExactHit | undefined;
  // Address lines: each comma-separated part on its own, so a street name cannot run into the city.
  for (const segment of source === "city" ? [text] : text.split(/[,\n;]/)) {
    const segmentWords = cityWords(segment, true);
    if (index.regionKeys.has(keyOf(segmentWords))) continue;
    const hit = bestOf(exactHits(index, segmentWords), source !== "city");
    // Stryker disable next-line StringLiteral: equivalent, the city field is one segment, read while best is still unset
    if (hit && (!best || source !== "city")) best = hit;
  }
  if (!best) return undefined;
  const city = index.byId.get(best.cityId);
  // Stryker disable next-line ConditionalExpression: equivalent, the index only holds delivered cities' ids (shop aliases are checked when it is built)
  if (!city) return undefined;
  if (source === "city") {
    // A city's name beside a word that begins place names ("Bab Taza", "Sidi Bouzid Safi") is part of
    // another town's name as often as the city itself: read, but not proven.
    const fieldWords = cityWords(text, true);
    const outside = [...fieldWords.slice(0, best.start), ...fieldWords.slice(best.start + best.length)];
    if (namesAPlace(outside)) {
      const score = roundScore(
        similarity(keyOf(fieldWords), keyOf(fieldWords.slice(best.start, best.start + best.length))),
      );
      return { status: "matched", city, via: "fuzzy", score, source, input: text.trim(), suggestions: [] };
    }
  }
  return { status: "matched", city, via: best.via, score: 1, source, input: text.trim(), suggestions: [] };
}

function fromLines(index: CityIndex, fields: CityFields): CityMatch | undefined {
  return (
    exactIn(index, fields.address1, "address1") ??
    exactIn(index, fields.address2, "address2") ??
    exactIn(index, fields.province, "province")
  );
}

function fuzzyMatch(
  index: CityIndex,
  ranked: Ranked,
  threshold: number,
  input: string,
  proposal: ProposalInput,
  /** Why the city it is read as is proposed when the match is held: the whole field, or a run in it. */
  why: CityReason,
): CityMatch | undefined {
  if (!accepted(ranked, threshold)) return undefined;
  const city = index.byId.get(ranked[0].cityId);
  // Stryker disable next-line ConditionalExpression: equivalent, rankings hold only delivered cities' ids
  if (!city) return undefined;
  // Close in spelling proves nothing ("Ain Aouda" is not Aïn Harrouda); the whole field sounding like this
  // city alone does (a run inside a longer field proves nothing of the rest: "Fis-Miknis" is a region).
  const proven = certainCity(index, proposal.key)?.cityId === city.id;
  const score = roundScore(ranked[0].score);
  const match: CityMatch = {
    status: "matched",
    city,
    via: proven ? "sound" : "fuzzy",
    score,
    source: "city",
    input,
    suggestions: [],
  };
  return withChoices(index, match, proposal, why);
}

/**
 * The choices an unproven match is held with: the city it was read as first, then the
 * other candidates; none proven, the merchant judges them by the order's address.
 */
function withChoices(index: CityIndex, match: CityMatch, proposal: ProposalInput, why: CityReason): CityMatch {
  if (match.status !== "matched") return match;
  const read: CitySuggestion = {
    kind: "city",
    cityId: match.city.id,
    name: match.city.name,
    score: match.score,
    confidence: "likely",
    why,
  };
  const others = cityProposals(index, { ...proposal, choicesOnly: true }, match.city.id);
  return { ...match, suggestions: match.via === "fuzzy" ? [read, ...others] : others };
}

const boundText = (text: string | undefined) =>
  // Stryker disable next-line ConditionalExpression,EqualityOperator: equivalent, a text within the bound is cut to itself
  typeof text === "string" && text.length > MAX_FIELD_CHARS ? text.slice(0, MAX_FIELD_CHARS) : text;

function boundCityFields(fields: CityFields): CityFields {
  const { city, address1, address2, province } = fields;
  // Stryker disable next-line ConditionalExpression,EqualityOperator: equivalent, bounding fields within the bound returns the same texts
  const long = [city, address1, address2, province].some((t) => typeof t === "string" && t.length > MAX_FIELD_CHARS);
  return long
    ? {
        city: boundText(city),
        address1: boundText(address1),
        address2: boundText(address2),
        province: boundText(province),
      }
    : fields;
}

/** Matches with a prebuilt index; see `matchCity`. */
export function matchCityWithIndex(
  index: CityIndex,
  input: CityInput,
  threshold: number = DEFAULT_CITY_FUZZY_THRESHOLD,
): CityMatch {
  // Bounded here too (the mapper bounds whole orders): word runs and fuzzy spans grow with the text.
  const fields: CityFields = boundCityFields(typeof input === "string" ? { city: input } : input);
  const cityText = typeof fields.city === "string" ? fields.city.trim() : "";
  if (!cityText) return fromLines(index, fields) ?? { status: "missing" };

  const direct = exactIn(index, cityText, "city");
  if (direct && direct.status === "matched" && direct.via !== "fuzzy") return direct;

  const cityWordList = cityWords(cityText, true);
  const cityKey = keyOf(cityWordList);
  if (index.regionKeys.has(cityKey)) {
    // A region names several cities: look in the address, else ask with its cities as choices.
    const ranked = mergeRanks(cityWordList.map((w) => fuzzyRank(index, keyOf([w]))));
    return (
      fromLines(index, fields) ?? {
        status: "unmatched",
        source: "city",
        input: cityText,
        suggestions: cityProposals(index, { key: cityKey, full: ranked, spans: [], choicesOnly: true }),
      }
    );
  }
  const fullRank = fuzzyRank(index, cityKey);
  const full = fuzzyMatch(
    index,
    fullRank,
    threshold,
    cityText,
    { key: cityKey, full: fullRank, spans: [] },
    "spelling",
  );
  if (full) return full;

  const lines = fromLines(index, fields);
  if (lines) return lines;
  if (direct) return withChoices(index, direct, { key: cityKey, full: fullRank, spans: [] }, "in_field");

  // A misspelt city beside other words ("Casablnca maarif 2"): fuzzy on each short run.
  const spans: FieldSpan[] = [];
  let bestSpan: FieldSpan | undefined;
  if (cityWordList.length > 1) {
    for (let length = 1; length <= Math.min(3, cityWordList.length); length++) {
      for (let start = 0; start + length <= cityWordList.length; start++) {
        const spanWords = cityWordList.slice(start, start + length);
        const key = keyOf(spanWords);
        if (key.length < 4) continue;
        const ranked = fuzzyRank(index, key);
        const outside = [...cityWordList.slice(0, start), ...cityWordList.slice(start + length)];
        spans.push({ words: spanWords, outside, ranked });
        if (ranked[0] && (!bestSpan || ranked[0].score > bestSpan.ranked[0].score)) bestSpan = spans[spans.length - 1];
      }
    }
  }
  const proposal: ProposalInput = { key: cityKey, full: fullRank, spans };
  // Beside a word that begins place names ("Bir Jdid", "Souk Sebt Oulad Nemma"), the run is part of
  // another town's name more often than a misspelt city: asked, not sent.
  const span =
    bestSpan &&
    !namesAPlace(bestSpan.outside) &&
    fuzzyMatch(index, bestSpan.ranked, threshold, cityText, proposal, "in_field");
  if (span) return span;
  return {
    status: "unmatched",
    source: "city",
    input: cityText,
    suggestions: cityProposals(index, proposal),
  };
}

const EMPTY_ALIASES: readonly CityAliasRule[] = Object.freeze([]);
const indexCache = new WeakMap<readonly City[], WeakMap<readonly CityAliasRule[], CityIndex>>();

/** The index for these lists, built on first use and kept while the lists live. */
export function cityIndexFor(cities: readonly City[], aliases: readonly CityAliasRule[] = EMPTY_ALIASES): CityIndex {
  let byAliases = indexCache.get(cities);
  // Stryker disable next-line ConditionalExpression: a cache; a new index per call matches the same, only slower
  if (!byAliases) indexCache.set(cities, (byAliases = new WeakMap()));
  let index = byAliases.get(aliases);
  // Stryker disable next-line ConditionalExpression: a cache; a new index per call matches the same, only slower
  if (!index) byAliases.set(aliases, (index = buildCityIndex(cities, aliases)));
  return index;
}

/**
 * Matches a city field (or the city, address lines and province of an address) to a
 * delivered city. The index is memoised per `cities` / `aliases` array: pass the same
 * arrays again and nothing is rebuilt.
 */
export function matchCity(
  input: CityInput,
  cities: readonly City[],
  aliases: readonly CityAliasRule[] = EMPTY_ALIASES,
  threshold: number = DEFAULT_CITY_FUZZY_THRESHOLD,
): CityMatch {
  return matchCityWithIndex(cityIndexFor(cities, aliases), input, threshold);
}
