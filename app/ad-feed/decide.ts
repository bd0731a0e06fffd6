/**
 * What becomes of one outcome waiting to be told: sent, or recorded as too late
 * (over 7 days old: Meta refuses a whole batch holding one such event), as
 * without consent (the buyer declined marketing, or no consent signal came and
 * the merchant asked for consent), or as erased (the customer's data was
 * erased). Pure: the clock is passed in.
 */
import { eventIdFor, hashCustomer, type ClickIds, type Conversion, type FeedStage } from "../ad-platforms";
import type { OrderFacts } from "./order-facts";

/** The platforms refuse an event_time more than 7 days old; ten minutes of margin for the trip and clocks. */
export const MAX_EVENT_AGE_MS = 7 * 24 * 3600_000 - 10 * 60_000;

/** The storefront's word for an order (the conversion pixel): consent, and click ids when allowed. */
export interface ConsentSignal {
  /** The checkout the pixel saw. */
  checkoutToken: string | null;
  marketing: boolean;
  clicks: ClickIds;
  pageUrl: string | null;
}

export interface PendingOutcome {
  orderId: string;
  orderName: string;
  stage: FeedStage;
  occurredAt: Date;
  /** The order's value to tell (the amount to collect), in `currency`. */
  value: number;
}

export type Decision =
  | { kind: "send"; conversion: Conversion; fromCustomerDataOnly: boolean }
  | { kind: "too_late" }
  | { kind: "no_consent" }
  | { kind: "erased" };

export function decide(
  outcome: PendingOutcome,
  facts: OrderFacts | null,
  signal: ConsentSignal | null,
  options: { withoutConsentSignal: boolean; nowMs: number; storeUrl: string },
): Decision {
  if (!facts) return { kind: "erased" };
  if (options.nowMs - outcome.occurredAt.getTime() > MAX_EVENT_AGE_MS) return { kind: "too_late" };
  // A message for another checkout than the order's is not this order's (anyone can post to the pixel's address).
  if (signal && facts.checkoutToken && signal.checkoutToken !== facts.checkoutToken) signal = null;
  if (signal ? !signal.marketing : !options.withoutConsentSignal) return { kind: "no_consent" };
  const clicks = signal?.clicks ?? {};
  return {
    kind: "send",
    fromCustomerDataOnly: !facts.fromCheckout && !signal,
    conversion: {
      eventId: eventIdFor(outcome.orderId, outcome.stage),
      stage: outcome.stage,
      eventTime: Math.floor(outcome.occurredAt.getTime() / 1000),
      customer: hashCustomer(facts.customer),
      browser: facts.browser,
      clicks,
      pageUrl: signal?.pageUrl ?? facts.statusUrl ?? options.storeUrl,
      value: outcome.value,
      currency: "MAD",
      orderId: outcome.orderName,
      items: facts.items,
    },
  };
}
