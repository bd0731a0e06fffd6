/**
 * Keeps the API key out of everything the client hands back: error messages, onCall
 * records, parsed bodies. A hostile or buggy server may echo the key, so server text
 * is scrubbed too, not only our own.
 */
export const REDACTED = "[redacted]";

export interface Redactor {
  /** The text with every occurrence of the secret (raw or URL-encoded) replaced. */
  text(value: string): string;
  /** A JSON value with the secret removed from every string and property name. */
  deep(value: unknown): unknown;
}

export function createRedactor(secret: string): Redactor {
  const forms = [...new Set([secret, encodeURIComponent(secret)])].filter((f) => f.length > 0);
  // Stryker disable next-line StringLiteral: "#" and the "" fallback are never reached: no key fits inside both "[redacted]" and "***" (an encoded form holds a "%")
  const marker = [REDACTED, "***", "#"].find((m) => !forms.some((f) => m.includes(f))) ?? "";
  const text = (value: string): string => {
    let out = value;
    // A replacement can splice a new occurrence out of its neighbours: repeat a few
    // times, and give up on the whole text rather than ever return the secret.
    for (let pass = 0; pass < 8; pass++) {
      const hit = forms.find((form) => out.includes(form));
      // Stryker disable next-line ConditionalExpression: equivalent, later passes leave a text without the key as it is; this only saves them
      if (hit === undefined) return out;
      out = out.split(hit).join(marker);
    }
    return forms.some((form) => out.includes(form)) ? marker : out;
  };
  const deep = (value: unknown): unknown => {
    if (typeof value === "string") return text(value);
    if (Array.isArray(value)) return value.map(deep);
    if (value !== null && typeof value === "object") {
      return Object.fromEntries(Object.entries(value).map(([k, v]) => [text(k), deep(v)]));
    }
    return value;
  };
  return { text, deep };
}
