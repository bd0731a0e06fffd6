/**
 * The proposals on a labelled corpus of Moroccan order lines and city fields
 * (test/fixtures/leads/product-proposals.json, city-proposals.json): a primary
 * proposal (the one-click fix) is never wrong on it, the secondary ones find most of
 * the rest, and a product or town the platform does not have gets no primary.
 * The tables are written to test-results/proposals-corpus.md.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { matchCity, matchSku, type CityAliasRule, type ShopLineItem, type SkuMappingRule } from "../../app/leads";
import { catalogueFor, cities, cityId, readJson } from "./helpers";
import { markdown, score, split, type Scored } from "./proposal-eval";

interface ProductCase {
  sku: string;
  title: string;
  variant?: string;
  account?: string;
  mappings?: SkuMappingRule[];
  expect: string | null;
  kind: string;
}

interface CityCase {
  input: string;
  city: string | null;
  kind: string;
  aliases?: { alias: string; city: string }[];
}

const products = readJson<{ cases: ProductCase[] }>("test", "fixtures", "leads", "product-proposals.json").cases;
const cityCases = readJson<{ cases: CityCase[] }>("test", "fixtures", "leads", "city-proposals.json").cases;

/** The line as Shopify's webhook gives it: "Title - Variant" as its name. */
function lineOf(c: ProductCase): ShopLineItem {
  return {
    id: "1",
    sku: c.sku,
    title: c.title,
    ...(c.variant ? { variantTitle: c.variant } : {}),
    name: c.variant ? `${c.title} - ${c.variant}` : c.title,
    quantity: 1,
    requiresShipping: true,
    giftCard: false,
  };
}

// One array per account and per case's mappings: the matcher's indexes are memoised per array.
const catalogues = new Map<string, ReturnType<typeof catalogueFor>>();
const catalogueOf = (account: string) => {
  if (!catalogues.has(account)) catalogues.set(account, catalogueFor(account));
  return catalogues.get(account)!;
};
const NO_MAPPINGS: SkuMappingRule[] = [];
const NO_ALIASES: CityAliasRule[] = [];

export function productOutcome(c: ProductCase) {
  const match = matchSku(lineOf(c), catalogueOf(c.account ?? "ACC-1001"), c.mappings ?? NO_MAPPINGS);
  if (match.status === "matched")
    return {
      auto: match.items.length === 1 && "sku" in match.items[0].target ? match.items[0].target.sku : "bundle",
      suggestions: [],
    };
  return { suggestions: match.suggestions };
}

/**
 * What happens to a city field: sent to a city without asking, or left to the merchant with
 * proposals. `fuzzy` is the shop's `city_fuzzy` choice: "hold" (the default) keeps a match the
 * rules do not prove for the merchant, "send" sends it as before.
 */
export function cityOutcome(c: CityCase, fuzzy: "hold" | "send" = "hold") {
  const aliases: CityAliasRule[] = c.aliases
    ? c.aliases.map((a) => ({ alias: a.alias, cityId: cityId(a.city) }))
    : NO_ALIASES;
  const match = matchCity(c.input, cities, aliases);
  if (match.status === "matched" && (match.via !== "fuzzy" || fuzzy === "send"))
    return { auto: match.city.id, suggestions: match.suggestions };
  return { suggestions: match.status === "missing" ? [] : match.suggestions };
}

const productScores: Scored[] = products.map((c) => ({ truth: c.expect, outcome: productOutcome(c) }));
const cityScores: Scored[] = cityCases.map((c) => ({
  truth: c.city === null ? null : cityId(c.city),
  outcome: cityOutcome(c),
}));
// The same fields with unproven matches sent, as every shop's default did before.
const citySendScores: Scored[] = cityCases.map((c, i) => ({
  truth: cityScores[i].truth,
  outcome: cityOutcome(c, "send"),
}));
const productTable = score(productScores);
const cityTable = score(cityScores);
const citySendTable = score(citySendScores);
/** Delivered cities the shop sent unasked when it sent unproven matches, and now holds: the safety's cost. */
const heldNow = cityCases.filter(
  (_, i) => citySendScores[i].outcome.auto !== undefined && cityScores[i].outcome.auto === undefined,
);
const proposedCities = cityScores.filter((s) => s.outcome.auto === undefined);
const proposedCityTable = score(proposedCities);

mkdirSync(join(import.meta.dirname, "..", "..", "test-results"), { recursive: true });
writeFileSync(
  join(import.meta.dirname, "..", "..", "test-results", "proposals-corpus.md"),
  [
    markdown("Products", productTable),
    markdown("Cities (every spelling), unproven matches held (the default)", cityTable),
    markdown("Cities (every spelling), unproven matches sent", citySendTable),
    `Unproven matches now held: ${heldNow.length}, of which ${heldNow.filter((c) => c.city !== null).length} were the right delivered city and ${heldNow.filter((c) => c.city === null).length} a town the platform does not deliver.`,
    markdown("Cities left to the merchant", proposedCityTable),
  ].join("\n\n") + "\n",
);

