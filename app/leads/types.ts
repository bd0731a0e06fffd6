/**
 * The shapes the order-to-lead mapper works on. `ShopOrder` is our own view of a Shopify
 * order (the webhook JSON and the Admin GraphQL Order both adapt to it), so the rules
 * below never care where an order came from.
 */
import type { LeadInput } from "../seller-api/lead-input";

export interface Money {
  /** Decimal string as Shopify writes it ("149.00"). */
  amount: string;
  currencyCode: string;
}

export interface ShopAddress {
  firstName?: string;
  lastName?: string;
  name?: string;
  address1?: string;
  address2?: string;
  city?: string;
  province?: string;
  zip?: string;
  countryCode?: string;
  phone?: string;
}

export interface ShopLineItem {
  /** Numeric Shopify id as a string. */
  id: string;
  variantId?: string;
  productId?: string;
  sku?: string;
  name?: string;
  title?: string;
  variantTitle?: string;
  /** Quantity still ordered after edits (Shopify's current_quantity when present). */
  quantity: number;
  requiresShipping: boolean;
  giftCard: boolean;
}

export interface ShopOrder {
  /** Numeric Shopify order id as a string ("5551234567890"). */
  id: string;
  /** Order name as the merchant sees it ("#1001"). */
  name: string;
  createdAt?: string;
  email?: string;
  phone?: string;
  /** The shop's currency for this order. */
  currency?: string;
  presentmentCurrency?: string;
  /** Current total (after discounts, edits and refunds, shipping included) in shop money. */
  currentTotal?: Money;
  /** The same total in the currency the customer saw. */
  currentTotalPresentment?: Money;
  /** What is still to be paid, in shop money (used when the order is not plain pending). */
  totalOutstanding?: Money;
  /** Lower-case Shopify financial status: "pending", "paid", "authorized"... */
  financialStatus?: string;
  /** payment_gateway_names plus the deprecated gateway, as written. */
  paymentGatewayNames: string[];
  test: boolean;
  cancelledAt?: string;
  customer?: { firstName?: string; lastName?: string; phone?: string; email?: string };
  shippingAddress?: ShopAddress;
  billingAddress?: ShopAddress;
  lineItems: ShopLineItem[];
  /**
   * How many lines the order has, set only when over MAX_LINE_ITEMS: then
   * lineItems is empty (no line was read) and the order is held for it.
   */
  lineItemCount?: number;
  tags: string[];
  note?: string;
}

/** One element of GET /v1/products, as the client returns it. */
export interface CatalogueVariant {
  id?: number;
  sku?: string;
  name?: string;
  in_stock?: boolean;
}

export interface CatalogueProduct {
  id: number;
  sku: string;
  name: string;
  platform_price: string;
  in_stock: boolean;
  private?: boolean;
  variants: CatalogueVariant[];
}

/** One element of GET /v1/cities. */
export interface City {
  id: number;
  name: string;
  delivery_fee: string;
}

export type SkuMappingTarget = { sku: string; quantity: number } | { product_id: number; quantity: number };

/** A shop's rule: a Shopify variant id or SKU stands for one or several platform items. */
export interface SkuMappingRule {
  id?: string;
  sourceKind: "variant" | "sku";
  /** Variant id digits, or the SKU (normalised with `normalizeSku` when matching). */
  sourceKey: string;
  targets: SkuMappingTarget[];
  label?: string | null;
}

/** A shop's own spelling of a delivered city; `alias` is matched after normalisation. */
export interface CityAliasRule {
  id?: string;
  alias: string;
  cityId: number;
  source?: "manual" | "learned";
}

/** A lead the shop sent recently, for the possible-duplicate warning. */
export interface RecentLead {
  /** Normalised 06/07 phone. */
  phone: string;
  /** `productKeys` of the mapping result that produced it. */
  productKeys: readonly string[];
  createdAt: Date;
  /** Shopify order id, so an order is never its own duplicate. */
  orderId: string;
  orderName?: string;
}

export type RecentLeadsSource = readonly RecentLead[] | ((phone: string) => readonly RecentLead[]);

export type HoldChoice = "hold" | "send";

/** Findings whose consequence the shop chooses; the others are fixed (see settings.ts). */
export type ConfigurableFindingCode =
  | "city_missing"
  | "city_unmatched"
  | "city_fuzzy"
  | "city_from_address"
  | "sku_missing"
  | "sku_unmatched"
  | "item_out_of_stock"
  | "currency_not_mad"
  | "total_below_cost"
  | "possible_duplicate"
  | "phone_unverified"
  | "name_missing";

export type HoldPolicy = Record<ConfigurableFindingCode, HoldChoice>;

