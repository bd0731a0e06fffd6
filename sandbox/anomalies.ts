/**
 * The four anomaly kinds that turn a well-formed lead into a damaged one (pure).
 * None of them is ever a refusal: the lead is stored and answered with 202.
 */
import { fromCents, toCents } from "./money";

export type AnomalyCode = "unknown_sku" | "unknown_city" | "inconsistent_total" | "recent_duplicate";

export interface Anomaly {
  code: AnomalyCode;
  message: string;
  field?: string;
  /** recent_duplicate only: the earlier lead it duplicates */
  duplicate_of?: string;
}

export interface AnomalyFacts {
  city: { given: boolean; fee: string | null };
  /** one entry per item line; price null when the SKU / product id is unknown */
  items: { field: string; label: string; price: string | null; quantity: number }[];
  total_client: string | null;
  duplicateOf: string | null;
}

export function detectAnomalies(facts: AnomalyFacts): Anomaly[] {
  const anomalies: Anomaly[] = [];
  for (const item of facts.items) {
    if (item.price === null) {
      anomalies.push({
        code: "unknown_sku",
        message: `${item.label} is not in this seller's catalogue.`,
        field: item.field,
      });
    }
  }
  if (facts.city.fee === null) {
    const message = facts.city.given ? "The city is not a delivered city." : "No city was given.";
    anomalies.push({ code: "unknown_city", message, field: "city" });
  }
  const totalProblem = inconsistentTotal(facts);
  if (totalProblem) anomalies.push({ code: "inconsistent_total", message: totalProblem, field: "total_client" });
  if (facts.duplicateOf) {
    anomalies.push({
      code: "recent_duplicate",
      message: `Same customer phone and product as ${facts.duplicateOf}, created recently.`,
      field: "customer_phone",
      duplicate_of: facts.duplicateOf,
    });
  }
  return anomalies;
}

/**
 * Absent and zero totals are always inconsistent (nothing to collect). Otherwise the
 * total must cover the platform prices plus the delivery fee, which is only known when
 * the city is; unknown items count for nothing, so the bound stays a sure one.
 */
function inconsistentTotal(facts: AnomalyFacts): string | null {
  if (facts.total_client === null) return "total_client is missing: the amount to collect is unknown.";
  const total = toCents(facts.total_client);
  if (total === 0) return "total_client is zero.";
  if (facts.city.fee === null) return null;
  const minimum =
    facts.items.reduce((sum, i) => sum + (i.price === null ? 0 : toCents(i.price) * i.quantity), 0) +
    toCents(facts.city.fee);
  if (total < minimum) {
    return `total_client ${facts.total_client} is below platform prices plus delivery fee (${fromCents(minimum)}).`;
  }
  return null;
}