describe("proposals on the labelled corpus", () => {
  it("holds at least 200 product lines and 200 city spellings, a good share of them truly absent", () => {
    expect(products.length).toBeGreaterThanOrEqual(200);
    expect(cityCases.length).toBeGreaterThanOrEqual(200);
    expect(productTable.absent / productTable.cases).toBeGreaterThan(0.3);
    expect(proposedCityTable.proposedAbsent).toBeGreaterThanOrEqual(150);
    expect(new Set(products.map((c) => c.kind))).toEqual(
      new Set(["family", "name", "script", "mapping", "absent", "near"]),
    );
    expect(new Set(cityCases.map((c) => c.kind))).toEqual(
      new Set(["translit", "darija", "arabic", "hard", "alias", "absent", "none"]),
    );
    // Arabic script on both sides.
    expect(products.filter((c) => /[\u0600-\u06ff]/.test(c.title)).length).toBeGreaterThanOrEqual(30);
    expect(cityCases.filter((c) => /[\u0600-\u06ff]/.test(c.input)).length).toBeGreaterThanOrEqual(100);
  });

  it("never proposes a wrong product as the primary action", () => {
    const wrong = products.filter((c, i) => {
      const { primary } = split(productScores[i].outcome.suggestions);
      return primary !== undefined && primary !== c.expect;
    });
    expect(wrong.map((c) => `${c.sku} ${c.title}`)).toEqual([]);
  });

  it("never proposes a wrong city as the primary action", () => {
    const wrong = cityCases.filter((c, i) => {
      if (cityScores[i].outcome.auto !== undefined) return false;
      const { primary } = split(cityScores[i].outcome.suggestions);
      return primary !== undefined && primary !== cityScores[i].truth;
    });
    expect(wrong.map((c) => c.input)).toEqual([]);
  });

  it("GIVEN the default hold of unproven matches WHEN a town the platform does not deliver is typed THEN it is never sent to a delivered city", () => {
    const absent = cityCases.filter((c) => c.city === null);
    const sent = absent.filter((c) => cityScores[cityCases.indexOf(c)].outcome.auto !== undefined);
    expect(absent.length).toBeGreaterThanOrEqual(200);
    expect(sent.map((c) => c.input)).toEqual([]);
    expect(cityTable.autoWrong).toBe(0);
    // Sending unproven matches is what sent some of them to the wrong town.
    expect(citySendTable.autoWrong).toBeGreaterThan(0);
  });

  it("GIVEN a misspelling held because nothing proves it WHEN the merchant opens it THEN the city it was read as is the first choice, never a one-click fix", () => {
    expect(heldNow.length).toBeGreaterThan(0);
    for (const c of heldNow) {
      const i = cityCases.indexOf(c);
      const [first] = cityScores[i].outcome.suggestions;
      expect(first, c.input).toMatchObject({ cityId: citySendScores[i].outcome.auto, confidence: "likely" });
      expect(split(cityScores[i].outcome.suggestions).primary, c.input).toBeUndefined();
    }
  });

  it("says why it proposes each item: the rule that proves a primary, the resemblance behind a choice", () => {
    const reasons = (outcomes: Scored[], confidence: "certain" | "likely") =>
      new Set(
        outcomes.flatMap(({ outcome }) =>
          outcome.suggestions.filter((s) => (s.confidence ?? "likely") === confidence).map((s) => String(s.why)),
        ),
      );
    const within = (found: Set<string>, allowed: string[]) => [...found].filter((why) => !allowed.includes(why));
    expect(within(reasons(productScores, "certain"), ["confirmed", "sku", "name"])).toEqual([]);
    expect(within(reasons(productScores, "likely"), ["shared_words", "sku_family"])).toEqual([]);
    expect(within(reasons(cityScores, "certain"), ["confirmed", "sound"])).toEqual([]);
    expect(within(reasons(cityScores, "likely"), ["confirmed", "consonants", "in_field", "sound", "spelling"])).toEqual(
      [],
    );
    // Each rule that proves a primary is met on the corpus.
    expect(reasons(productScores, "certain")).toEqual(new Set(["confirmed", "sku", "name"]));
    expect(reasons(cityScores, "certain")).toEqual(new Set(["confirmed", "sound"]));
  });

  it("makes most products it can prove the primary action, and offers most of the rest", () => {
    expect(productTable.primaryCorrect / productTable.proposedWithTruth).toBeGreaterThanOrEqual(0.55);
    expect(productTable.anyHit / productTable.proposedWithTruth).toBeGreaterThanOrEqual(0.85);
    expect(productTable.secondaryHit / Math.max(1, productTable.secondaryCases)).toBeGreaterThanOrEqual(0.6);
  });

  it("says plainly that most absent products are not on the platform", () => {
    expect(productTable.absentPlain / productTable.proposedAbsent).toBeGreaterThanOrEqual(0.8);
  });

  it("finds the city of most misspellings it cannot prove, and proposes nothing for most absent towns", () => {
    const t = proposedCityTable;
    expect(t.anyHit / t.proposedWithTruth).toBeGreaterThanOrEqual(0.6);
    expect(t.absentPlain / t.proposedAbsent).toBeGreaterThanOrEqual(0.75);
  });
});
