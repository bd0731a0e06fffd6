/**
 * Why an order waits for the merchant, as one cause per order: the vocabulary
 * of Home's to-do inbox, the Orders list's "needs attention" column and the
 * Anomalies page's sections. Pure; Home counts the same causes in SQL
 * (attentionCauseSql) so the inbox never reads the orders one by one.
 */
import type { FindingCode } from "../leads/types";
import { ANOMALY_CODES, isKnownAnomaly } from "./anomaly-codes";
import { FLAG_DUPLICATE_KEPT } from "./next-action";
import { STALE_REASON_PREFIX } from "./stale-order";
import { costsMoney } from "./mismatch";

export const CAUSES = [
  /**
   * Sent, then cancelled, refunded or edited in Shopify while its lead goes on: the parcel
   * ships (and costs delivery and return) unless the lead is stopped in the seller space.
   */
  "mismatch",
  /** Held by the customer hold: a risky customer to call, then send anyway or not. */
  "customer",
  /** A product the platform does not know (or out of stock): map it. */
  "product",
  /** A city the platform does not recognise: learn the spelling. */
  "city",
  /** No usable Moroccan mobile: correct it for the order. */
  "phone",
  /** Another blocking finding (amount, currency, size, possible duplicate...). */
  "other",
  /** Placed longer ago than the shop's limit: sent only with the merchant's word. */
  "stale",
  /** Held without any finding: automatic sending is off, or the app waits for its key. */
  "ready",
  /** Refused by the platform (422): fix the field it named. */
  "refused",
  /** Sending failed after every retry. */
  "failed",
  /** The platform flagged a recent duplicate: keep both, or cancel this one. */
  "duplicate",
  /** The platform stored the lead with another anomaly: correct it in the seller space. */
  "flagged",
] as const;
export type Cause = (typeof CAUSES)[number];

/** Finding codes by the cause they make when they block, in the order a held order is classified. */
export const FINDING_CAUSES: readonly (readonly [
  Exclude<Cause, "mismatch" | "customer" | "stale" | "ready" | "refused" | "failed" | "duplicate" | "flagged">,
  readonly FindingCode[],
])[] = [
  ["product", ["sku_unmatched", "sku_missing", "item_out_of_stock"]],
  ["city", ["city_unmatched", "city_missing", "city_fuzzy", "city_from_address"]],
  ["phone", ["phone_missing", "phone_invalid", "phone_landline", "phone_foreign", "phone_unverified"]],
];

/** The link states whose orders wait for the merchant. */
export const WAITING_STATES = ["held", "invalid", "failed", "damaged"] as const;

export interface CauseInput {
  state: string;
  /** The stored reason (English): a stale hold says so (models/stale-order.ts). */
  reason?: string | null;
  /** Shopify and the platform disagree about the sent order (OrderLink.mismatch). */
  mismatch?: string | null;
  /** The lead reached a final status: a disagreement no longer costs anything. */
  statusFinal?: boolean;
  /** Codes of the blocking findings, in stored order. */
  blocking: readonly string[];
  anomalies: readonly string[];
  heldByCustomer: boolean;
  /** The merchant kept a flagged duplicate as a real order: it waits for nobody. */
  duplicateKept?: boolean;
}

/** What attentionCauseSql says of an order that waits for nobody (a kept duplicate). */
export const NO_CAUSE = "none";

/** The cause of a waiting order; null for an order that waits for nobody. */
export function causeOf(link: CauseInput): Cause | null {
  if (costsMoney(link)) return "mismatch";
  switch (link.state) {
    case "held": {
      if (link.heldByCustomer) return "customer";
      for (const [cause, codes] of FINDING_CAUSES)
        if (link.blocking.some((code) => (codes as readonly string[]).includes(code))) return cause;
      if (link.blocking.length > 0) return "other";
      return readyReasonOf(link.reason ?? null) === "stale" ? "stale" : "ready";
    }
    case "invalid":
      return "refused";
    case "failed":
      return "failed";
    case "damaged": {
      const duplicate = link.anomalies.some(
        (code) => isKnownAnomaly(code) && ANOMALY_CODES[code].fix === "decideDuplicate",
      );
      if (duplicate && link.duplicateKept) return null;
      return duplicate ? "duplicate" : "flagged";
    }
    default:
      return null;
  }
}

/**
 * causeOf as a SQL CASE over one OrderLink row (quoted identifiers: PostgreSQL
 * folds unquoted ones), for the states held, invalid, failed and damaged. Held
 * orders without a blocking finding come out as "stale" when their reason says so, else
 * "ready": the customer hold is recorded on the timeline, which the caller reads for those
 * few orders. A kept duplicate comes out as NO_CAUSE. Sent orders that cost money
 * ("mismatch") are counted apart, through the (shop, mismatch) index.
 * Findings are JSON written by the mapper, code then severity: `"code":"x","severity":"blocking"`.
 */
export function attentionCauseSql(): string {
  const blocking = (code: string) => `"findings" LIKE '%"code":"${code}","severity":"blocking"%'`;
  const held = FINDING_CAUSES.map(([cause, codes]) => `WHEN ${codes.map(blocking).join(" OR ")} THEN '${cause}'`).join(
    " ",
  );
  const duplicates = Object.entries(ANOMALY_CODES)
    .filter(([, info]) => info.fix === "decideDuplicate")
    .map(([code]) => `"anomalies" LIKE '%"code":"${code}"%'`)
    .join(" OR ");
  return `CASE "state"
    WHEN 'invalid' THEN 'refused'
    WHEN 'failed' THEN 'failed'
    WHEN 'damaged' THEN CASE WHEN ${duplicates} THEN (CASE WHEN "flags" LIKE '%"${FLAG_DUPLICATE_KEPT}"%' THEN '${NO_CAUSE}' ELSE 'duplicate' END) ELSE 'flagged' END
    ELSE CASE ${held} WHEN "findings" LIKE '%"severity":"blocking"%' THEN 'other' WHEN "reason" LIKE '${STALE_REASON_PREFIX}%' THEN 'stale' ELSE 'ready' END
  END`;
}

/**
 * Why an order held without a finding waits: automatic sending off, no key yet, the app
 * uninstalled, or placed longer ago than the shop's limit.
 */
export type ReadyReason = "autoSendOff" | "waitingForKey" | "notInstalled" | "stale" | "other";

/** The stored (English) reason of an order held without a finding, as a code: the pipeline writes these texts. */
export function readyReasonOf(reason: string | null): ReadyReason {
  if (!reason) return "other";
  if (reason.startsWith(STALE_REASON_PREFIX)) return "stale";
  if (reason.startsWith("Automatic sending is off")) return "autoSendOff";
  if (reason.startsWith("Waiting")) return "waitingForKey";
  if (reason.startsWith("The app is not installed")) return "notInstalled";
  return "other";
}
