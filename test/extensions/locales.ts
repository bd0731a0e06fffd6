/**
 * The extensions' locale files and a translate() that behaves like
 * shopify.i18n.translate for them (nested keys, {{name}} replacements),
 * except that a missing key or replacement fails the test instead of showing.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import type { Translate } from "../../extensions/order-status-block/src/view-model";

export const EXTENSIONS = ["order-status-block", "order-status-action"] as const;
export type Extension = (typeof EXTENSIONS)[number];
export type Lang = "en" | "fr";

const root = join(import.meta.dirname, "..", "..", "extensions");
const FILES: Record<Lang, string> = { en: "en.default.json", fr: "fr.json" };

export type Dictionary = Record<string, string>;

function flatten(value: unknown, prefix: string, out: Dictionary): Dictionary {
  if (typeof value === "string") {
    out[prefix] = value;
  } else if (typeof value === "object" && value !== null) {
    for (const [k, v] of Object.entries(value)) flatten(v, prefix ? `${prefix}.${k}` : k, out);
  } else {
    throw new Error(`${prefix}: locale values must be strings or objects`);
  }
  return out;
}

export function loadLocale(extension: Extension, lang: Lang): Dictionary {
  const text = readFileSync(join(root, extension, "locales", FILES[lang]), "utf8");
  return flatten(JSON.parse(text) as unknown, "", {});
}

export const placeholders = (text: string) => [...text.matchAll(/\{\{\s*(\w+)\s*\}\}/g)].map((m) => m[1]).sort();

/**
 * As shopify.i18n.translate: a `count` picks the key's plural form with the
 * language's rules (French 0 and 1 are "one").
 */
export function translator(dictionary: Dictionary, lang: Lang = "en"): Translate {
  const rules = new Intl.PluralRules(lang);
  return (key, params = {}) => {
    const count = params.count;
    const plural = typeof count === "number" && dictionary[`${key}.other`] !== undefined;
    const template = plural
      ? (dictionary[`${key}.${rules.select(count)}`] ?? dictionary[`${key}.other`])
      : dictionary[key];
    if (template === undefined) throw new Error(`missing translation key: ${key}`);
    return template.replace(/\{\{\s*(\w+)\s*\}\}/g, (_, name: string) => {
      if (!(name in params)) throw new Error(`${key}: no value for {{${name}}}`);
      return String(params[name]);
    });
  };
}
