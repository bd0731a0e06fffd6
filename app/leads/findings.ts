/**
 * Findings: one stable code per rule, the params the admin needs to translate it, and a
 * plain-English message for the merchant. Messages say what is wrong and what the
 * platform would do, never how our code works.
 */
import type { Finding, FindingCode, FindingParams, Suggestion } from "./types";

type Params = FindingParams;

const quote = (value: unknown) => `“${String(value ?? "")}”`;

function closest(suggestions: readonly Suggestion[] | undefined): string {
  if (!suggestions || suggestions.length === 0) return "";
  return ` Closest: ${suggestions.map((s) => s.name).join(", ")}.`;
}

const SOURCE_LABEL: Record<string, string> = {
  address1: "address line",
  address2: "second address line",
  province: "province / region field",
};

const MESSAGES: Record<FindingCode, (p: Params, s?: readonly Suggestion[]) => string> = {
  not_cod: (p) =>
    p.reason === "already_paid"
      ? `The order is already ${String(p.financialStatus).replace(/_/g, " ")}; only unpaid cash-on-delivery orders are sent.`
      : p.reason === "no_gateway"
        ? "The order has no payment method, so it is not a cash-on-delivery order; it is not sent."
        : `The order was paid with ${quote(p.gateways)}, not cash on delivery; it is not sent.`,
  test_order: () => "This is a Shopify test order; it is not sent (test orders can be allowed in the settings).",
  cancelled: () => "The order was cancelled in Shopify; it is not sent.",
  no_shippable_items: () =>
    "The order has nothing to deliver (only gift cards or items that need no shipping); it is not sent.",
  too_many_items: (p) =>
    `The order has ${String(p.lineCount)} lines to deliver, more than the ${String(p.max)} one lead can hold; it is held. Split it into smaller orders in Shopify.`,
  phone_missing: () =>
    "The order has no phone number. The platform needs a Moroccan mobile number (06 or 07) to confirm the order with the customer.",
  phone_invalid: (p) =>
    `${quote(p.raw)} is not a valid Moroccan phone number. The platform needs a mobile number starting with 06 or 07.`,
  phone_landline: (p) =>
    `${quote(p.raw)} is a fixed-line number. The platform accepts only mobile numbers starting with 06 or 07.`,
  phone_foreign: (p) =>
    `${quote(p.raw)} is a foreign number (+${String(p.callingCode)}). The platform accepts only Moroccan mobile numbers starting with 06 or 07.`,
  phone_unverified: (p) =>
    `${String(p.phone)} is not in a number range Moroccan operators are known to use; check it with the customer.`,
  name_missing: (p) => `The order has no customer name; the lead is sent as ${quote(p.name)}.`,
  city_missing: () => "The order has no city, and none was found in the address.",
  city_unmatched: (p, s) => `${quote(p.input)} is not one of the platform's delivered cities.${closest(s)}`,
  city_fuzzy: (p) =>
    `The city ${quote(p.input)} was read as ${String(p.city)} (${Math.round(Number(p.score) * 100)}% match); check it.`,
  city_from_address: (p) =>
    `${p.cityField ? `The city field (${quote(p.cityField)}) is not a city` : "The city field is empty"}; ${String(p.city)} was found in the ${SOURCE_LABEL[String(p.source)] ?? "address"}.`,
  sku_missing: (p) =>
    `${quote(p.title)} has no SKU and no mapping to a platform product${p.leftOut ? "; it is left out of the lead" : ""}. Map it to a platform product.`,
  sku_unmatched: (p, s) =>
    p.via === "mapping"
      ? `The mapping for ${quote(p.title)} points to ${String(p.unknown)}, which is not in the platform catalogue.${closest(s)}`
      : `SKU ${quote(p.sku)} (${quote(p.title)}) is not in the platform catalogue.${closest(s)}`,
  item_out_of_stock: (p) => `${String(p.name)} (${String(p.sku)}) is out of stock on the platform.`,
  currency_not_mad: (p) =>
    `The order is in ${p.currency ? String(p.currency) : "an unknown currency"} and carries no amount in MAD, so the amount to collect cannot be set.`,
  total_invalid: (p) => `The order total ${quote(p.amount)} cannot be read as an amount to collect.`,
  total_below_cost: (p) =>
    p.total === "0.00"
      ? "The amount to collect is 0.00 MAD; the platform will flag the lead as an inconsistent total."
      : `The amount to collect (${String(p.total)} MAD) is below the platform price of the items plus delivery (${String(p.minimum)} MAD); the platform will flag the lead as an inconsistent total.`,
  possible_duplicate: (p) =>
    `Order ${String(p.otherOrder)} was sent ${String(p.minutesAgo)} min ago with the same phone and product; the platform may mark this one as a duplicate.`,
};

/** Findings kept per code: an order of many lines repeats one problem per line, and each is stored and shown. */
export const MAX_FINDINGS_PER_CODE = 20;

/**
 * At most MAX_FINDINGS_PER_CODE findings of each code, in order; the first of a
 * code says how many more were left out (`params.notListed`). The findings are
 * the caller's own, fresh from one mapping.
 */
export function capFindings(findings: Finding[]): Finding[] {
  if (findings.length <= MAX_FINDINGS_PER_CODE) return findings;
  const seen = new Map<string, number>();
  const kept: Finding[] = [];
  for (const finding of findings) {
    const count = (seen.get(finding.code) ?? 0) + 1;
    seen.set(finding.code, count);
    if (count <= MAX_FINDINGS_PER_CODE) kept.push(finding);
  }
  for (const [code, count] of seen) {
    if (count <= MAX_FINDINGS_PER_CODE) continue;
    const first = kept.find((f) => f.code === code)!;
    const notListed = count - MAX_FINDINGS_PER_CODE;
    first.params = { ...first.params, notListed };
    first.message += ` ${notListed} more lines with the same problem are not listed.`;
  }
  return kept;
}

export function makeFinding(
  code: FindingCode,
  severity: Finding["severity"],
  field: string,
  params: Params = {},
  suggestions?: Suggestion[],
): Finding {
  const finding: Finding = { code, severity, field, message: MESSAGES[code](params, suggestions), params };
  if (suggestions && suggestions.length > 0) finding.suggestions = suggestions;
  return finding;
}
