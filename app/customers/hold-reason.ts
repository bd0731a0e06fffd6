/**
 * Why the customer hold kept an order back, as data: a code and the counts that
 * decided it. Stored on the decision's timeline row (TimelineEvent.data) and
 * rendered through the i18n catalogue in the merchant's language; the English
 * rendering is also kept in OrderLink.reason for readers without a locale
 * (Flow's "Reason" field, the Flow send action, the order-page extension's
 * fallback). Pure: used by the server, the pages and the tests.
 */
import type { MessageKey, MessageParams } from "../i18n";
import { joinList, msg, type MessageRef } from "../i18n/message-ref";
import { FAILED_OUTCOMES, type DeliveryOutcome } from "./outcome";
import { parseOddsReasons, type OddsReason } from "../odds/explain";

export type FailedOutcome = "refused" | "returned" | "cancelled" | "wrong_number";

/** The delivery odds that held an order (the shop's policy, Settings), and from where it would be sent. */
export interface OddsHold {
  /** 0 to 1. */
  probability: number;
  rule: "below_probability" | "negative_value";
  /** The probability from which the policy sends it; null when sending never pays (no positive margin). */
  releaseAt: number | null;
  /** Expected value of sending, in cents (null: a price or the fee unknown). */
  valueCents: number | null;
  reasons: OddsReason[];
}

export interface HoldReason {
  code: "customer_record" | "customer_blocked" | "delivery_odds";
  /** Failed deliveries inside the window, by outcome (only outcomes that occurred). */
  counts: Partial<Record<FailedOutcome, number>>;
  /** The rule's window. */
  days: number;
  /** The merchant blocked the phone. */
  blocked: boolean;
  /** delivery_odds: the score that held it. */
  odds?: OddsHold;
}

/** A held order's reason on a page: the structured one, or the stored English text of rows written before it. */
export type HoldReasonView = { reason: HoldReason } | { text: string };

type Translate = (key: MessageKey, params?: MessageParams) => string;

const COUNT_KEYS: Record<FailedOutcome, MessageKey> = {
  refused: "customers.reason.refused",
  returned: "customers.reason.returned",
  cancelled: "customers.reason.cancelled",
  wrong_number: "customers.reason.wrong_number",
};

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

const unit = (v: unknown): number | null => (typeof v === "number" && v >= 0 && v <= 1 ? v : null);

function parseOddsHold(value: unknown): OddsHold | null {
  if (!isRecord(value)) return null;
  const probability = unit(value.probability);
  if (probability === null || (value.rule !== "below_probability" && value.rule !== "negative_value")) return null;
  return {
    probability,
    rule: value.rule,
    releaseAt: unit(value.releaseAt),
    valueCents: typeof value.valueCents === "number" && Number.isFinite(value.valueCents) ? value.valueCents : null,
    reasons: parseOddsReasons(value.reasons),
  };
}

/** Reads a stored reason back; null for anything else (an older row, damaged JSON). */
export function parseHoldReason(value: unknown): HoldReason | null {
  if (!isRecord(value)) return null;
  if (value.code === "delivery_odds") {
    const odds = parseOddsHold(value.odds);
    return odds ? { code: "delivery_odds", counts: {}, days: 0, blocked: false, odds } : null;
  }
  if (value.code !== "customer_record" && value.code !== "customer_blocked") return null;
  const counts: HoldReason["counts"] = {};
  if (isRecord(value.counts)) {
    for (const outcome of FAILED_OUTCOMES) {
      const n = value.counts[outcome];
      if (typeof n === "number" && Number.isInteger(n) && n > 0) counts[outcome as FailedOutcome] = n;
    }
  }
  const days = typeof value.days === "number" && Number.isInteger(value.days) && value.days > 0 ? value.days : 0;
  return { code: value.code, counts, days, blocked: value.blocked === true || value.code === "customer_blocked" };
}

/** The reason of a timeline row's data ({ reason: ... }); null when it carries none. */
export const holdReasonOfData = (data: unknown): HoldReason | null =>
  isRecord(data) ? parseHoldReason(data.reason) : null;

const failedCounts = (counts: HoldReason["counts"]) =>
  FAILED_OUTCOMES.filter((o) => (counts[o as FailedOutcome] ?? 0) > 0).map((o) => ({
    key: COUNT_KEYS[o as FailedOutcome],
    count: counts[o as FailedOutcome]!,
  }));

/** "2 refused and 1 returned", in FAILED_OUTCOMES order, in the catalogue's language. */
export function failureList(t: Translate, counts: HoldReason["counts"]): string {
  return joinList(
    failedCounts(counts).map(({ key, count }) => t(key, { count })),
    { t },
  );
}

