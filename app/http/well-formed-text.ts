/**
 * Text a database column takes whatever a payload carried. JSON can spell a lone
 * UTF-16 surrogate (`"\ud800"`) and NUL (`"\u0000"`): Prisma refuses the first as
 * a query parameter and PostgreSQL refuses NUL in a text column. A lone surrogate
 * becomes U+FFFD, NUL is removed.
 */

type StringWithWellFormed = string & { isWellFormed(): boolean; toWellFormed(): string };

/** The text with lone surrogates replaced by U+FFFD and NUL removed; the same string when it has neither. */
export function wellFormedText(text: string): string {
  const s = text as StringWithWellFormed;
  const wellFormed = s.isWellFormed();
  if (wellFormed && !text.includes("\u0000")) return text;
  const fixed = wellFormed ? text : s.toWellFormed();
  return fixed.includes("\u0000") ? fixed.replaceAll("\u0000", "") : fixed;
}

/**
 * Every string of a parsed JSON value (object keys included) made well-formed, in
 * place; the value itself is returned. Iterative: a payload's depth is bounded
 * before it is parsed, but a walk should not depend on it.
 */
export function wellFormedJson<T>(value: T): T {
  if (typeof value === "string") return wellFormedText(value) as T;
  const stack: unknown[] = [value];
  while (stack.length > 0) {
    const node = stack.pop();
    if (Array.isArray(node)) {
      for (let i = 0; i < node.length; i++) {
        const item: unknown = node[i];
        if (typeof item === "string") node[i] = wellFormedText(item);
        else if (item !== null && typeof item === "object") stack.push(item);
      }
    } else if (node !== null && typeof node === "object") {
      const record = node as Record<string, unknown>;
      for (const key of Object.keys(record)) {
        let item = record[key];
        if (typeof item === "string") item = record[key] = wellFormedText(item);
        else if (item !== null && typeof item === "object") stack.push(item);
        const fixedKey = wellFormedText(key);
        if (fixedKey === key) continue;
        delete record[key];
        // Two keys equal once cleaned: the first is kept. defineProperty: "__proto__" stays a plain key.
        if (!Object.hasOwn(record, fixedKey))
          Object.defineProperty(record, fixedKey, {
            value: item,
            enumerable: true,
            writable: true,
            configurable: true,
          });
      }
    }
  }
  return value;
}
