/**
 * The sentences the pipeline records about an order (its timeline entries,
 * the reason it stopped), as catalogue references: a key and parameters that
 * pages render in the reader's language (app/i18n/message-ref.ts). Also what a
 * finding or a platform anomaly says, for the same renderer. Pure.
 */
import type { Finding } from "../leads/types";
import { isMessageKey, type MessageKey } from "../i18n";
import { msg, type MessageArg, type MessageRef } from "../i18n/message-ref";
import type { WriteBackStep } from "../shopify/write-back-plan";

// ---------------------------------------------------------------------------
// Findings and anomalies

/** The catalogue variant of a finding (a code can have several sentences). */
function findingKey(finding: Pick<Finding, "code" | "params">): string {
  const { code, params } = finding;
  if (code === "not_cod" && params.reason === "already_paid") return "finding.not_cod_paid";
  if (code === "not_cod" && params.reason === "no_gateway") return "finding.not_cod_no_gateway";
  if (code === "sku_unmatched" && params.via === "mapping") return "finding.sku_unmatched_mapping";
  if (code === "total_below_cost" && params.total === "0.00") return "finding.total_zero";
  return `finding.${code}`;
}

/** A Shopify payment status ("partially_paid") in words; an unknown one as written. */
function financialStatusText(status: string): MessageArg {
  const key = `finding.financial.${status.toLowerCase()}`;
  return isMessageKey(key) ? msg(key) : status.replace(/_/g, " ").toLowerCase();
}

/** Params whose values are amounts of dirhams (written in the reader's money format). */
const MONEY_PARAMS = new Set(["total", "minimum"]);

/** What a finding says, as a reference; null for a code this build has no sentence for. */
export function findingRef(finding: Pick<Finding, "code" | "params">): MessageRef | null {
  const key = findingKey(finding);
  if (!isMessageKey(key)) return null;
  const params: Record<string, MessageArg> = {};
  for (const [name, value] of Object.entries(finding.params)) {
    if (value === null || value === undefined || typeof value === "boolean") continue;
    if (name === "score") params.percent = Math.round(Number(value) * 100);
    else if (name === "financialStatus") params.financialStatus = financialStatusText(String(value));
    else if (MONEY_PARAMS.has(name)) params[name] = { money: String(value) };
    else params[name] = value;
  }
  return msg(key, params);
}

export function anomalyRef(anomaly: { code: string }): MessageRef | null {
  const key = `anomaly.${anomaly.code}`;
  return isMessageKey(key) ? msg(key) : null;
}

/** A finding's or anomaly's short label (badges), as a reference. */
export function codeLabelRef(code: string): MessageRef | null {
  const key = `code.${code}`;
  return isMessageKey(key) ? msg(key) : null;
}

// ---------------------------------------------------------------------------
// The pipeline's steps

export const receivedText = (order: string) => msg("timeline.text.received", { order });

/** Held because it was placed longer ago than the shop's limit: it waits for the merchant's word. */
export const staleHeldText = (days: number, limit: number) => msg("timeline.text.staleHeld", { days, limit });

/** The merchant settled, in the seller space, a lead Shopify cancelled or changed after sending. */
export const settledText = (by: string, ref: string | null) =>
  msg("timeline.text.settled", { by: actorText(by), ref: ref ?? "–" });

/** The merchant sent an order older than the limit, knowing its age. */
export const staleSentText = (by: string, days: number) => msg("timeline.text.staleSent", { by: actorText(by), days });

/** An imported order's first step, at the time it was placed in Shopify. */
export const placedText = (order: string) => msg("timeline.text.placed", { order });

/** The order was read from Shopify by an import of past orders (local days, "2026-10-27"). */
export const importedText = (from: string, to: string) =>
  msg("timeline.text.imported", { from: { date: from }, to: { date: to } });

export function checkedText(decision: "send" | "hold" | "skip", blocking: number, warnings: number): MessageRef {
  if (decision === "skip") return msg("timeline.text.checked.skip");
  if (decision === "hold") return msg("timeline.text.checked.hold", { blocking });
  return warnings > 0 ? msg("timeline.text.checked.sendWarnings", { warnings }) : msg("timeline.text.checked.send");
}

export const leadSentText = (afterUnknownOutcome: boolean) =>
  msg(afterUnknownOutcome ? "timeline.text.leadSentAgain" : "timeline.text.leadSent");

