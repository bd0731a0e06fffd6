/**
 * One conversion as the feed tells it, before either platform's format: the
 * order's outcome at a stage, who the customer is (hashed), what the browser
 * gave at checkout, and what was bought. Each platform's module turns it into
 * its own event (meta.ts, tiktok.ts). Pure.
 */
import type { HashedCustomer } from "./hashing";

/** The outcomes the feed can tell: the stage that counts, and the negative ones. */
export const FEED_STAGES = ["confirmed", "shipped", "delivered", "refused", "returned"] as const;
export type FeedStage = (typeof FEED_STAGES)[number];
/** The stages a merchant may count as the purchase. */
export const COUNTED_STAGES = ["confirmed", "shipped", "delivered"] as const satisfies readonly FeedStage[];
export type CountedStage = (typeof COUNTED_STAGES)[number];
export const NEGATIVE_STAGES = ["refused", "returned"] as const satisfies readonly FeedStage[];

export const AD_PLATFORMS = ["meta", "tiktok"] as const;
export type AdPlatform = (typeof AD_PLATFORMS)[number];

/**
 * How the counted stage is named: `custom` (CODConfirmed, CODShipped,
 * CODDelivered: never confused with Shopify's own checkout Purchase) or
 * `purchase` (the platform's purchase event, for a dataset or pixel of its own).
 * Negative outcomes are always custom events (CODRefused, CODReturned).
 */
export const EVENT_NAMINGS = ["custom", "purchase"] as const;
export type EventNaming = (typeof EVENT_NAMINGS)[number];

/** The custom events a stage is named by: data the ad platforms read, in no language. */
export const CUSTOM_NAMES: Record<FeedStage, string> = {
  confirmed: "CODConfirmed",
  shipped: "CODShipped",
  delivered: "CODDelivered",
  refused: "CODRefused",
  returned: "CODReturned",
};
/** Each platform's standard purchase event. */
const PURCHASE_NAMES: Record<AdPlatform, string> = { meta: "Purchase", tiktok: "CompletePayment" };

export function eventNameFor(
  platform: AdPlatform,
  stage: FeedStage,
  counted: CountedStage,
  naming: EventNaming,
): string {
  return stage === counted && naming === "purchase" ? PURCHASE_NAMES[platform] : CUSTOM_NAMES[stage];
}

/** Stable per order and stage: a resend is the same event, which both platforms deduplicate by it. */
export const eventIdFor = (orderId: string, stage: FeedStage): string => `cod-${orderId}-${stage}`;

/** Click ids the storefront's pixel captured at checkout, with the customer's consent. */
export interface ClickIds {
  fbp?: string | null;
  fbc?: string | null;
  ttclid?: string | null;
  ttp?: string | null;
}

export interface ConversionItem {
  /** SKU, else the variant or product id. */
  id: string;
  name?: string | null;
  quantity: number;
  /** Unit price. */
  price: number;
}

export interface Conversion {
  eventId: string;
  stage: FeedStage;
  /** When the order reached the stage (Unix seconds). */
  eventTime: number;
  customer: HashedCustomer;
  /** The buyer's browser at checkout (the order's client_details); absent for orders a form app created. */
  browser: { ip?: string | null; userAgent?: string | null };
  clicks: ClickIds;
  /** Where the order was placed (the checkout page, else the order's status page, else the store). */
  pageUrl: string;
  /** The order's value and its currency (MAD). */
  value: number;
  currency: string;
  orderId: string;
  items: ConversionItem[];
}

/** Placed in a browser the platforms can match: a website event; otherwise a conversion from elsewhere. */
export const cameFromBrowser = (c: Conversion): boolean => !!c.browser.userAgent;
