/**
 * Shopify's search syntax, the part the app uses: space-separated terms, `key:value`
 * filters with optional comparators (`created_at:>=2026-07-01`), quoted values, other
 * words matched as substrings. Unknown filter keys match everything (Shopify ignores
 * them with a search warning).
 */
import type { OrderRecord, ProductVariantRecord } from "./records";

interface Term {
  key: string | null;
  op: "=" | ">" | ">=" | "<" | "<=";
  value: string;
}

export function parseSearch(query: unknown): Term[] {
  if (typeof query !== "string" || !query.trim()) return [];
  const terms: Term[] = [];
  for (const raw of query.match(/(?:[^\s"]+:)?"[^"]*"|\S+/g) ?? []) {
    const colon = raw.indexOf(":");
    if (colon <= 0 || raw.startsWith('"')) {
      terms.push({ key: null, op: "=", value: unquote(raw) });
      continue;
    }
    const key = raw.slice(0, colon).toLowerCase();
    let rest = raw.slice(colon + 1);
    const op = (/^(>=|<=|>|<)/.exec(rest)?.[1] ?? "=") as Term["op"];
    rest = rest.slice(op === "=" ? 0 : op.length);
    terms.push({ key, op, value: unquote(rest) });
  }
  return terms;
}

const unquote = (s: string) => s.replace(/^"|"$/g, "");

/** A date filter value as a time: a bare day is its midnight UTC. */
function timeOf(value: string): number {
  return Date.parse(/^\d{4}-\d{2}-\d{2}$/.test(value) ? `${value}T00:00:00Z` : value);
}

function compareTime(actual: unknown, term: Term): boolean {
  const a = typeof actual === "string" ? Date.parse(actual) : NaN;
  const b = timeOf(term.value);
  if (!Number.isFinite(a) || !Number.isFinite(b)) return false;
  if (term.op === "=") return new Date(a).toISOString().slice(0, 10) === new Date(b).toISOString().slice(0, 10);
  if (term.op === ">") return a > b;
  if (term.op === ">=") return a >= b;
  if (term.op === "<") return a < b;
  return a <= b;
}

const includes = (haystack: unknown, needle: string) =>
  typeof haystack === "string" && haystack.toLowerCase().includes(needle.toLowerCase());

export function matchesOrder(order: OrderRecord, query: unknown): boolean {
  return parseSearch(query).every((term) => {
    const v = term.value.toLowerCase();
    switch (term.key) {
      case null:
        return includes(order.name, v) || includes(order.email, v);
      case "created_at":
        return compareTime(order.createdAt, term);
      case "updated_at":
        return compareTime(order.updatedAt, term);
      case "name":
        return String(order.name).toLowerCase() === v || String(order.name).toLowerCase() === `#${v}`;
      case "tag":
        return order.tags.some((t) => t.toLowerCase() === v);
      case "financial_status":
        return order.displayFinancialStatus.toLowerCase() === v;
      case "status":
        return (
          v === "any" ||
          (v === "cancelled" ? order.cancelledAt !== null : v === "open" ? order.cancelledAt === null : true)
        );
      case "id":
        return order.id === term.value || order.id.endsWith(`/${term.value}`);
      default:
        return true;
    }
  });
}

export function matchesVariant(variant: ProductVariantRecord, query: unknown): boolean {
  return parseSearch(query).every((term) => {
    const v = term.value.toLowerCase();
    if (term.key === "sku") return (variant.sku ?? "").toLowerCase() === v;
    if (term.key === "product_status") return v.split(",").includes((variant.product.status ?? "ACTIVE").toLowerCase());
    if (term.key === "title") return includes(variant.title, v) || includes(variant.product.title, v);
    if (term.key !== null) return true;
    return [variant.sku, variant.title, variant.displayName].some((s) => includes(s, v));
  });
}
