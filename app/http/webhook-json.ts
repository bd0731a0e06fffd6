/**
 * Reads a webhook body as JSON the way the app can store and trust it, in one
 * linear scan before JSON.parse and no reviver (a reviver costs 7 times the parse):
 *
 * - exact ids: an integer beyond 2^53 (Shopify's ids are 64-bit; its own sample
 *   order id is 820982911946154508) is read as its digits, a string, where
 *   JSON.parse would round it and two orders would become one;
 * - well-formed text: a string spelling a lone surrogate or NUL (`\ud800`,
 *   `\u0000`) is cleaned (app/http/well-formed-text.ts), keys included; the walk
 *   runs only when the scan saw such an escape;
 * - bounded work: nesting deeper than `maxDepth` and more than `maxValues` values
 *   (an upper count: commas and opening brackets) are refused before parsing, so
 *   no body costs more to parse than a real one of the same topic.
 */
import { wellFormedJson } from "./well-formed-text";

export interface WebhookJsonLimits {
  maxDepth: number;
  maxValues: number;
}

export type WebhookJson =
  | { ok: true; value: unknown }
  | { ok: false; why: "depth"; max: number }
  | { ok: false; why: "values"; max: number }
  | { ok: false; why: "syntax" };

const QUOTE = 0x22;
const MINUS = 0x2d;
const DIGIT_0 = 0x30;
const DIGIT_9 = 0x39;
const MAX_SAFE_DIGITS = String(Number.MAX_SAFE_INTEGER);

const isDigit = (c: number) => c >= DIGIT_0 && c <= DIGIT_9;

/** `\uD800`-`\uDFFF` or `\u0000` starts at `i` (the `u`): text to clean once parsed. */
function escapeNeedsCleaning(text: string, i: number): boolean {
  const a = text.charCodeAt(i + 1) | 0x20;
  const b = text.charCodeAt(i + 2) | 0x20;
  if (a === 0x64 /* d */) return b === 0x38 || b === 0x39 || (b >= 0x61 && b <= 0x66); // d8-df
  return a === DIGIT_0 && b === DIGIT_0 && text.charCodeAt(i + 3) === DIGIT_0 && text.charCodeAt(i + 4) === DIGIT_0;
}

/** Whether the digits text.slice(start, end) (no sign, no leading zero) exceed Number.MAX_SAFE_INTEGER. */
function beyondSafe(text: string, start: number, end: number): boolean {
  const length = end - start;
  if (length !== MAX_SAFE_DIGITS.length) return length > MAX_SAFE_DIGITS.length;
  return text.slice(start, end) > MAX_SAFE_DIGITS;
}

interface Scan {
  tooDeep: boolean;
  values: number;
  needsCleaning: boolean;
  /** [start, end) of integer tokens beyond 2^53, in order. */
  bigIntegers: number[];
}

function scan(text: string, limits: WebhookJsonLimits): Scan {
  const result: Scan = { tooDeep: false, values: 0, needsCleaning: false, bigIntegers: [] };
  let depth = 0;
  const length = text.length;
  // The next backslash at or after the scan, found once: searching from every string would be quadratic.
  let slash = text.indexOf("\\");
  if (slash < 0) slash = length;
  let i = 0;
  while (i < length) {
    const c = text.charCodeAt(i);
    if (c === QUOTE) {
      // A string: jump from quote to quote, looking only at the backslashes in between.
      let quote = i;
      for (;;) {
        quote = text.indexOf('"', quote + 1);
        if (quote < 0) return result; // unterminated: JSON.parse says so
        let escapedQuote = false;
        while (slash < quote) {
          const escaped = text.charCodeAt(slash + 1);
          if (escaped === 0x75 /* u */ && escapeNeedsCleaning(text, slash + 1)) result.needsCleaning = true;
          if (slash + 1 === quote) escapedQuote = true;
          slash = text.indexOf("\\", slash + 2);
          if (slash < 0) slash = length;
        }
        if (!escapedQuote) break;
      }
      i = quote + 1;
      continue;
    }
    if (c === 0x5b /* [ */ || c === 0x7b /* { */) {
      result.values++;
      if (++depth > limits.maxDepth) {
        result.tooDeep = true;
        return result;
      }
    } else if (c === 0x5d /* ] */ || c === 0x7d /* } */) depth--;
    else if (c === 0x2c /* , */) result.values++;
    else if (isDigit(c) || c === MINUS) {
      const start = c === MINUS ? i + 1 : i;
      let end = start;
      while (end < length && isDigit(text.charCodeAt(end))) end++;
      const next = text.charCodeAt(end);
      const integer = next !== 0x2e /* . */ && (next | 0x20) !== 0x65; /* e */
      if (
        integer &&
        end - start >= MAX_SAFE_DIGITS.length &&
        text.charCodeAt(start) !== DIGIT_0 &&
        beyondSafe(text, start, end)
      ) {
        result.bigIntegers.push(i, end);
      }
      i = Math.max(end, i + 1);
      continue;
    }
    i++;
  }
  return result;
}

/** The text with each big integer token in quotes: "820982911946154508". */
function quoteBigIntegers(text: string, spans: number[]): string {
  const parts: string[] = [];
  let from = 0;
  for (let k = 0; k < spans.length; k += 2) {
    parts.push(text.slice(from, spans[k]), '"', text.slice(spans[k], spans[k + 1]), '"');
    from = spans[k + 1];
  }
  parts.push(text.slice(from));
  return parts.join("");
}

export function readWebhookJson(text: string, limits: WebhookJsonLimits): WebhookJson {
  const scanned = scan(text, limits);
  if (scanned.tooDeep) return { ok: false, why: "depth", max: limits.maxDepth };
  if (scanned.values > limits.maxValues) return { ok: false, why: "values", max: limits.maxValues };
  let value: unknown;
  try {
    value = JSON.parse(scanned.bigIntegers.length > 0 ? quoteBigIntegers(text, scanned.bigIntegers) : text);
  } catch {
    return { ok: false, why: "syntax" };
  }
  return { ok: true, value: scanned.needsCleaning ? wellFormedJson(value) : value };
}
