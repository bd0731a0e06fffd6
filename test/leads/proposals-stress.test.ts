/**
 * The primary proposal under stress, on inputs generated from the seed catalogue and
 * cities: thousands of near misses the platform does not have (another size, a pro model,
 * a pack, a colour or size the product does not come in, a neighbour's word; Moroccan
 * towns it does not deliver, spelt every usual way) never get a primary proposal, and the
 * spellings of what it has never get a wrong one. With no wrong primary in N, the rate is
 * below 3/N at 95 % confidence (the rule of three); the counts go to
 * test-results/proposals-stress.md.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { matchCity, matchSku, type CatalogueProduct, type ShopLineItem } from "../../app/leads";
import { catalogueFor, cities, readJson } from "./helpers";

const catalogues = { "ACC-1001": catalogueFor("ACC-1001"), "ACC-1002": catalogueFor("ACC-1002") };

function lineOf(sku: string, name: string): ShopLineItem {
  return { id: "1", sku, name, title: name, quantity: 1, requiresShipping: true, giftCard: false };
}

interface Trial {
  sku: string;
  name: string;
  catalogue: CatalogueProduct[];
  /** The platform SKU it is, or null. */
  truth: string | null;
}

/** Numbers of a SKU or title replaced by other amounts: another size of the product. */
function otherAmounts(text: string, value: number): string[] {
  const others = [value * 2, value * 10, value + 1, value > 1 ? value - 1 : value + 2];
  if (value % 2 === 0) others.push(value / 2);
  return [...new Set(others)].filter((v) => v !== value).map((v) => text.replace(String(value), String(v)));
}

const QUALIFIERS: [string, string][] = [
  ["PRO", "Pro"],
  ["MAX", "Max"],
  ["MINI", "Mini"],
  ["KIDS", "enfant"],
  ["HOMME", "homme"],
  ["PACK2", "(lot de 2)"],
  ["LOT3", "lot de 3"],
  ["SANS-FIL", "sans fil"],
  ["V2", "V2"],
];
const OTHER_COLOURS: [string, string][] = [
  ["BLEU", "Bleu"],
  ["ROUGE", "Rouge"],
  ["VERT", "Vert"],
  ["GREEN", "Green"],
];
const OTHER_SIZES = ["XXL", "XS", "36", "44", "46"];

function nearMisses(): Trial[] {
  const trials: Trial[] = [];
  for (const catalogue of Object.values(catalogues)) {
    const add = (sku: string, name: string) => trials.push({ sku, name, catalogue, truth: null });
    for (const p of catalogue) {
      const entries = [
        { sku: p.sku, name: p.name },
        ...p.variants.map((v) => ({ sku: v.sku ?? p.sku, name: `${p.name} - ${v.name ?? ""}` })),
      ];
      for (const { sku, name } of entries) {
        for (const number of new Set([...sku.matchAll(/\d+/g)].map((m) => Number(m[0])))) {
          const skus = otherAmounts(sku, number);
          const names = name.includes(String(number)) ? otherAmounts(name, number) : skus.map(() => name);
          skus.forEach((s, i) => add(s, names[i]));
        }
        for (const [code, word] of QUALIFIERS)
          if (!name.toLowerCase().includes(word.toLowerCase())) add(`${sku}-${code}`, `${name} ${word}`);
      }
      const colours = p.variants.length > 0 && p.variants.every((v) => !/^\d+$|^X?[SML]$|^XL$/i.test(v.name ?? ""));
      const sizes = p.variants.length > 0 && !colours;
      if (colours) for (const [code, word] of OTHER_COLOURS) add(`${p.sku}-${code}`, `${p.name} - ${word}`);
      if (sizes) for (const size of OTHER_SIZES) add(`${p.sku}-${size}`, `${p.name} - ${size}`);
      // A neighbour's first word in this product's place: another product of a kind.
      for (const other of catalogue) {
        if (other === p) continue;
        const [word] = other.name.split(" ");
        const [otherStem] = other.sku.split("-");
        const [, ...rest] = p.name.split(" ");
        const [, ...skuRest] = p.sku.split("-");
        const swapped = [word, ...rest].join(" ");
        if (rest.length > 0 && skuRest.length > 0 && swapped !== p.name)
          add([otherStem, ...skuRest].join("-"), swapped);
      }
    }
  }
  return trials;
}

