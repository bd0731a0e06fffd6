/**
 * Scores the matcher's proposals on a labelled corpus: what is sent without asking
 * (an exact or fuzzy match), the primary proposal (the certain one: the one-click fix)
 * and the secondary ones (likely: choices the merchant judges), against the truth.
 *
 * Suggestions without a confidence (the matcher before proposals were sorted) are read
 * as the page then showed them: the first one primary, the rest secondary.
 */
import type { Suggestion } from "../../app/leads";

export interface Outcome {
  /** What was matched without asking (a SKU, a city id); undefined when nothing was. */
  auto?: string | number;
  suggestions: readonly Suggestion[];
}

export interface Scored {
  truth: string | number | null;
  outcome: Outcome;
}

const idOf = (s: Suggestion) => (s.kind === "product" ? s.sku : s.cityId);

export function split(suggestions: readonly Suggestion[]): {
  primary?: string | number;
  secondary: (string | number)[];
} {
  const classified = suggestions.some((s) => s.confidence !== undefined);
  if (!classified) {
    const [first, ...rest] = suggestions;
    return { primary: first ? idOf(first) : undefined, secondary: rest.map(idOf) };
  }
  const certain = suggestions.find((s) => s.confidence === "certain");
  return {
    primary: certain ? idOf(certain) : undefined,
    secondary: suggestions.filter((s) => s !== certain).map(idOf),
  };
}

export interface Table {
  cases: number;
  absent: number;
  autoMatched: number;
  autoWrong: number;
  /** Cases left to the merchant (no automatic match). */
  proposed: number;
  proposedWithTruth: number;
  proposedAbsent: number;
  primary: number;
  primaryCorrect: number;
  primaryWrong: number;
  primaryWrongOnAbsent: number;
  /** Cases with at least one secondary proposal, and those whose truth is among them. */
  secondaryCases: number;
  secondaryHit: number;
  secondaryProposals: number;
  /** Truth among the primary or the secondary proposals. */
  anyHit: number;
  /** Truly absent, and nothing proposed at all: the page says "not on the platform". */
  absentPlain: number;
}

export function score(scored: readonly Scored[]): Table {
  const t: Table = {
    cases: scored.length,
    absent: scored.filter((s) => s.truth === null).length,
    autoMatched: 0,
    autoWrong: 0,
    proposed: 0,
    proposedWithTruth: 0,
    proposedAbsent: 0,
    primary: 0,
    primaryCorrect: 0,
    primaryWrong: 0,
    primaryWrongOnAbsent: 0,
    secondaryCases: 0,
    secondaryHit: 0,
    secondaryProposals: 0,
    anyHit: 0,
    absentPlain: 0,
  };
  for (const { truth, outcome } of scored) {
    if (outcome.auto !== undefined) {
      t.autoMatched++;
      if (outcome.auto !== truth) t.autoWrong++;
      continue;
    }
    t.proposed++;
    if (truth === null) t.proposedAbsent++;
    else t.proposedWithTruth++;
    const { primary, secondary } = split(outcome.suggestions);
    if (primary !== undefined) {
      t.primary++;
      if (primary === truth) t.primaryCorrect++;
      else {
        t.primaryWrong++;
        if (truth === null) t.primaryWrongOnAbsent++;
      }
    }
    if (secondary.length > 0) {
      t.secondaryCases++;
      t.secondaryProposals += secondary.length;
      if (truth !== null && secondary.includes(truth)) t.secondaryHit++;
    }
    if (truth !== null && (primary === truth || secondary.includes(truth))) t.anyHit++;
    if (truth === null && primary === undefined && secondary.length === 0) t.absentPlain++;
  }
  return t;
}

const pct = (n: number, d: number) => (d === 0 ? "–" : `${((100 * n) / d).toFixed(1)} %`);

/** The table as Markdown rows, for the test's output and the report. */
export function markdown(title: string, t: Table): string {
  return [
    `| ${title} | |`,
    "|---|---|",
    `| cases (truly not on the platform) | ${t.cases} (${t.absent}) |`,
    `| matched without asking (wrong) | ${t.autoMatched} (${t.autoWrong}) |`,
    `| left to the merchant: with a true answer / truly absent | ${t.proposedWithTruth} / ${t.proposedAbsent} |`,
    `| primary proposals: correct / wrong (on absent) | ${t.primaryCorrect} / ${t.primaryWrong} (${t.primaryWrongOnAbsent}) |`,
    `| primary precision | ${pct(t.primaryCorrect, t.primary)} |`,
    `| primary recall | ${pct(t.primaryCorrect, t.proposedWithTruth)} |`,
    `| secondary: cases with choices / truth among them / choices shown | ${t.secondaryCases} / ${t.secondaryHit} / ${t.secondaryProposals} |`,
    `| secondary precision (cases) | ${pct(t.secondaryHit, t.secondaryCases)} |`,
    `| secondary precision (each choice) | ${pct(t.secondaryHit, t.secondaryProposals)} |`,
    `| secondary recall | ${pct(t.secondaryHit, t.proposedWithTruth)} |`,
    `| truth proposed at all (primary or secondary) | ${pct(t.anyHit, t.proposedWithTruth)} |`,
    `| truly absent, nothing proposed ("not on the platform") | ${pct(t.absentPlain, t.proposedAbsent)} |`,
  ].join("\n");
}
