/**
 * Nesting depth of a JSON text, counted without parsing it. JSON.parse itself
 * copes with deep nesting, but JSON.stringify and every recursive walk of the
 * result (redaction, mapping) overflow the stack on a 200,000-deep body: a
 * text deeper than any real document is refused before it is parsed.
 */

/** Orders, GDPR payloads and platform answers nest under 10 levels. */
export const MAX_JSON_DEPTH = 64;

/** True as soon as brackets outside strings nest deeper than `max`. Linear, no allocation. */
export function jsonDepthExceeds(text: string, max: number = MAX_JSON_DEPTH): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c)
        i++; // backslash: the next character is escaped
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x5b || c === 0x7b) {
      if (++depth > max) return true;
    } else if (c === 0x5d || c === 0x7d) depth--;
  }
  return false;
}
