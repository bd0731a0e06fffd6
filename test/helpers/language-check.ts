/**
 * Whether the words a merchant reads are in the page's language: given the
 * strings shown, finds those that belong to the other language (a message of
 * its catalogue that the page's catalogue does not have) and raw codes the
 * pipeline stores (a job kind, a finding code, a catalogue key). Shared by the
 * browser test of every page and the order-page extension's test.
 */
import { en } from "../../app/i18n/en";
import { parseMessage, type MessagePart } from "../../app/i18n/message-format";
import { JOB_KINDS } from "../../app/models/job-kinds";
import { LINK_STATES } from "../../app/models/order-link-state";

export interface Catalogues {
  /** Every message of the page's language (templates with {placeholders} and plurals). */
  own: readonly string[];
  /** Every message of the other language. */
  other: readonly string[];
}

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
const normalise = (s: string) => s.replace(/[\s\u00a0\u202f]+/g, " ").trim();

/** Each way a message can read, as a regular expression source (placeholders match anything). */
function shapes(parts: readonly MessagePart[]): string[] {
  let out = [""];
  for (const part of parts) {
    if (part.kind === "text")
      out = out.map(
        (s) => s + escape(normalise(part.text) === "" ? " " : part.text.replace(/[\s\u00a0\u202f]+/g, " ")),
      );
    else if (part.kind === "arg" || part.kind === "hash") out = out.map((s) => `${s}.+?`);
    else {
      const forms = Object.values(part.forms).flatMap((form) => shapes(form));
      out = out.flatMap((s) => forms.map((f) => s + f));
    }
    if (out.length > 64) out = out.slice(0, 64);
  }
  return out;
}

/** The runs of literal text of a message (outside placeholders). */
function literals(template: string): string[] {
  const out: string[] = [];
  const walk = (parts: readonly MessagePart[]) => {
    for (const part of parts) {
      if (part.kind === "text") out.push(normalise(part.text));
      if (part.kind === "plural") Object.values(part.forms).forEach(walk);
    }
  };
  walk(parseMessage(template));
  return out;
}

const longestLiteral = (template: string) => literals(template).sort((a, b) => b.length - a.length)[0] ?? "";
const wordsOf = (text: string) => text.toLowerCase().match(/\p{L}{3,}/gu) ?? [];

/** Codes the pipeline stores, never to be shown as they are. */
export function rawCodes(): Set<string> {
  const codes = new Set<string>([...JOB_KINDS, ...LINK_STATES.filter((s) => s !== "cancelled")]);
  for (const key of Object.keys(en)) {
    codes.add(key);
    const [prefix, code] = [key.slice(0, key.lastIndexOf(".")), key.slice(key.lastIndexOf(".") + 1)];
    if (/^(code|finding|anomaly|timeline|activity\.jobKind|confirmation|shipping)$/.test(prefix) && /[_-]/.test(code))
      codes.add(code);
  }
  return codes;
}

export interface Problem {
  text: string;
  why: string;
}