const percent = (p: number) => Math.round(p * 100);

/** The odds' part of a reason: its catalogue key and parameters. */
function oddsHoldMessage(odds: OddsHold): { key: MessageKey; params: Record<string, number> } {
  if (odds.rule === "below_probability")
    return {
      key: "odds.hold.below",
      params: { probability: percent(odds.probability), threshold: percent(odds.releaseAt ?? 0) },
    };
  return odds.releaseAt === null
    ? { key: "odds.hold.neverPays", params: { probability: percent(odds.probability) } }
    : {
        key: "odds.hold.negative",
        params: { probability: percent(odds.probability), threshold: percent(odds.releaseAt) },
      };
}

/** The reason in words: "2 refused and 1 returned in the last 90 days". */
export function holdReasonText(t: Translate, reason: HoldReason): string {
  if (reason.code === "delivery_odds" && reason.odds) {
    const { key, params } = oddsHoldMessage(reason.odds);
    return t(key, params);
  }
  if (reason.code === "customer_blocked") return t("customers.reason.blocked");
  return t("customers.reason.record", { failures: failureList(t, reason.counts), days: reason.days });
}

/** The same reason as a stored sentence (app/i18n/message-ref.ts). */
export function holdReasonRef(reason: HoldReason): MessageRef {
  if (reason.code === "delivery_odds" && reason.odds) {
    const { key, params } = oddsHoldMessage(reason.odds);
    return msg(key, params);
  }
  if (reason.code === "customer_blocked") return msg("customers.reason.blocked");
  const failures = { list: failedCounts(reason.counts).map(({ key, count }) => msg(key, { count })) };
  return msg("customers.reason.record", { failures, days: reason.days });
}

/** "Sent anyway by you, despite the customer's record (…)". */
export function sentAnywayText(by: string, reason: HoldReason | null): MessageRef {
  const who = by === "merchant" ? msg("timeline.actor.merchant") : by;
  return reason
    ? msg("customers.timeline.sentAnywayBecause", { by: who, reason: holdReasonRef(reason) })
    : msg("customers.timeline.sentAnyway", { by: who });
}

/** The merchant blocked, trusted or cleared the customer's phone. */
export function standingText(standing: "blocked" | "trusted" | null): MessageRef {
  return msg(
    standing === "blocked"
      ? "customers.timeline.blocked"
      : standing === "trusted"
        ? "customers.timeline.trusted"
        : "customers.timeline.cleared",
  );
}

export function holdReasonViewText(t: Translate, view: HoldReasonView): string {
  return "reason" in view ? holdReasonText(t, view.reason) : view.text;
}

export const isFailedOutcome = (o: DeliveryOutcome): o is FailedOutcome =>
  (FAILED_OUTCOMES as readonly string[]).includes(o);

/** What a customer step of the timeline says, as data (older rows carry none and show their stored message). */
export type CustomerTimelineDetail =
  | { kind: "customer_hold"; reason: HoldReason }
  | { kind: "send_anyway"; reason: HoldReason | null }
  | { kind: "customer_standing"; standing: "blocked" | "trusted" | null };

export function customerTimelineDetail(kind: string, data: unknown): CustomerTimelineDetail | undefined {
  if (!isRecord(data)) return undefined;
  if (kind === "customer_hold") {
    const reason = parseHoldReason(data.reason);
    return reason ? { kind, reason } : undefined;
  }
  if (kind === "send_anyway" && "reason" in data) return { kind, reason: parseHoldReason(data.reason) };
  if (kind === "customer_standing" && "standing" in data) {
    return { kind, standing: data.standing === "blocked" || data.standing === "trusted" ? data.standing : null };
  }
  return undefined;
}

export function customerTimelineText(t: Translate, detail: CustomerTimelineDetail): string {
  switch (detail.kind) {
    case "customer_hold":
      return holdReasonText(t, detail.reason);
    case "send_anyway":
      return detail.reason
        ? t("customers.timeline.sentAnywayBecause", {
            by: t("timeline.actor.merchant"),
            reason: holdReasonText(t, detail.reason),
          })
        : t("customers.timeline.sentAnyway", { by: t("timeline.actor.merchant") });
    case "customer_standing":
      return t(
        detail.standing === "blocked"
          ? "customers.timeline.blocked"
          : detail.standing === "trusted"
            ? "customers.timeline.trusted"
            : "customers.timeline.cleared",
      );
  }
}
