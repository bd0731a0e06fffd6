/**
 * Why an order got its odds: its largest contributions, as data (stored with
 * the score) and as sentences of the i18n catalogue, in the merchant's words
 * ("Refused or returned 2 earlier orders", "Casablanca: 58 % delivered in your
 * shop"). Pure.
 */
import { msg, type MessageRef } from "../i18n/message-ref";
import type { MessageKey } from "../i18n";
import { FEATURES, rateOffset, smoothedRate, type Feature, type OrderFacts } from "./features";
import type { OddsModel, OddsScore } from "./model";

export interface OddsReason {
  feature: Feature;
  /** The contribution to the log-odds, rounded: below 0 it lowers the odds. */
  effect: number;
  params: Record<string, string | number>;
}

/** Contributions smaller than this are left out (about 2.5 points of probability at even odds). */
export const MIN_REASON_EFFECT = 0.1;
export const MAX_REASONS = 4;

/** Names the reasons show: the city's and a product's (the caller resolves them from the platform's lists). */
export interface ReasonNames {
  city?: string | null;
  product?: (key: string) => string | null;
}

const percent = (p: number) => Math.round(p * 100);
/** "149.00" from 14900 (the platform's decimal format). */
const decimalOf = (cents: number) => (Math.round(cents) / 100).toFixed(2);

function paramsOf(
  feature: Feature,
  facts: OrderFacts,
  model: OddsModel,
  effect: number,
  names: ReasonNames,
): Record<string, string | number> {
  const c = facts.customer;
  const shop = model.context.shopRate;
  switch (feature) {
    case "customer_delivered":
      return { count: c?.delivered ?? 0 };
    case "customer_failed":
      return { count: c?.failed ?? 0 };
    case "wrong_number":
      return { count: c?.wrongNumber ?? 0 };
    case "recent_orders":
      return { count: c?.recentOrders ?? 0 };
    case "quantity":
      return { count: facts.quantity };
    case "city": {
      const counts = facts.cityId === null ? undefined : model.context.cities.get(facts.cityId);
      return {
        city: names.city ?? String(facts.cityId ?? ""),
        rate: percent(smoothedRate(counts, shop)),
        shopRate: percent(shop),
      };
    }
    case "product": {
      // The product that pulls most in the direction of the whole contribution.
      const pick = [...facts.productKeys].sort(
        (a, b) =>
          Math.sign(effect) *
          (rateOffset(model.context.products.get(b), shop) - rateOffset(model.context.products.get(a), shop)),
      )[0];
      return {
        product: names.product?.(pick) ?? pick,
        rate: percent(smoothedRate(model.context.products.get(pick), shop)),
        shopRate: percent(shop),
      };
    }
    case "amount":
      return {
        amount: decimalOf(facts.amountCents ?? 0),
        usual: decimalOf(model.context.medianAmountCents ?? 0),
      };
    default:
      return {};
  }
}

/** The largest contributions (at least MIN_REASON_EFFECT), largest first. */
export function oddsReasons(
  model: OddsModel,
  facts: OrderFacts,
  score: OddsScore,
  names: ReasonNames = {},
  limit = MAX_REASONS,
): OddsReason[] {
  return FEATURES.map((feature, j) => ({ feature, effect: score.contributions[j] }))
    .filter((r) => Math.abs(r.effect) >= MIN_REASON_EFFECT)
    .sort((a, b) => Math.abs(b.effect) - Math.abs(a.effect) || (a.feature < b.feature ? -1 : 1))
    .slice(0, limit)
    .map(({ feature, effect }) => ({
      feature,
      effect: Math.round(effect * 100) / 100,
      params: paramsOf(feature, facts, model, effect, names),
    }));
}

const REASON_KEYS: Record<Feature, MessageKey> = {
  customer_delivered: "odds.reason.customer_delivered",
  customer_failed: "odds.reason.customer_failed",
  wrong_number: "odds.reason.wrong_number",
  first_order: "odds.reason.first_order",
  recent_orders: "odds.reason.recent_orders",
  city: "odds.reason.city",
  product: "odds.reason.product",
  amount: "odds.reason.amount",
  quantity: "odds.reason.quantity",
  address: "odds.reason.address",
};

/** The reason as a sentence of the catalogue (amounts written in the reader's money format). */
export function oddsReasonRef(reason: OddsReason): MessageRef {
  const params: Record<string, string | number | { money: string }> = { ...reason.params };
  if (reason.feature === "amount") {
    params.amount = { money: String(reason.params.amount) };
    params.usual = { money: String(reason.params.usual) };
  }
  return msg(REASON_KEYS[reason.feature], params);
}

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

/** Stored reasons read back; anything unreadable is left out. */
export function parseOddsReasons(value: unknown): OddsReason[] {
  if (!Array.isArray(value)) return [];
  return value.flatMap((item) => {
    if (!isRecord(item) || !(FEATURES as readonly unknown[]).includes(item.feature)) return [];
    if (typeof item.effect !== "number" || !Number.isFinite(item.effect)) return [];
    const params: Record<string, string | number> = {};
    if (isRecord(item.params))
      for (const [k, v] of Object.entries(item.params))
        if (typeof v === "string" || (typeof v === "number" && Number.isFinite(v))) params[k] = v;
    return [{ feature: item.feature as Feature, effect: item.effect, params }];
  });
}