/** The platform's answer to a POST: created, or stored with anomalies; `found`: an earlier uncertain POST had made it. */
export function leadAnsweredText(
  ref: string | null,
  anomalies: readonly { code: string }[],
  found: boolean,
): MessageRef {
  const lead = ref ?? "–";
  const labels: MessageArg = { list: anomalies.map((a) => codeLabelRef(a.code) ?? a.code) };
  if (anomalies.length === 0)
    return msg(found ? "timeline.text.leadFound" : "timeline.text.leadCreated", { ref: lead });
  return msg(found ? "timeline.text.leadFoundAnomalies" : "timeline.text.leadCreatedAnomalies", {
    ref: lead,
    anomalies: labels,
  });
}

/** A lead field as words ("the phone number"); an unknown one by its name. */
export function leadFieldText(field: string | undefined): MessageArg {
  if (!field) return msg("timeline.field.lead");
  const key = `timeline.field.${field}`;
  return isMessageKey(key) ? msg(key) : msg("timeline.field.other", { name: field });
}

/** 400 or 422: the platform refused the lead (or one field of it). */
export const refusedText = (field: string | undefined) => msg("timeline.text.refused", { field: leadFieldText(field) });

/** Why a call to the platform failed, in words (see failureCauseOf); the technical message stays in the job. */
export type FailureCause = "timeout" | "unreachable" | "server" | "unexpected" | "other";

export function sendFailedText(cause: FailureCause, attempts: number, lastAttempt: boolean): MessageRef {
  const why = msg(`timeline.cause.${cause}`);
  return lastAttempt
    ? msg("timeline.text.sendFailedFinal", { attempts, cause: why })
    : msg("timeline.text.sendFailedRetrying", { cause: why });
}

/** The database refused a value of the order (text it cannot store): only a corrected order can go. */
export const refusedValueText = () => msg("timeline.text.refusedValue");
/** Checked again after a fix: still held by the named findings, or released. */
export const recheckedText = (blocking: readonly string[]) =>
  blocking.length
    ? msg("timeline.text.recheckedHeld", { codes: { list: blocking.map((c) => codeLabelRef(c) ?? c) } })
    : msg("timeline.text.recheckedReleased");
export const readyAfterFixText = () => msg("timeline.text.readyAfterFix");
/** Held for its delivery odds, and the shop's new policy would send it: it waits for the merchant's word. */
export const oddsReleasedText = (percent: number) => msg("timeline.text.oddsReleased", { percent });
export const heldByRulesText = () => msg("timeline.text.heldByRules");
export const autoSendOffText = () => msg("timeline.text.autoSendOff");
export const keyRejectedText = () => msg("timeline.text.keyRejected");
export const waitingForKeyText = (rejected: boolean) =>
  msg(rejected ? "timeline.text.waitingKeyRejected" : "timeline.text.waitingForKey");
export const rateLimitedText = (seconds: number) => msg("timeline.text.rateLimited", { seconds });
/** An uncertain POST may still land: the search for its lead waits. */
export const earlierSendLandingText = () => msg("timeline.text.earlierSendLanding");
export const notInstalledText = () => msg("timeline.text.notInstalled");
export const reinstalledText = () => msg("timeline.text.reinstalled");

export interface StatusSnapshot {
  confirmationStatus: string | null;
  shippingStatus: string | null;
  trackingNumber?: string | null;
  sellerProfit?: string | null;
}

const statusLabel = (kind: "confirmation" | "shipping", status: string | null): MessageArg =>
  status === null ? "–" : isMessageKey(`${kind}.${status}`) ? msg(`${kind}.${status}` as MessageKey) : status;

/** "Lead ATB-1: confirmation New → Call back, tracking number AMN-1". */
export function statusChangedText(ref: string | null, before: StatusSnapshot, next: StatusSnapshot): MessageRef {
  const changes: MessageArg[] = [];
  if (next.confirmationStatus !== before.confirmationStatus) {
    changes.push(
      msg("timeline.change.confirmation", {
        from: statusLabel("confirmation", before.confirmationStatus),
        to: statusLabel("confirmation", next.confirmationStatus),
      }),
    );
  }
  if (next.shippingStatus !== before.shippingStatus) {
    changes.push(
      msg("timeline.change.shipping", {
        from: statusLabel("shipping", before.shippingStatus),
        to: statusLabel("shipping", next.shippingStatus),
      }),
    );
  }
  if (next.trackingNumber && next.trackingNumber !== before.trackingNumber)
    changes.push(msg("timeline.change.tracking", { number: next.trackingNumber }));
  if (next.sellerProfit && next.sellerProfit !== before.sellerProfit)
    changes.push(msg("timeline.change.profit", { amount: { money: next.sellerProfit } }));
  return msg("timeline.text.statusChanged", { ref: ref ?? "–", changes: { list: changes } });
}