export interface MappingSettings {
  /** Payment gateway names (or phrases inside them) that mean cash on delivery. */
  codGatewayPatterns: string[];
  /** Send every order, not only cash-on-delivery ones. */
  sendAllOrders: boolean;
  /** Send Shopify test orders (a merchant trying the app on a development store). */
  sendTestOrders: boolean;
  holdPolicy: HoldPolicy;
  duplicateWindowMinutes: number;
  /** Used when the order does not say its currency. */
  shopCurrency?: string;
  /** Fuzzy city score (0..1) from which a misspelt city is accepted with a warning. */
  cityFuzzyThreshold: number;
  /** A catalogue or city list older than this is refreshed before a miss is trusted. */
  referenceMaxAgeMinutes: number;
}

export interface MappingContext {
  /** The mapper never reads the clock. */
  now: Date;
  catalogue: readonly CatalogueProduct[];
  cities: readonly City[];
  skuMappings?: readonly SkuMappingRule[];
  cityAliases?: readonly CityAliasRule[];
  recentLeads?: RecentLeadsSource;
  catalogueFetchedAt?: Date;
  citiesFetchedAt?: Date;
  settings?: Partial<Omit<MappingSettings, "holdPolicy">> & { holdPolicy?: Partial<HoldPolicy> };
}

/** Every finding: the configurable ones and those whose consequence is fixed. */
export type FindingCode =
  | ConfigurableFindingCode
  | "not_cod"
  | "test_order"
  | "cancelled"
  | "no_shippable_items"
  | "too_many_items"
  | "phone_missing"
  | "phone_invalid"
  | "phone_landline"
  | "phone_foreign"
  | "total_invalid";

export type FindingParams = Record<string, string | number | boolean | null>;

/**
 * certain: proven by a rule (the same SKU family, the same name in another spelling or
 * script, a spelling the merchant confirmed): the one-click fix. likely: a choice the
 * merchant judges. Findings stored before this field existed carry neither: read them
 * as likely.
 */
export type SuggestionConfidence = "certain" | "likely";

/**
 * Why an item is proposed, said beside it so the merchant can judge it. Products: confirmed
 * (a SKU already mapped, written another way), sku (the platform's SKU restated, or with one of
 * its variant's colour or size after it), name (the platform's name word for word, in another spelling
 * or language), sku_family (the SKU starts as the platform's), shared_words (the names share
 * what names the product). Cities: confirmed (sounds like a spelling the merchant confirmed),
 * sound (sounds like the city's name), spelling (a few letters off), in_field (a misspelt city
 * among other words), consonants (the field typed without vowels). Findings stored before this
 * field existed carry none: nothing is said.
 */
export const PRODUCT_REASONS = ["confirmed", "sku", "name", "sku_family", "shared_words"] as const;
export const CITY_REASONS = ["confirmed", "sound", "spelling", "in_field", "consonants"] as const;
export type ProductReason = (typeof PRODUCT_REASONS)[number];
export type CityReason = (typeof CITY_REASONS)[number];

export interface CitySuggestion {
  kind: "city";
  cityId: number;
  name: string;
  /** 0..1, two decimals. */
  score: number;
  confidence?: SuggestionConfidence;
  why?: CityReason;
}

export interface ProductSuggestion {
  kind: "product";
  productId: number;
  sku: string;
  name: string;
  score: number;
  confidence?: SuggestionConfidence;
  why?: ProductReason;
}

export type Suggestion = CitySuggestion | ProductSuggestion;

export interface Finding {
  /** Stable identifier; the UI translates from it and `params`. */
  code: FindingCode;
  /** blocking: the lead is held (or the order skipped); warning: sent anyway. */
  severity: "blocking" | "warning";
  /** Lead field concerned ("customer_phone", "city", "items", "total_client", "order"...). */
  field: string;
  /** Plain English for the merchant. */
  message: string;
  params: FindingParams;
  suggestions?: Suggestion[];
}

export type Decision = "send" | "hold" | "skip";

export interface MappingResult {
  decision: Decision;
  /** Present whenever a lead the platform would accept (no 422) could be built. */
  lead?: LeadInput;
  /**
   * The amount to collect in MAD ("229.00"), whenever the order has one, lead or not: what
   * is at stake while the order waits for the merchant.
   */
  totalClient?: string;
  findings: Finding[];
  /**
   * Reference lists that were too old to trust a miss: refresh them and map again before
   * acting on the decision.
   */
  needsRefresh: ("catalogue" | "cities")[];
  /** Keys of the platform products in the lead, to store for later duplicate checks. */
  productKeys: string[];
  /** The normalised phone, when one was found. */
  phone?: string;
  /** The matched city, when one was found. */
  city?: { id: number; name: string; score: number; via: CityMatchVia };
}

/**
 * How a city was read: a spelling we know (name, alias, district, shop_alias); a misspelling
 * proven by the certain rules (sound: close in spelling and sounding like that city alone, or like
 * a spelling the merchant confirmed); or fuzzy, close in spelling only, which proves nothing.
 */
export type CityMatchVia = "name" | "alias" | "district" | "shop_alias" | "sound" | "fuzzy";
