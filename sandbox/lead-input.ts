/**
 * Validation of the POST /v1/leads body (pure). Anything failing here is a 422
 * naming the field; doubtful-but-well-formed input passes and becomes anomalies later.
 * Unknown properties are ignored, as the contract asks of both sides.
 */
import { ValidationError } from "./errors";
import { DECIMAL_PATTERN } from "./money";

export const PHONE_PATTERN = /^0[67]\d{8}$/;

export type ItemInput = { quantity: number } & (
  { sku: string; product_id?: undefined } | { product_id: number; sku?: undefined }
);

export interface LeadInput {
  customer_name: string;
  customer_phone: string;
  /** A city name, or a city id (integer, or a string of digits). */
  city: string | number | null;
  address: string | null;
  total_client: string | null;
  items: ItemInput[];
  external_ref: string | null;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

const isPositiveInteger = (value: unknown): value is number =>
  typeof value === "number" && Number.isSafeInteger(value) && value > 0;

/** Absent and null are the same for optional fields. */
function optionalString(body: Record<string, unknown>, field: string): string | null {
  const value = body[field];
  if (value === undefined || value === null) return null;
  if (typeof value !== "string") throw new ValidationError(field, `${field} must be a string.`);
  return value;
}

function requiredString(body: Record<string, unknown>, field: string): string {
  const value = body[field];
  if (value === undefined || value === null) throw new ValidationError(field, `${field} is required.`);
  if (typeof value !== "string") throw new ValidationError(field, `${field} must be a string.`);
  if (value.trim() === "") throw new ValidationError(field, `${field} must not be empty.`);
  return value;
}

export function parseItems(value: unknown, field = "items"): ItemInput[] {
  if (value === undefined || value === null) throw new ValidationError(field, `${field} is required.`);
  if (!Array.isArray(value)) throw new ValidationError(field, `${field} must be an array.`);
  if (value.length === 0) throw new ValidationError(field, `${field} must not be empty.`);
  return value.map((item: unknown, i): ItemInput => {
    const at = `${field}[${i}]`;
    if (!isObject(item)) throw new ValidationError(at, `${at} must be an object.`);
    if (item.quantity === undefined || item.quantity === null)
      throw new ValidationError(`${at}.quantity`, `${at}.quantity is required.`);
    if (!isPositiveInteger(item.quantity))
      throw new ValidationError(`${at}.quantity`, `${at}.quantity must be a positive integer.`);
    const hasSku = item.sku !== undefined && item.sku !== null;
    const hasProductId = item.product_id !== undefined && item.product_id !== null;
    if (hasSku === hasProductId) throw new ValidationError(at, `${at} must have exactly one of sku or product_id.`);
    if (hasSku) {
      if (typeof item.sku !== "string" || item.sku.trim() === "")
        throw new ValidationError(`${at}.sku`, `${at}.sku must be a non-empty string.`);
      return { sku: item.sku, quantity: item.quantity };
    }
    if (!isPositiveInteger(item.product_id))
      throw new ValidationError(`${at}.product_id`, `${at}.product_id must be a positive integer.`);
    return { product_id: item.product_id, quantity: item.quantity };
  });
}

export function parseCity(value: unknown): string | number | null {
  if (value === undefined || value === null) return null;
  if (isPositiveInteger(value)) return value;
  if (typeof value === "string" && value.trim() !== "") return value;
  throw new ValidationError("city", "city must be a city name (string) or a city id (positive integer).");
}

export function parseTotal(value: unknown): string | null {
  if (value === undefined || value === null) return null;
  if (typeof value !== "string" || !DECIMAL_PATTERN.test(value)) {
    throw new ValidationError(
      "total_client",
      'total_client must be a decimal string with two decimals, e.g. "249.00".',
    );
  }
  return value;
}

export function parsePhone(value: unknown): string {
  if (value === undefined || value === null) throw new ValidationError("customer_phone", "customer_phone is required.");
  if (typeof value !== "string") throw new ValidationError("customer_phone", "customer_phone must be a string.");
  // No normalisation on purpose: "+212 6…" or "06 12…" are the caller's job.
  if (!PHONE_PATTERN.test(value)) {
    throw new ValidationError(
      "customer_phone",
      "customer_phone must be a Moroccan number of 10 digits starting 06 or 07, without spaces.",
    );
  }
  return value;
}

export function parseLeadInput(body: unknown): LeadInput {
  if (!isObject(body)) throw new ValidationError("body", "The body must be a JSON object.");
  return {
    customer_name: requiredString(body, "customer_name"),
    customer_phone: parsePhone(body.customer_phone),
    items: parseItems(body.items),
    city: parseCity(body.city),
    address: optionalString(body, "address"),
    total_client: parseTotal(body.total_client),
    external_ref: optionalString(body, "external_ref"),
  };
}
