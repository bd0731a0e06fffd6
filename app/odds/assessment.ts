/**
 * An order's delivery odds as Shopify's risk card shows them
 * (orderRiskAssessmentCreate): the level and up to MAX_FACTS facts, each a
 * sentence with its sentiment: the odds against the shop's own rate, the
 * expected value of sending, the hold when there is one (or the merchant's release of it), then the reasons.
 * English, as the app writes for readers without a locale (Flow, Shopify).
 * `assessmentKey` names its content, so an assessment is written once per
 * change. Pure.
 */
import { english, t, type MessageKey, type MessageParams } from "../i18n";
import { createFormatter } from "../i18n/format";
import { FORMATS } from "../i18n/formats";
import { renderMessage } from "../i18n/message-ref";
import { MEDIUM_RISK_GAP, type OddsRiskLevel } from "./decision";
import { oddsReasonRef, type OddsReason } from "./explain";
import type { OddsStanding, StopCost } from "./standing";

/** What was stored of an order's score (OrderOdds). */
export interface StoredOdds {
  probability: number;
  valueCents: number | null;
  marginCents: number | null;
  lossCents: number | null;
  level: OddsRiskLevel;
  held: boolean;
  /** The merchant released it from its odds' hold. */
  released?: boolean;
  reasons: OddsReason[];
  /** The shop's delivery rate the score was read against (0 to 1). */
  shopRate: number;
  /** The hold's words, when the policy held it (rendered by the caller: app/customers knows the hold reason). */
  holdText?: string | null;
}

export type FactSentiment = "POSITIVE" | "NEUTRAL" | "NEGATIVE";
export interface RiskFact {
  description: string;
  sentiment: FactSentiment;
}

/** Facts the app writes at most (Shopify refuses more than 20). */
export const MAX_FACTS = 10;

const context = {
  t: (key: MessageKey, params?: MessageParams) => t("en", key, params),
  format: createFormatter(FORMATS.en),
};
const money = (cents: number) => context.format.money(cents);
const percent = (p: number) => Math.round(p * 100);

export function riskFacts(odds: StoredOdds): RiskFact[] {
  const gap = odds.probability - odds.shopRate;
  const facts: RiskFact[] = [
    {
      description: english({
        key: "odds.fact.probability",
        params: { probability: percent(odds.probability), shopRate: percent(odds.shopRate) },
      }),
      sentiment: gap <= -MEDIUM_RISK_GAP ? "NEGATIVE" : gap >= 0 ? "POSITIVE" : "NEUTRAL",
    },
    odds.valueCents === null || odds.marginCents === null || odds.lossCents === null
      ? { description: english({ key: "odds.fact.valueUnknown" }), sentiment: "NEUTRAL" }
      : {
          description: context.t("odds.fact.value", {
            value: (odds.valueCents >= 0 ? "+" : "-") + money(Math.abs(odds.valueCents)),
            margin: money(odds.marginCents),
            loss: money(odds.lossCents),
          }),
          sentiment: odds.valueCents < 0 ? "NEGATIVE" : "POSITIVE",
        },
  ];
  if (odds.held && odds.holdText) facts.push({ description: odds.holdText, sentiment: "NEGATIVE" });
  // The odds are unchanged by it: a neutral fact in the hold's place.
  else if (odds.released) facts.push({ description: english({ key: "odds.fact.released" }), sentiment: "NEUTRAL" });
  for (const reason of odds.reasons)
    facts.push({
      description: renderMessage(oddsReasonRef(reason), context),
      sentiment: reason.effect < 0 ? "NEGATIVE" : "POSITIVE",
    });
  return facts.slice(0, MAX_FACTS).map((f) => ({ ...f, description: f.description.slice(0, 256) }));
}

/**
 * The facts of an order with nothing left to gain (cancelled or refunded in Shopify while its
 * lead goes on, or cancelled before it was sent), written at Shopify's level NONE ("no
 * recommendation"): a fraud level would mean nothing for it, and its earlier LOW read "accept".
 */
export function nothingToGainFacts(
  standing: Extract<OddsStanding, { kind: "stop" | "cancelled" }>,
  cost: StopCost,
): RiskFact[] {
  if (standing.kind === "cancelled")
    return [{ description: english({ key: "odds.fact.cancelled" }), sentiment: "NEUTRAL" }];
  return [
    { description: english({ key: `odds.fact.stop.${standing.why}` }), sentiment: "NEGATIVE" },
    { description: stopCostFact(cost), sentiment: "NEGATIVE" },
  ];
}

/** What a parcel out and back costs, the merchant's own cost of a failed order named when set. */
function stopCostFact({ feeCents, ownCents, totalCents }: StopCost): string {
  if (feeCents === null || totalCents === null)
    return ownCents === null
      ? english({ key: "odds.fact.stopCostUnknown" })
      : context.t("odds.fact.stopCostUnknown.own", { own: money(ownCents) });
  const params = { cost: money(totalCents), fee: money(feeCents) };
  return ownCents === null
    ? context.t("odds.fact.stopCost", params)
    : context.t("odds.fact.stopCost.own", { ...params, own: money(ownCents) });
}

/** A short stable name of an assessment's content (FNV-1a of its JSON): equal when nothing changed. */
export function assessmentKey(level: OddsRiskLevel | "NONE", facts: readonly RiskFact[]): string {
  const text = JSON.stringify([level, facts]);
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return `${level}:${facts.length}:${hash.toString(16).padStart(8, "0")}`;
}
