/**
 * Web pixels, as far as an app meets them: `webPixelCreate` and `webPixelUpdate`
 * check the settings against the definition in the app's web pixel extension
 * TOML (as Shopify validates them against the deployed extension), one pixel per
 * app and shop (a second create is TAKEN), `webPixelDelete`, and the `webPixel`
 * query. Settings arrive as a JSON string or an object (the JSON scalar).
 */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { parse } from "smol-toml";
import type { UserError } from "./records";

export interface WebPixelField {
  type: string;
  /** `validations = [{ name = "min", value = "1" }]`: the shortest value. */
  min: number;
}

export interface WebPixelRecord {
  id: string;
  /** As Shopify returns it: the JSON text. */
  settings: string;
}

interface PixelToml {
  type?: string;
  settings?: { fields?: Record<string, { type?: string; validations?: { name?: string; value?: string }[] }> };
}

/** The settings fields of the app's web pixel extension under extensions/, or null when it has none. */
export function webPixelFieldsFrom(extensionsDir: string): Record<string, WebPixelField> | null {
  if (!existsSync(extensionsDir)) return null;
  for (const entry of readdirSync(extensionsDir, { withFileTypes: true })) {
    const file = join(extensionsDir, entry.name, "shopify.extension.toml");
    if (!entry.isDirectory() || !existsSync(file)) continue;
    const toml = parse(readFileSync(file, "utf8")) as PixelToml;
    if (toml.type !== "web_pixel_extension") continue;
    return Object.fromEntries(
      Object.entries(toml.settings?.fields ?? {}).map(([name, field]) => [
        name,
        {
          type: field.type ?? "single_line_text_field",
          min: Number(field.validations?.find((v) => v.name === "min")?.value ?? 0),
        },
      ]),
    );
  }
  return null;
}

let projectFields: Record<string, WebPixelField> | null | undefined;
/** The project's own pixel (read once). */
const defaultFields = () => (projectFields ??= webPixelFieldsFrom(join(import.meta.dirname, "..", "extensions")));

const invalid = (message: string, code = "INVALID_SETTINGS"): UserError[] => [
  { field: ["webPixel", "settings"], message, code },
];

/** The settings as stored (JSON text), or the userErrors Shopify answers. */
export function checkWebPixelSettings(
  raw: unknown,
  fields: Record<string, WebPixelField> | null = defaultFields(),
): { settings: string } | { userErrors: UserError[] } {
  if (!fields) return { userErrors: invalid("No web pixel extension found for this app.", "NO_EXTENSION") };
  let value: unknown = raw;
  if (typeof raw === "string") {
    try {
      value = JSON.parse(raw);
    } catch {
      return { userErrors: invalid("The provided settings is not a valid JSON.", "INVALID_CONFIGURATION_JSON") };
    }
  }
  if (!value || typeof value !== "object" || Array.isArray(value))
    return { userErrors: invalid("The provided settings is not a valid JSON.", "INVALID_CONFIGURATION_JSON") };
  const settings = value as Record<string, unknown>;
  const unknown = Object.keys(settings).filter((k) => !(k in fields));
  if (unknown.length) return { userErrors: invalid(`Unknown settings: ${unknown.join(", ")}.`) };
  for (const [name, field] of Object.entries(fields)) {
    const given = settings[name];
    if (typeof given !== "string" || given.length < field.min)
      return { userErrors: invalid(`Setting ${name} must be a text of at least ${field.min} characters.`) };
  }
  return { settings: JSON.stringify(settings) };
}
