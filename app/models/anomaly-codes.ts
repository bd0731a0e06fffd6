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

export interface AnomalyCodeInfo {
  /** Which Orders filter finds it. */
  issue: IssueFamily;
  /** Sending the order again can clear it once the merchant fixed its cause. */
  resendable: boolean;
  /** The mapper's finding family that names the same cause: one Anomalies group holds both. */
  sameCauseAs?: "sku" | "city";
}

export const ANOMALY_CODES = {
  unknown_sku: { issue: "sku", resendable: true, sameCauseAs: "sku" },
  unknown_city: { issue: "city", resendable: true, sameCauseAs: "city" },
  inconsistent_total: { issue: "total", resendable: true },
  recent_duplicate: { issue: "duplicate", resendable: false },
} as const satisfies Record<string, AnomalyCodeInfo>;

export type AnomalyCode = keyof typeof ANOMALY_CODES;
export const ANOMALY_CODE_LIST = Object.keys(ANOMALY_CODES) as AnomalyCode[];

export function isKnownAnomaly(code: string): code is AnomalyCode {
  return Object.prototype.hasOwnProperty.call(ANOMALY_CODES, code);
}

/** The known codes of one Orders filter. */
export function anomalyCodesOf(issue: IssueFamily): AnomalyCode[] {
  return ANOMALY_CODE_LIST.filter((code) => ANOMALY_CODES[code].issue === issue);
}