export function languageProblems(
  texts: readonly string[],
  catalogues: Catalogues,
  options: { allow?: readonly (string | RegExp)[] } = {},
): Problem[] {
  const own = new Set(catalogues.own.map(normalise));
  const ownWords = new Set(catalogues.own.flatMap((m) => literals(m).flatMap(wordsOf)));
  // A message of the other language with at least one word the page's language never uses
  // ("Lead {ref}: {changes}" reads the same in French and English: it proves nothing).
  const foreign = catalogues.other.filter(
    (m) =>
      !own.has(normalise(m)) &&
      literals(m)
        .flatMap(wordsOf)
        .some((w) => !ownWords.has(w)),
  );
  const patterns = foreign.flatMap((m) =>
    shapes(parseMessage(m)).map((source) => ({ message: m, re: new RegExp(`^${source}$`, "u") })),
  );
  const ownLiterals = catalogues.own.map(normalise).join("\n");
  // A long run of words only the other language has, found inside a longer text.
  const phrases = foreign
    .map((m) => ({ message: m, literal: longestLiteral(m) }))
    .filter(({ literal }) => literal.length >= 14 && !ownLiterals.includes(literal));
  const codes = rawCodes();
  const allowed = (text: string) =>
    (options.allow ?? []).some((a) => (typeof a === "string" ? a === text : a.test(text)));
  const problems: Problem[] = [];
  for (const raw of new Set(texts.map(normalise))) {
    if (!raw || allowed(raw)) continue;
    const hit = patterns.find(({ re }) => re.test(raw));
    if (hit) {
      problems.push({ text: raw, why: `reads as the other language's “${hit.message}”` });
      continue;
    }
    const phrase = phrases.find(({ literal }) => raw.includes(literal));
    if (phrase) {
      problems.push({ text: raw, why: `holds the other language's “${phrase.literal}”` });
      continue;
    }
    // A code alone ("retention", "held"), or a compound one inside a sentence ("sku_unmatched", "post-lead").
    const code = codes.has(raw)
      ? raw
      : raw.split(/[\s,:;()«»“”"']+/).find((word) => /[_.-]/.test(word) && codes.has(word));
    if (code) problems.push({ text: raw, why: `shows the raw code “${code}”` });
  }
  return problems;
}

/** A nested value's strings (a view model's labels). */
export function stringsOf(value: unknown): string[] {
  if (typeof value === "string") return [value];
  if (Array.isArray(value)) return value.flatMap(stringsOf);
  if (value && typeof value === "object") return Object.values(value).flatMap(stringsOf);
  return [];
}

/** The words of a language's messages (three letters or more, lower case), placeholders left out. */
export function vocabulary(messages: readonly string[]): Set<string> {
  const out = new Set<string>();
  for (const message of messages)
    for (const literal of literals(message)) for (const word of wordsOf(literal)) out.add(word);
  return out;
}

/**
 * For a pseudo-locale: texts holding words of the English catalogue outside
 * the pseudo-locale's marks (a string that did not come from the catalogue),
 * or a number written by hand in English form (an ISO date, "229.00").
 */
export function hardCodedTexts(
  texts: readonly string[],
  options: {
    english: Set<string>;
    unmarked: (text: string) => string;
    /** The shop's own data the page shows (product and city names, payment methods): not the app's words. */
    data?: readonly string[];
    allow?: readonly (string | RegExp)[];
  },
): Problem[] {
  const problems: Problem[] = [];
  // Longest first, so a name is taken out before a shorter one inside it.
  const data = [...new Set(options.data ?? [])].filter((d) => d.length >= 3).sort((a, b) => b.length - a.length);
  for (const text of new Set(texts)) {
    if ((options.allow ?? []).some((a) => (typeof a === "string" ? a === text : a.test(text)))) continue;
    let plain = options.unmarked(text);
    for (const d of data) plain = plain.split(d).join(" ");
    // Identifiers, not words: Shopify tags (cod:new), references (shopify:123), API paths, SKUs (ARG-OIL-100),
    // and the placeholders a merchant types in a message template ({name}).
    plain = plain.replace(/\b(?:cod|shopify):[\w:-]+|\/v\d+\/\S*|\b[A-Z0-9]+(?:-[A-Z0-9]+)+\b|\{\w+\}/g, " ");
    // Whole words of Latin letters only: "connectée" is not the English "connect".
    const words = plain.match(/\p{L}+/gu) ?? [];
    const word = words.find((w) => /^[A-Za-z]{3,}$/.test(w) && options.english.has(w.toLowerCase()));
    if (word) problems.push({ text, why: `holds “${word}” outside the catalogue` });
    else if (/\b\d{4}-\d{2}-\d{2}\b|\b\d+\.\d{2}\b/.test(plain))
      problems.push({ text, why: "holds a number or date written by hand" });
  }
  return problems;
}
