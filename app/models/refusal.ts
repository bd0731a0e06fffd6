/**
 * A platform refusal (422, or a lead our own check refused before sending) as
 * data: which field and what the platform said. Stored with the refusal's
 * timeline step so the order page and Anomalies can say it in plain words. Pure
 * (the browser bundles it); refusal.server.ts reads one from an error.
 */
export interface Refusal {
  /** The lead field the platform named ("customer_phone", "items.0.sku"); null when it named none. */
  field: string | null;
  /** The platform's own words (300 characters at most); null when it gave none. */
  message: string | null;
}

const MAX_MESSAGE = 300;

/** A stored refusal's text: trimmed, at most MAX_MESSAGE characters; null when empty. */
export const text = (value: unknown): string | null =>
  typeof value === "string" && value.trim() ? value.trim().slice(0, MAX_MESSAGE) : null;

/** Reads a refusal back from a timeline step's data ({ refused: ... }); null when it carries none. */
export function refusalOfData(data: unknown): Refusal | null {
  if (!data || typeof data !== "object") return null;
  const refused = (data as { refused?: unknown }).refused;
  if (!refused || typeof refused !== "object") return null;
  const { field, message } = refused as Record<string, unknown>;
  return { field: text(field), message: text(message) };
}

/** The lead field's family, for the fix that applies. */
export type RefusedField = "phone" | "city" | "items" | "total" | "name" | "address" | "other";

export function refusedFieldOf(field: string | null): RefusedField {
  if (!field) return "other";
  if (/phone/i.test(field)) return "phone";
  if (/city/i.test(field)) return "city";
  if (/^items|sku|product/i.test(field)) return "items";
  if (/total|amount/i.test(field)) return "total";
  if (/name/i.test(field)) return "name";
  if (/address/i.test(field)) return "address";
  return "other";
}