const COLOUR_WORDS: Record<string, string[]> = {
  Noir: ["NOIR", "BLACK", "BK"],
  Argent: ["ARGENT", "SILVER", "GRIS"],
  Rose: ["ROSE", "PINK"],
  Jaune: ["JAUNE", "YELLOW"],
  Blanc: ["BLANC", "WHITE", "BLANCHE"],
};

/** The same items, written the ways merchants write them. */
function spellings(): Trial[] {
  const trials: Trial[] = [];
  for (const catalogue of Object.values(catalogues)) {
    for (const p of catalogue) {
      const unit = /(\d+)\s*(ml|g|L|W|cm|mAh)\b/i.exec(p.name);
      if (unit && p.variants.length === 0) {
        for (const suffix of [unit[2].toUpperCase(), `-${unit[2].toUpperCase()}`, "GR", "-UNIT"]) {
          if (suffix === "-UNIT") continue;
          trials.push({ sku: `${p.sku}${suffix}`, name: p.name, catalogue, truth: p.sku });
        }
      }
      for (const name of [
        p.name.toUpperCase(),
        p.name.normalize("NFD").replace(/\p{M}/gu, ""),
        p.name.replace(/\s+/g, "  "),
      ])
        if (p.variants.length === 0) trials.push({ sku: `SHOP-${p.id}`, name, catalogue, truth: p.sku });
      for (const v of p.variants) {
        for (const word of COLOUR_WORDS[v.name ?? ""] ?? [])
          trials.push({ sku: `${p.sku}-${word}`, name: p.name, catalogue, truth: v.sku ?? null });
        if (/^\d+$/.test(v.name ?? ""))
          for (const prefix of ["T", "P", "EU"])
            trials.push({ sku: `${p.sku}-${prefix}${v.name}`, name: p.name, catalogue, truth: v.sku ?? null });
        trials.push({ sku: `SHOP-${p.id}-${v.name}`, name: `${p.name} - ${v.name}`, catalogue, truth: v.sku ?? null });
      }
    }
  }
  return trials;
}

function primaryOf(trial: Trial): string | undefined {
  const m = matchSku(lineOf(trial.sku, trial.name), trial.catalogue);
  if (m.status === "matched") return undefined;
  return m.suggestions.find((s) => s.confidence === "certain")?.sku;
}

interface CityCase {
  input: string;
  city: string | null;
  kind: string;
}

/** A town written the ways customers write it. */
function townSpellings(town: string): string[] {
  const bare = town.normalize("NFD").replace(/\p{M}/gu, "");
  const out = [
    town,
    town.toUpperCase(),
    town.toLowerCase(),
    bare,
    `Ville de ${town}`,
    `${town} centre`,
    `${town} 12000`,
  ];
  if (!/[\u0600-\u06ff]/.test(town)) {
    out.push(bare.replace(/ou/gi, "u"), bare.replace(/e/g, "i"), bare.replace(/([bdfgklmnprstz])/i, "$1$1"));
    out.push(bare.replace(/-/g, " "), bare.replace(/ /g, ""), bare.replace(/a/g, "e"));
  }
  return [...new Set(out)];
}

const absentTowns = readJson<{ cases: CityCase[] }>("test", "fixtures", "leads", "city-proposals.json")
  .cases.filter((c) => c.city === null && (c.kind === "absent" || c.kind === "none"))
  .map((c) => c.input);

