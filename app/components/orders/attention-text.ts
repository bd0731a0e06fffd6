/**
 * Why an order needs the merchant (pages/order-row.ts Attention), in words, with
 * the tone it reads in: critical only for what blocks or failed.
 */
import type { Attention } from "../../pages/order-row";
import type { ReadyReason } from "../../models/attention";
import { refusedFieldOf, type Refusal } from "../../models/refusal";
import { holdReasonViewText } from "../../customers/hold-reason";
import type { Translate } from "../../i18n/react";
import { codeLabel } from "./text";

export type AttentionTone = "critical" | "caution" | "subdued";

/** "the phone number", "the city"...: the lead field a refusal names. */
export function refusedFieldText(t: Translate, field: string | null): string {
  return t(`refused.field.${refusedFieldOf(field)}`);
}

/** "The platform refused the phone number: “customer_phone must be a Moroccan mobile.”" */
export function refusalText(t: Translate, refusal: Refusal | null): string {
  if (!refusal) return t("refused.noDetail");
  const field = refusedFieldText(t, refusal.field);
  return refusal.message ? t("refused.withWords", { field, words: refusal.message }) : t("refused.field", { field });
}

/**
 * What the "ready" group of Anomalies says of why its orders waited: only what their reasons say
 * (automatic sending off, the key awaited), never a guess for orders that waited for another reason.
 */
export function readyGroupHelp(
  reasons: readonly ReadyReason[],
): "anomalies.fix.readyHelp" | "anomalies.fix.readyHelp.autoSendOff" | "anomalies.fix.readyHelp.other" {
  if (reasons.length > 0 && reasons.every((r) => r === "autoSendOff")) return "anomalies.fix.readyHelp.autoSendOff";
  if (reasons.length > 0 && reasons.every((r) => r === "autoSendOff" || r === "waitingForKey"))
    return "anomalies.fix.readyHelp";
  return "anomalies.fix.readyHelp.other";
}

export function attentionText(t: Translate, attention: Attention): { text: string; tone: AttentionTone } {
  switch (attention.kind) {
    case "finding":
      return { text: codeLabel(t, attention.code), tone: "critical" };
    case "customer":
      return { text: t("attention.customer", { reason: holdReasonViewText(t, attention.hold) }), tone: "caution" };
    case "ready":
      return { text: t(`attention.ready.${attention.why}`), tone: attention.why === "stale" ? "caution" : "subdued" };
    case "mismatch":
      return { text: t(`attention.mismatch.${attention.what}`), tone: "critical" };
    case "refused":
      return { text: refusalText(t, attention.refusal), tone: "critical" };
    case "failed":
      return { text: t("attention.failed"), tone: "critical" };
    case "anomaly":
      if (attention.code === "recent_duplicate") {
        return {
          text: attention.duplicateOf
            ? t("attention.duplicateOf", { ref: attention.duplicateOf })
            : t("attention.duplicate"),
          tone: "caution",
        };
      }
      return { text: codeLabel(t, attention.code), tone: "caution" };
    case "possibleDuplicate":
      return { text: t("orders.flag.duplicate"), tone: "caution" };
  }
}