export function writtenBackText(steps: readonly WriteBackStep[]): MessageRef {
  const done = steps.map((s): MessageArg => {
    if (s.kind === "tagsAdd") return msg("timeline.writeBack.tagsAdded", { tags: s.tags.join(", ") });
    if (s.kind === "tagsRemove") return msg("timeline.writeBack.tagsRemoved", { tags: s.tags.join(", ") });
    if (s.kind === "fulfillmentCreate") return msg("timeline.writeBack.fulfilled");
    if (s.kind === "markAsPaid") return msg("timeline.writeBack.paid");
    return msg("timeline.writeBack.cancel");
  });
  return msg("timeline.text.writtenBack", { steps: { list: done } });
}

export const writeBackRefusedText = () => msg("timeline.text.writeBackRefused");

/** The Flow trigger's name as Settings writes it. */
const flowTrigger = (handle: string): MessageArg =>
  isMessageKey(`timeline.flowTrigger.${handle}`) ? msg(`timeline.flowTrigger.${handle}` as MessageKey) : handle;
export const flowSentText = (handle: string) => msg("timeline.text.flowSent", { trigger: flowTrigger(handle) });
export const flowRefusedText = (handle: string) => msg("timeline.text.flowRefused", { trigger: flowTrigger(handle) });

const AD_PLATFORM_NAMES: Record<string, string> = { meta: "Meta", tiktok: "TikTok" };
export const adFeedSentText = (platform: string, event: string) =>
  msg("timeline.text.adFeedSent", { platform: AD_PLATFORM_NAMES[platform] ?? platform, event });
export const adFeedRefusedText = (platform: string, event: string) =>
  msg("timeline.text.adFeedRefused", { platform: AD_PLATFORM_NAMES[platform] ?? platform, event });

export const updatedInShopifyText = () => msg("timeline.text.updated");
export const cancelledBeforeSendingText = () => msg("timeline.text.cancelledBeforeSending");
export const cancelledReasonText = () => msg("timeline.text.cancelledReason");
/** Refunded or edited in Shopify after its lead was sent: the lead still says what the order said. */
export const changedAfterSendingText = (what: "refunded" | "edited" | "cancelled", ref: string | null) =>
  what === "cancelled"
    ? cancelledAfterSendingText(ref)
    : msg(what === "refunded" ? "timeline.text.refundedAfterSending" : "timeline.text.editedAfterSending", {
        ref: ref ?? "–",
      });
export const cancelledAfterSendingText = (ref: string | null) =>
  ref ? msg("timeline.text.cancelledAfterSending", { ref }) : msg("timeline.text.cancelledAfterSendingNoRef");

/** Who did it: the merchant, Shopify Flow, or a name as stored. */
export function actorText(by: string): MessageArg {
  if (by === "merchant") return msg("timeline.actor.merchant");
  if (by === "Shopify Flow") return msg("timeline.actor.flow");
  return by;
}

export const resentText = (by: string, previousRef: string | null) =>
  previousRef
    ? msg("timeline.text.resentReplacing", { by: actorText(by), ref: previousRef })
    : msg("timeline.text.resent", { by: actorText(by) });

/** Sent again by someone who confirmed that a second lead may exist besides `ref`. */
export const resentSecondLeadText = (by: string, ref: string | null) =>
  msg("timeline.text.resentSecondLead", { by: actorText(by), ref: ref ?? "–" });
/** Kept as a real order despite the platform's duplicate warning. */
export const duplicateKeptText = (by: string) => msg("timeline.text.duplicateKept", { by: actorText(by) });
/** Cancelled in Shopify as a duplicate; its lead stays on the platform until cancelled there. */
export const cancelledAsDuplicateText = (by: string, ref: string | null) =>
  msg("timeline.text.cancelledAsDuplicate", { by: actorText(by), ref: ref ?? "–" });

// The reconciliation with Shopify: what it took in or applied that a webhook should have brought.
export const recoveredText = () => msg("timeline.text.recovered");
export const reconciledCancellationText = () => msg("timeline.text.reconciledCancellation");
export const reconciledChangeText = () => msg("timeline.text.reconciledChange");
/** The Shopify order does not show what the app wrote (tags, fulfilment, paid...): written back again. */
export const rewrittenText = (kinds: readonly string[]) =>
  msg("timeline.text.rewritten", {
    what: {
      list: kinds.map((k) => (isMessageKey(`timeline.drift.${k}`) ? msg(`timeline.drift.${k}` as MessageKey) : k)),
    },
  });

/** The corrected fields of an order ("phone", "address", "city", "name"). */
export function correctedText(by: string, fields: readonly string[]): MessageRef {
  const names = fields.map((f): MessageArg =>
    leadFieldText(f === "phone" ? "customer_phone" : f === "name" ? "customer_name" : f),
  );
  return msg("timeline.text.corrected", { by: actorText(by), fields: { list: names } });
}

export const redactedText = () => msg("timeline.text.redacted");
