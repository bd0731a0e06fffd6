/**
 * The one next action an order asks of the merchant, chosen by its state: fix
 * what holds it, send it, send it anyway, retry, decide about a duplicate,
 * correct the lead in the platform's seller space, wait, or nothing. Pure: the
 * order page, the Orders list and the order-page extensions agree through it.
 *
 * The Seller Order API can neither edit nor cancel a lead: whatever changes a
 * lead already on the platform is done in the seller space, and sending an
 * order again while its lead exists makes a second lead.
 */
import { ANOMALY_CODES, isKnownAnomaly } from "./anomaly-codes";
import { isLinkState } from "./order-link-state";
import { costsMoney } from "./mismatch";
import { STALE_REASON_PREFIX } from "./stale-order";
import { isCallClosed } from "../vocabulary/platform-status";

/** Flag on a link whose duplicate warning the merchant answered with "keep both". */
export const FLAG_DUPLICATE_KEPT = "duplicate_kept";

export const NEXT_ACTIONS = [
  "fix",
  "send",
  "sendAnyway",
  /** Placed longer ago than the shop's limit: send it knowingly, or leave it. */
  "sendStale",
  /**
   * Sent, then cancelled, refunded or edited in Shopify while its lead goes on: stop or
   * correct the lead in the platform's seller space (the API cannot), then say it is settled.
   */
  "stopLead",
  "retry",
  "fixRefusal",
  "decideDuplicate",
  "sellerSpace",
  "wait",
  "none",
] as const;
export type NextActionKind = (typeof NEXT_ACTIONS)[number];

export interface NextActionInput {
  state: string;
  /** Cancelled in Shopify. */
  cancelled: boolean;
  /** The lead's reference, when one exists on the platform. */
  leadRef: string | null;
  /** Codes of the findings that block sending. */
  blocking: readonly string[];
  /** The platform's anomaly codes on a damaged lead. */
  anomalies: readonly string[];
  /** Held by the customer hold (the customer's record), not by a finding. */
  heldByCustomer: boolean;
  /** The call's status: a lead cancelled on the call needs nothing more. */
  confirmationStatus?: string | null;
  /** The merchant kept a flagged duplicate as a real order. */
  duplicateKept?: boolean;
  /** The stored reason (English): a stale hold says so. */
  reason?: string | null;
  /** Shopify and the platform disagree about the sent order (OrderLink.mismatch). */
  mismatch?: string | null;
  /** The lead reached a final status. */
  statusFinal?: boolean;
}

export interface NextAction {
  kind: NextActionKind;
  /** The order may be sent (again) at all: not in flight, not cancelled. */
  canResend: boolean;
  /** Sending again makes a second lead on the platform: only behind a confirmation that says so. */
  secondLead: boolean;
}

export function nextActionOf(input: NextActionInput): NextAction {
  const state = isLinkState(input.state) ? input.state : "received";
  const hasLead = input.leadRef !== null && (state === "created" || state === "damaged");
  const canResend = !input.cancelled && state !== "posting" && state !== "cancelled";
  const action = (kind: NextActionKind): NextAction => ({ kind, canResend, secondLead: canResend && hasLead });
  if (state === "cancelled") return action("none");
  if (costsMoney({ state, mismatch: input.mismatch, statusFinal: input.statusFinal })) return action("stopLead");
  if (input.cancelled) {
    // Cancelled in Shopify while its lead lives on: only the seller space can cancel the lead.
    return action(hasLead && !isCallClosed(input.confirmationStatus) ? "sellerSpace" : "none");
  }
  switch (state) {
    case "held":
      if (input.heldByCustomer) return action("sendAnyway");
      if (input.blocking.length > 0) return action("fix");
      return action((input.reason ?? "").startsWith(STALE_REASON_PREFIX) ? "sendStale" : "send");
    case "received":
    case "posting":
    case "retrying":
      return action("wait");
    case "invalid":
      return action("fixRefusal");
    case "failed":
      return action("retry");
    case "damaged": {
      const known = input.anomalies.filter(isKnownAnomaly);
      if (known.some((code) => ANOMALY_CODES[code].fix === "decideDuplicate"))
        return action(input.duplicateKept ? "none" : "decideDuplicate");
      return action(input.anomalies.length > 0 ? "sellerSpace" : "none");
    }
    default:
      return action("none");
  }
}
