/**
 * Zod schemas of the records the platform returns. Fields the contract states are
 * checked; unknown fields are kept (`.passthrough()`, exposed as `raw`) and never
 * break parsing. Amounts stay strings: a float would silently round money. A lead's
 * two statuses parse into the platform's enums (app/vocabulary/); a status the app
 * does not list yet is kept as it came.
 */
import { z } from "zod";
import { confirmationStatusField, shippingStatusField } from "../vocabulary/platform-status-schema";

/** Amount as the platform writes it, "149.00". A minus is allowed (a profit can be negative). */
export const amountString = z.string().regex(/^-?\d+\.\d{2}$/, "must be a decimal string with two decimals");

export interface Anomaly {
  /** Machine code, verbatim (unknown codes are kept as they come). */
  code: string;
  message: string;
  field?: string;
  /** A recent duplicate's earlier lead, when the platform names it (its reference). */
  duplicateOf?: string;
}

type Json = Record<string, unknown>;

const isRecord = (v: unknown): v is Json => typeof v === "object" && v !== null && !Array.isArray(v);

const firstText = (o: Json, names: string[]): string | undefined => {
  for (const name of names) {
    const v = o[name];
    if (typeof v === "string" && v !== "") return v;
    if (typeof v === "number") return String(v);
    if (Array.isArray(v) && v.length > 0 && v.every((p) => typeof p === "string" || typeof p === "number")) {
      return v.join(".");
    }
  }
  return undefined;
};

/** An anomaly as an object under any usual key names, or as a plain string. */
export function toAnomaly(value: unknown): Anomaly {
  // Stryker disable next-line ConditionalExpression,StringLiteral: equivalent, String(value) below gives a string the same anomaly
  if (typeof value === "string") return { code: value, message: value };
  if (!isRecord(value)) return { code: String(value), message: String(value) };
  const code = firstText(value, ["code", "type", "kind", "name"]) ?? "unspecified";
  const message = firstText(value, ["message", "detail", "description", "reason"]) ?? code;
  const field = firstText(value, ["field", "param", "path", "attribute"]);
  const duplicateOf = firstText(value, ["duplicate_of", "duplicateOf", "duplicate_ref", "original_ref"]);
  return {
    code,
    message,
    ...(field === undefined ? {} : { field }),
    ...(duplicateOf === undefined ? {} : { duplicateOf }),
  };
}

export const anomalySchema = z.unknown().transform(toAnomaly);

const nullableAmount = amountString.nullish().transform((v) => v ?? null);
const nullableText = z
  .string()
  .nullish()
  .transform((v) => v ?? null);
const positiveInt = z
  .union([z.number(), z.string().regex(/^\d+$/).transform(Number)])
  .pipe(z.number().int().positive());

/** Keeps `damaged` / `anomalies` only when the platform sent them. */
function damageOf(v: { damaged?: boolean; anomalies?: Anomaly[] }) {
  return {
    ...(v.damaged === undefined ? {} : { damaged: v.damaged }),
    ...(v.anomalies === undefined ? {} : { anomalies: v.anomalies }),
  };
}

export const accountSchema = z
  .object({
    account: z.string(),
    name: z.string(),
    lead_prefix: z.string(),
    api_version: z.union([z.string(), z.number().transform(String)]),
    rate_limit_per_minute: positiveInt,
  })
  .passthrough()
  .transform((v) => ({
    account: v.account,
    name: v.name,
    lead_prefix: v.lead_prefix,
    api_version: v.api_version,
    rate_limit_per_minute: v.rate_limit_per_minute,
    raw: v as Json,
  }));

export const productSchema = z
  .object({
    id: z.number().int(),
    sku: z.string(),
    name: z.string(),
    platform_price: amountString,
    in_stock: z.boolean(),
    private: z.boolean().default(false),
    variants: z.array(z.unknown()).default([]),
  })
  .passthrough()
  .transform((v) => ({
    id: v.id,
    sku: v.sku,
    name: v.name,
    platform_price: v.platform_price,
    in_stock: v.in_stock,
    private: v.private,
    variants: v.variants,
    raw: v as Json,
  }));

export const citySchema = z
  .object({ id: z.number().int(), name: z.string(), delivery_fee: amountString })
  .passthrough()
  .transform((v) => ({ id: v.id, name: v.name, delivery_fee: v.delivery_fee, raw: v as Json }));

const damageFields = {
  damaged: z.boolean().optional(),
  anomalies: z.array(anomalySchema).optional(),
};

export const leadSummarySchema = z
  .object({
    id: z.number().int(),
    ref: z.string().min(1),
    confirmation_status: confirmationStatusField,
    shipping_status: shippingStatusField,
    total_client: nullableAmount,
    ...damageFields,
  })
  .passthrough()
  .transform((v) => ({
    id: v.id,
    ref: v.ref,
    confirmation_status: v.confirmation_status,
    shipping_status: v.shipping_status,
    total_client: v.total_client,
    ...damageOf(v),
    raw: v as Json,
  }));

export const leadDetailSchema = z
  .object({
    id: z.number().int().optional(),
    ref: z.string().min(1),
    confirmation_status: confirmationStatusField,
    shipping_status: shippingStatusField,
    tracking_number: nullableText,
    seller_profit: nullableAmount,
    total_client: nullableAmount,
    ...damageFields,
  })
  .passthrough()
  .transform((v) => ({
    ...(v.id === undefined ? {} : { id: v.id }),
    ref: v.ref,
    confirmation_status: v.confirmation_status,
    shipping_status: v.shipping_status,
    tracking_number: v.tracking_number,
    seller_profit: v.seller_profit,
    total_client: v.total_client,
    ...damageOf(v),
    raw: v as Json,
  }));

export type Account = z.output<typeof accountSchema>;
export type Product = z.output<typeof productSchema>;
export type City = z.output<typeof citySchema>;
export type LeadSummary = z.output<typeof leadSummarySchema>;
export type LeadDetail = z.output<typeof leadDetailSchema>;

/** Paths and reasons of a failed parse, without the values (which may be customer data). */
export function describeIssues(error: z.ZodError): string[] {
  return error.issues.slice(0, 10).map((i) => `${i.path.join(".") || "(root)"}: ${i.message}`);
}
