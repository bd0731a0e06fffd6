/**
 * Defensive readers for order JSON: a payload is whatever Shopify (or a replayed
 * snapshot) sent, so every field is checked and a surprise becomes "absent", never a throw.
 */
import { wellFormedText } from "../../http/well-formed-text";

export type Json = Record<string, unknown>;

export function obj(value: unknown): Json | undefined {
  return value !== null && typeof value === "object" && !Array.isArray(value) ? (value as Json) : undefined;
}

export function list(value: unknown): unknown[] {
  return Array.isArray(value) ? value : [];
}

/**
 * A list checked against its cap before any element is read: within it, its
 * elements; over it, none (`length` says how many there were). Walking 400,000
 * empty line items held the event loop for seconds.
 */
export function cappedList(value: unknown, max: number): { items: unknown[]; length: number } {
  const items = list(value);
  return items.length > max ? { items: [], length: items.length } : { items, length: items.length };
}

/** A non-empty string (well-formed: no lone surrogate, no NUL), or a finite number written as one. */
export function text(value: unknown): string | undefined {
  if (typeof value === "string") {
    // Snapshots stored before intake cleaned them may still hold a lone surrogate.
    const clean = wellFormedText(value);
    return clean.trim() === "" ? undefined : clean;
  }
  // Stryker disable next-line ConditionalExpression: equivalent, Number.isFinite is false for anything but a number
  if (typeof value === "number" && Number.isFinite(value)) return String(value);
  if (typeof value === "bigint") return value.toString();
  return undefined;
}

export function flag(value: unknown, fallback: boolean): boolean {
  return typeof value === "boolean" ? value : fallback;
}

/** A non-negative integer quantity (numbers or digit strings), else undefined. */
export function count(value: unknown): number | undefined {
  const n = typeof value === "string" && /^\d+$/.test(value.trim()) ? Number(value) : value;
  // Stryker disable next-line ConditionalExpression: equivalent, Number.isSafeInteger is false for anything but a number
  return typeof n === "number" && Number.isSafeInteger(n) && n >= 0 ? n : undefined;
}

/** Digits of a numeric id or a GraphQL gid ("gid://shopify/Order/123" -> "123"). */
export function idDigits(value: unknown): string | undefined {
  const raw = text(value);
  if (!raw) return undefined;
  // Scanned from the end: the regex /(\d+)\s*$/ took quadratic time on a long run of digits.
  const trimmed = raw.trimEnd();
  let start = trimmed.length;
  // Stryker disable next-line ConditionalExpression,EqualityOperator: equivalent, charCodeAt(-1) is NaN, which is no digit, so the scan stops at 0 anyway
  while (start > 0 && trimmed.charCodeAt(start - 1) >= 48 && trimmed.charCodeAt(start - 1) <= 57) start--;
  return start < trimmed.length ? trimmed.slice(start) : undefined;
}

/** Drops undefined properties, so optional fields are absent rather than undefined. */
export function compact<T extends object>(value: T): T {
  for (const key of Object.keys(value) as (keyof T)[]) if (value[key] === undefined) delete value[key];
  return value;
}
