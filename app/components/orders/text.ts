/**
 * Words for the codes the pipeline stores (findings, platform anomalies,
 * timeline steps, an order's reason), in the reader's language. Each sentence
 * is built by app/models/order-texts.ts and rendered with the catalogue; a
 * code this build has no sentence for shows the stored plain-English message,
 * or the code itself.
 */
import { isMessageKey } from "../../i18n";
import type { MessageRef } from "../../i18n/message-ref";
import type { Translate } from "../../i18n/react";
import { anomalyRef, findingRef } from "../../models/order-texts";
import type { FindingParams } from "../../leads/types";
import { customerTimelineText, type CustomerTimelineDetail } from "../../customers/hold-reason";

type Render = (ref: MessageRef) => string;

export function findingText(render: Render, finding: { code: string; params: FindingParams; message: string }): string {
  const ref = findingRef({ code: finding.code as never, params: finding.params });
  return ref ? render(ref) : finding.message || finding.code;
}

export function anomalyText(render: Render, anomaly: { code: string; message: string }): string {
  const ref = anomalyRef(anomaly);
  return ref ? render(ref) : anomaly.message || anomaly.code;
}

/** Short label of a finding or anomaly code, for badges. */
export function codeLabel(t: Translate, code: string): string {
  const key = `code.${code}`;
  return isMessageKey(key) ? t(key) : code;
}

export function timelineKind(t: Translate, kind: string): string {
  const key = `timeline.${kind}`;
  return isMessageKey(key) ? t(key) : kind;
}

/** A timeline entry's title: its kind's, a hold by the delivery odds named as such. */
export function timelineTitle(t: Translate, event: { kind: string; customer?: CustomerTimelineDetail }): string {
  if (event.customer?.kind === "customer_hold" && event.customer.reason.code === "delivery_odds")
    return t("timeline.odds_hold");
  return timelineKind(t, event.kind);
}

/** A timeline entry's sentence: its stored reference, the customer data of older rows, else its stored English. */
export function timelineText(
  render: Render,
  t: Translate,
  event: { text: MessageRef | null; message: string; customer?: CustomerTimelineDetail },
): string {
  if (event.text) return render(event.text);
  if (event.customer) return customerTimelineText(t, event.customer);
  return event.message;
}

/** An order's reason: its stored reference, else the English the link keeps. */
export function reasonText(render: Render, reason: { text: MessageRef | null; message: string | null }): string {
  return reason.text ? render(reason.text) : (reason.message ?? "");
}

export function ordersCount(t: Translate, count: number): string {
  return t("anomalies.orders", { count });
}

export function fixErrorText(t: Translate, code: string): string {
  const key = `fix.error.${code}`;
  return isMessageKey(key) ? t(key) : t("fix.error.invalid");
}
