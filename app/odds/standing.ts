/**
 * What an order's delivery odds can still say. The expected value of sending holds only
 * while sending or delivering it can still pay: an order cancelled or refunded in Shopify
 * whose lead goes on has nothing to gain (its parcel should be stopped, and a return costs
 * its delivery fee out and back); one cancelled before it was sent will not be sent; one
 * whose lead reached its outcome is settled (the odds were an estimate made before sending).
 * Pure.
 */
import { bucketOf, statusGroupOf, type SentBucket } from "../vocabulary/status-groups";

export interface OddsStandingInput {
  state: string;
  confirmationStatus: string | null;
  shippingStatus: string | null;
  /** Cancelled in Shopify. */
  cancelled: boolean;
  /** Refunded in Shopify after its lead was sent (OrderLink.mismatch "refunded"). */
  refunded?: boolean;
}

export type SettledBucket = Extract<
  SentBucket,
  "delivered" | "returned" | "call_cancelled" | "rejected" | "parcel_cancelled"
>;
const SETTLED: readonly SentBucket[] = ["delivered", "returned", "call_cancelled", "rejected", "parcel_cancelled"];

export type OddsStanding =
  /** Before or on its way: the odds and the expected value stand. */
  | { kind: "open" }
  /** Cancelled or refunded in Shopify while its lead goes on: stop it; shipped: its parcel already left. */
  | { kind: "stop"; why: "cancelled" | "refunded"; shipped: boolean }
  /** Cancelled in Shopify before it was sent: it will not be sent. */
  | { kind: "cancelled" }
  /** The lead reached its outcome. */
  | { kind: "settled"; outcome: SettledBucket };

export function oddsStandingOf(input: OddsStandingInput): OddsStanding {
  const group = statusGroupOf(input);
  const bucket = group === null ? null : bucketOf(group);
  if (bucket && SETTLED.includes(bucket)) return { kind: "settled", outcome: bucket as SettledBucket };
  if (bucket && (input.cancelled || input.refunded))
    return { kind: "stop", why: input.cancelled ? "cancelled" : "refunded", shipped: bucket === "in_transit" };
  if (input.cancelled) return { kind: "cancelled" };
  return { kind: "open" };
}

/**
 * What a parcel sent out and back costs the merchant: the platform's delivery fee each way
 * and, when Settings has it, the merchant's own cost of a failed order (packing, the call,
 * the product's wear), which Settings adds to the fee out and back, as the expected value does.
 */
export interface StopCost {
  /** The city's delivery fee, each way; null when unknown. */
  feeCents: number | null;
  /** The merchant's own cost of a failed order; null when not set (0). */
  ownCents: number | null;
  /** Out and back plus the merchant's own cost; null while the fee is unknown. */
  totalCents: number | null;
}

export function stopCostOf(deliveryFeeCents: number | null, refusalCostCents: number): StopCost {
  const ownCents = refusalCostCents > 0 ? refusalCostCents : null;
  return {
    feeCents: deliveryFeeCents,
    ownCents,
    totalCents: deliveryFeeCents === null ? null : 2 * deliveryFeeCents + (ownCents ?? 0),
  };
}
