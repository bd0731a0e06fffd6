/**
 * Every anomaly code the platform reports on a lead it created (a 202 answer),
 * with what the app does with it. Adding a code is one entry here plus its two
 * strings in each catalogue (`code.<code>` and `anomaly.<code>` in app/i18n's
 * orders catalogues, `anomaly.<code>` in the order-page extension's locales);
 * test/models/anomaly-codes.test.ts checks that every page, the extension and
 * every catalogue handles each one. A code not listed is shown as the platform
 * worded it. Pure: the order-page extension bundles it too.
 */

/** The problem family the Orders page filters on. */
export type IssueFamily = "sku" | "stock" | "city" | "phone" | "total" | "duplicate";

/**
 * What the merchant does about a damaged lead. The platform waits for a
 * correction in its seller space (the API can neither edit nor cancel a lead):
 * - mapProduct / learnCity: fix the cause in the app for the next orders (the
 *   same fix as the mapper's finding), then correct this lead in the seller space;
 * - correctInSellerSpace: nothing in the app fixes it; correct the lead there;
 * - decideDuplicate: keep both leads, or cancel this order in Shopify (and its
 *   lead in the seller space).
 */
export type AnomalyFix = "mapProduct" | "learnCity" | "correctInSellerSpace" | "decideDuplicate";

export interface AnomalyCodeInfo {
  /** Which Orders filter finds it. */
  issue: IssueFamily;
  /** Sending the order again (a second lead, behind a confirmation) can clear it once the merchant fixed its cause. */
  resendable: boolean;
  /** The mapper's finding family that names the same cause: one Anomalies group holds both. */
  sameCauseAs?: "sku" | "city";
  /** The lead field the platform flagged. */
  field: "items" | "city" | "total_client" | "customer_phone";
  fix: AnomalyFix;
}

export const ANOMALY_CODES = {
  unknown_sku: { issue: "sku", resendable: true, sameCauseAs: "sku", field: "items", fix: "mapProduct" },
  unknown_city: { issue: "city", resendable: true, sameCauseAs: "city", field: "city", fix: "learnCity" },
  inconsistent_total: { issue: "total", resendable: true, field: "total_client", fix: "correctInSellerSpace" },
  recent_duplicate: { issue: "duplicate", resendable: false, field: "customer_phone", fix: "decideDuplicate" },
} as const satisfies Record<string, AnomalyCodeInfo>;

export type AnomalyCode = keyof typeof ANOMALY_CODES;
export const ANOMALY_CODE_LIST = Object.keys(ANOMALY_CODES) as AnomalyCode[];

export function isKnownAnomaly(code: string): code is AnomalyCode {
  return Object.prototype.hasOwnProperty.call(ANOMALY_CODES, code);
}

/** How a damaged lead with these anomaly codes is fixed: the duplicate decision first, then the first code's fix. */
export function anomalyFixOf(codes: readonly string[]): AnomalyFix | null {
  const known = codes.filter(isKnownAnomaly);
  if (known.some((code) => ANOMALY_CODES[code].fix === "decideDuplicate")) return "decideDuplicate";
  return known.length > 0 ? ANOMALY_CODES[known[0]].fix : codes.length > 0 ? "correctInSellerSpace" : null;
}

/** The known codes of one Orders filter. */
export function anomalyCodesOf(issue: IssueFamily): AnomalyCode[] {
  return ANOMALY_CODE_LIST.filter((code) => ANOMALY_CODES[code].issue === issue);
}
