/**
 * The catalogues' message syntax, a subset of ICU MessageFormat: `{name}` is
 * replaced by a parameter, and `{count, plural, one {# order} other {# orders}}`
 * picks a form with the locale's plural rules (Intl.PluralRules: French says
 * "0 commande", English "0 orders"); `=0 {...}` matches an exact number and `#`
 * is the number in the locale's format. Pure; parsed templates are cached.
 */

export type MessagePart =
  | { kind: "text"; text: string }
  | { kind: "arg"; name: string }
  | { kind: "plural"; name: string; forms: Record<string, MessagePart[]> }
  | { kind: "hash" };

export class MessageSyntaxError extends Error {
  override name = "MessageSyntaxError";
}

const cache = new Map<string, MessagePart[]>();

/** The template's parts; a malformed plural throws (the catalogue tests parse every message). */
export function parseMessage(template: string): MessagePart[] {
  let parsed = cache.get(template);
  if (!parsed) {
    const [parts, end] = parseParts(template, 0, false);
    if (end !== template.length) throw new MessageSyntaxError(`unexpected "}" at ${end} in: ${template}`);
    parsed = parts;
    cache.set(template, parsed);
  }
  return parsed;
}

/** Parts up to the closing brace of a plural form (nested) or the end of the template. */
function parseParts(s: string, start: number, inPlural: boolean): [MessagePart[], number] {
  const parts: MessagePart[] = [];
  let text = "";
  let i = start;
  const flush = () => {
    if (text) parts.push({ kind: "text", text });
    text = "";
  };
  while (i < s.length) {
    const c = s[i];
    if (c === "}") break;
    if (c === "#" && inPlural) {
      flush();
      parts.push({ kind: "hash" });
      i++;
      continue;
    }
    if (c !== "{") {
      text += c;
      i++;
      continue;
    }
    const close = s.indexOf("}", i);
    const simple = /^\{(\w+)\}/.exec(s.slice(i));
    if (simple) {
      flush();
      parts.push({ kind: "arg", name: simple[1] });
      i += simple[0].length;
      continue;
    }
    const plural = /^\{(\w+),\s*plural,\s*/.exec(s.slice(i));
    if (!plural || close < 0) {
      // Not a placeholder ("{" in prose): kept as text.
      text += c;
      i++;
      continue;
    }
    flush();
    const forms: Record<string, MessagePart[]> = {};
    i += plural[0].length;
    for (;;) {
      const selector = /^\s*(=\d+|zero|one|two|few|many|other)\s*\{/.exec(s.slice(i));
      if (!selector) break;
      const [formParts, end] = parseParts(s, i + selector[0].length, true);
      if (s[end] !== "}") throw new MessageSyntaxError(`unclosed plural form "${selector[1]}" in: ${s}`);
      forms[selector[1]] = formParts;
      i = end + 1;
    }
    const rest = /^\s*\}/.exec(s.slice(i));
    if (!rest || !forms.other)
      throw new MessageSyntaxError(`a plural needs an "other" form and a closing brace in: ${s}`);
    i += rest[0].length;
    parts.push({ kind: "plural", name: plural[1], forms });
  }
  flush();
  return [parts, i];
}

export interface MessageContext {
  /** The locale's plural category of n (Intl.PluralRules#select). */
  plural(n: number): string;
  /** n in the locale's number format (for `#`). */
  number(n: number): string;
}

export type MessageValues = Record<string, string | number>;

/** The parts with their values; an unknown `{name}` stays visible, so a missing parameter shows. */
export function renderParts(
  parts: readonly MessagePart[],
  values: MessageValues | undefined,
  context: MessageContext,
  hash?: number,
): string {
  let out = "";
  for (const part of parts) {
    if (part.kind === "text") out += part.text;
    else if (part.kind === "hash") out += hash === undefined ? "#" : context.number(hash);
    else if (part.kind === "arg") out += values && part.name in values ? String(values[part.name]) : `{${part.name}}`;
    else {
      const n = Number(values?.[part.name]);
      if (!Number.isFinite(n)) {
        out += `{${part.name}}`;
        continue;
      }
      const form = part.forms[`=${n}`] ?? part.forms[context.plural(n)] ?? part.forms.other;
      out += renderParts(form, values, context, n);
    }
  }
  return out;
}

/** Every parameter a template names (plural selectors included). */
export function messageParams(template: string): string[] {
  const names = new Set<string>();
  const walk = (parts: readonly MessagePart[]) => {
    for (const part of parts) {
      if (part.kind === "arg") names.add(part.name);
      if (part.kind === "plural") {
        names.add(part.name);
        Object.values(part.forms).forEach(walk);
      }
    }
  };
  walk(parseMessage(template));
  return [...names].sort();
}

/** The template with each literal text run transformed (the pseudo-locales'): placeholders and plural syntax kept. */
export function mapMessageText(template: string, transform: (text: string) => string): string {
  const write = (parts: readonly MessagePart[]): string =>
    parts
      .map((part) => {
        if (part.kind === "text") return transform(part.text);
        if (part.kind === "hash") return "#";
        if (part.kind === "arg") return `{${part.name}}`;
        const forms = Object.entries(part.forms).map(([selector, form]) => `${selector} {${write(form)}}`);
        return `{${part.name}, plural, ${forms.join(" ")}}`;
      })
      .join("");
  return write(parseMessage(template));
}