const stress = (() => {
  const misses = nearMisses();
  const missPrimaries = misses.filter((t) => primaryOf(t) !== undefined);
  const hits = spellings();
  const hitResults = hits.map((t) => ({ t, primary: primaryOf(t) }));
  const hitPrimaries = hitResults.filter((r) => r.primary !== undefined);
  const hitWrong = hitPrimaries.filter((r) => r.primary !== r.t.truth);

  const townInputs = absentTowns.flatMap(townSpellings);
  const townResults = townInputs.map((input) => ({ input, m: matchCity(input, cities) }));
  const townPrimaries = townResults.filter(
    (r) => r.m.status === "unmatched" && r.m.suggestions.some((s) => s.confidence === "certain"),
  );
  const townAuto = townResults.filter((r) => r.m.status === "matched");
  // With the default hold, only what the rules prove goes unasked.
  const townProven = townAuto.filter((r) => r.m.status === "matched" && r.m.via !== "fuzzy");

  const cityInputs = cities.flatMap((c) => townSpellings(c.name).map((input) => ({ input, id: c.id })));
  const cityResults = cityInputs.map(({ input, id }) => ({ input, id, m: matchCity(input, cities) }));
  const cityPrimaries = cityResults.flatMap((r) =>
    r.m.status === "unmatched"
      ? r.m.suggestions.filter((s) => s.confidence === "certain").map((s) => ({ ...r, s }))
      : [],
  );
  const cityWrong = cityPrimaries.filter((r) => r.s.cityId !== r.id);
  const cityAuto = cityResults.filter((r) => r.m.status === "matched");
  const cityHeld = cityAuto.filter((r) => r.m.status === "matched" && r.m.via === "fuzzy");
  return {
    misses,
    missPrimaries,
    hits,
    hitPrimaries,
    hitWrong,
    townInputs,
    townPrimaries,
    townAuto,
    townProven,
    cityInputs,
    cityAuto,
    cityHeld,
    cityPrimaries,
    cityWrong,
  };
})();

mkdirSync(join(import.meta.dirname, "..", "..", "test-results"), { recursive: true });
writeFileSync(
  join(import.meta.dirname, "..", "..", "test-results", "proposals-stress.md"),
  [
    "| generated inputs | trials | primary proposals | wrong primaries |",
    "|---|---|---|---|",
    `| products the platform does not have (near misses) | ${stress.misses.length} | ${stress.missPrimaries.length} | ${stress.missPrimaries.length} |`,
    `| spellings of products it has | ${stress.hits.length} | ${stress.hitPrimaries.length} | ${stress.hitWrong.length} |`,
    `| towns it does not deliver, spelt every usual way | ${stress.townInputs.length} | ${stress.townPrimaries.length} | ${stress.townPrimaries.length} |`,
    `| spellings of the delivered cities | ${stress.cityInputs.length} | ${stress.cityPrimaries.length} | ${stress.cityWrong.length} |`,
    "",
    `Towns it does not deliver matched to a delivered city: ${stress.townAuto.length} of ${stress.townInputs.length}; sent without asking with the default hold of unproven matches: ${stress.townProven.length}.`,
    `Spellings of delivered cities matched: ${stress.cityAuto.length} of ${stress.cityInputs.length}; held for the merchant because nothing proves them: ${stress.cityHeld.length}.`,
  ].join("\n") + "\n",
);

describe("primary proposals under stress", () => {
  it("tries thousands of near misses and spellings", () => {
    expect(stress.misses.length).toBeGreaterThanOrEqual(1000);
    expect(stress.townInputs.length).toBeGreaterThanOrEqual(1000);
    expect(stress.hits.length).toBeGreaterThanOrEqual(100);
  });

  it("never proposes a product the platform does not have as the primary action", () => {
    expect(stress.missPrimaries.map((t) => `${t.sku} ${t.name}`)).toEqual([]);
  });

  it("proposes the right item whenever a spelling of one it has gets a primary, and most do", () => {
    expect(stress.hitWrong.map((r) => `${r.t.sku} ${r.t.name} -> ${r.primary}`)).toEqual([]);
    expect(stress.hitPrimaries.length / stress.hits.length).toBeGreaterThanOrEqual(0.8);
  });

  it("never proposes a delivered city as the primary action for a town the platform does not deliver", () => {
    expect(stress.townPrimaries.map((r) => r.input)).toEqual([]);
  });

  it("GIVEN the default hold of unproven matches WHEN a town the platform does not deliver is spelt any usual way THEN none is sent to a delivered city", () => {
    expect(stress.townAuto.length).toBeGreaterThan(0);
    expect(stress.townProven.map((r) => r.input)).toEqual([]);
  });

  it("never proposes the wrong delivered city as the primary action for a spelling of one", () => {
    expect(stress.cityWrong.map((r) => `${r.input} -> ${r.s.name}`)).toEqual([]);
  });
});
