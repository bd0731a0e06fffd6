/**
 * Where values sit in a JSON text, so a tool can send a value's bytes as they
 * were written: JSON.parse then JSON.stringify rounds integers beyond 2^53
 * (Shopify's 64-bit ids: its sample orders 820982911946154508 and
 * 820982911946154509 become one) and rewrites the spacing the signature covers.
 * For text JSON.parse has already accepted: no error handling of its own.
 */

/** [start, end) of a value in the text. */
export type Span = readonly [number, number];

const isSpace = (c: number) => c === 0x20 || c === 0x09 || c === 0x0a || c === 0x0d || c === 0xfeff;

function skipSpace(text: string, i: number): number {
  while (i < text.length && isSpace(text.charCodeAt(i))) i++;
  return i;
}

/** The end of the string token whose opening quote is at `i`. */
function stringEnd(text: string, i: number): number {
  for (let j = i + 1; ; j++) {
    const c = text.charCodeAt(j);
    if (c === 0x5c /* \ */) j++;
    else if (c === 0x22 /* " */) return j + 1;
  }
}

/** The end of the value that starts at `i` (no leading space). */
function valueEnd(text: string, i: number): number {
  const c = text.charCodeAt(i);
  if (c === 0x22) return stringEnd(text, i);
  if (c !== 0x7b /* { */ && c !== 0x5b /* [ */) {
    let j = i;
    while (j < text.length && !/[\s,\]}]/.test(text[j])) j++;
    return j;
  }
  let depth = 0;
  for (let j = i; ; j++) {
    const d = text.charCodeAt(j);
    if (d === 0x22) j = stringEnd(text, j) - 1;
    else if (d === 0x7b || d === 0x5b) depth++;
    else if (d === 0x7d || d === 0x5d) {
      if (--depth === 0) return j + 1;
    }
  }
}

/** The span of the text's one top-level value. */
export function rootSpan(text: string): Span {
  const start = skipSpace(text, 0);
  return [start, valueEnd(text, start)];
}

/** The spans of an array's elements (`span` an array's). */
export function elementSpans(text: string, span: Span): Span[] {
  const spans: Span[] = [];
  let i = skipSpace(text, span[0] + 1);
  while (text.charCodeAt(i) !== 0x5d) {
    const end = valueEnd(text, i);
    spans.push([i, end]);
    i = skipSpace(text, end);
    if (text.charCodeAt(i) === 0x2c) i = skipSpace(text, i + 1);
  }
  return spans;
}

/** The span of each member's value of an object (`span` an object's), by key; a repeated key: its last. */
export function memberSpans(text: string, span: Span): Map<string, Span> {
  const members = new Map<string, Span>();
  let i = skipSpace(text, span[0] + 1);
  while (text.charCodeAt(i) !== 0x7d) {
    const keyEnd = stringEnd(text, i);
    const key = JSON.parse(text.slice(i, keyEnd)) as string;
    const start = skipSpace(text, skipSpace(text, keyEnd) + 1);
    const end = valueEnd(text, start);
    members.set(key, [start, end]);
    i = skipSpace(text, end);
    if (text.charCodeAt(i) === 0x2c) i = skipSpace(text, i + 1);
  }
  return members;
}

/** The text with the values of some members replaced (each `replacement` a JSON text), every other byte as it was. */
export function withMembers(text: string, replacements: ReadonlyMap<string, string>): string {
  const members = memberSpans(text, rootSpan(text));
  const edits = [...replacements]
    .flatMap(([key, value]) => (members.has(key) ? [{ span: members.get(key)!, value }] : []))
    .sort((a, b) => a.span[0] - b.span[0]);
  let out = "";
  let from = 0;
  for (const { span, value } of edits) {
    out += text.slice(from, span[0]) + value;
    from = span[1];
  }
  return out + text.slice(from);
}
