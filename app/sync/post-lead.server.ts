/**
 * The "post-lead" job: map a stored Shopify order and post its lead, exactly
 * once. Before the POST the link is marked `posting` and committed; a later
 * attempt that finds it still `posting` (crash, timeout, 5xx) first looks for
 * the lead on the platform by external_ref, and only re-posts when it is not
 * there.
 */
import type { OrderLink, Prisma, Shop } from "@prisma/client";
import { z } from "zod";
import { fromWebhookOrder, mapOrderToLead, normalizeMoroccanPhone, type MappingResult, type RecentLead, type ShopOrder } from "../leads";
import { addTimeline, reasonFields, timelineRow, type TimelineKind } from "../models/timeline.server";
import { autoSendOffText, checkedText, findingRef, heldByRulesText, keyRejectedText, leadAnsweredText, leadSentText, notInstalledText, rateLimitedText, receivedText, refusedText, sendFailedText, waitingForKeyText, refusedValueText } from "../models/order-texts";
import type { MessageRef } from "../i18n/message-ref";
import { failureCauseOf } from "../models/failure-cause";
import { readShopSettings } from "../models/shop-settings";
import { assertMove, canMove, type LinkState, FLAG_DUPLICATE_AFTER_NETWORK_FAILURE } from "../models/order-link-state";
import { databaseValueProblem } from "../queue/database-value-error";
import { PermanentJobError, RetryLaterError } from "../queue/errors";
import type { ClaimedJob } from "../queue/types";
import { enqueueJob } from "../queue/jobs.server";
import { ConnectionError, type CreateLeadResult, type SellerApiClient } from "../seller-api";
import { cachedReferenceData, ensureReferenceData } from "./reference-data.server";
import { loadShopRules, mappingContext } from "./mapping-context.server";
import { ShopNotConnectedError, type ShopConnection } from "./seller-connection.server";
import type { PipelineDeps } from "./pipeline-deps.server";
import { pauseShop } from "./shop-pause.server";
import { ensureSyncScheduled } from "./status-sync.server";
import { applyLeadEvents } from "./lead-events.server";
import { holdHistory } from "../customers/sharing.server";
import { customerHold, FLAG_CUSTOMER_HOLD_WAIVED } from "../customers/risk";
import { holdReasonRef } from "../customers/hold-reason";
import { english } from "../i18n";
import { writeBackJobFor } from "../models/job-kinds";
import { snapshotOf } from "../models/lead-events";
import { sellerApiOutcome } from "../models/job-outcomes";
import { log } from "../runtime/logger.server";
import { recordOrderToLead } from "../runtime/metrics.server";
import { totalCentsOf } from "../models/order-amount";
import { refusalOf } from "../models/refusal.server";

/** Intake queues by order id (it never reads the link back); merchant actions by link id. */
const payloadSchema = z.union([z.object({ linkId: z.string().min(1) }), z.object({ orderId: z.string().regex(/^\d+$/) })]);

/** How long a link waits for a key (none yet, or rejected) before looking again. */
export const WAIT_FOR_KEY_MS = 15 * 60_000;

type OrderOverrides = { phone?: string; address?: string; city?: string; name?: string };

export async function runPostLead(deps: PipelineDeps, job: ClaimedJob): Promise<void> {
  const parsed = payloadSchema.safeParse(job.payload);
  if (!parsed.success) throw new PermanentJobError("post-lead payload names no order");
  const { db } = deps;
  const link =
    "linkId" in parsed.data
      ? await db.orderLink.findUnique({ where: { id: parsed.data.linkId } })
      : job.shop
        ? await db.orderLink.findUnique({ where: { shop_orderId: { shop: job.shop, orderId: parsed.data.orderId } } })
        : null;
  // Erased since (shop/redact, retention): nothing left to post.
  if (!link) {
    log.warn(`post-lead ${job.key}: no order link any more; nothing to send`, { job: job.key, shop: job.shop });
    return;
  }
  const state = link.state as LinkState;
  if (state !== "received" && state !== "retrying" && state !== "posting") return;
  try {
    await postLink(deps, job, link);
  } catch (error) {
    // A value the database refuses (old snapshots may still hold a lone surrogate) is refused on every attempt.
    const problem = databaseValueProblem(error);
    if (!problem) throw error;
    await stopOnRefusedValue(db, link.id, problem);
    throw new PermanentJobError(problem, { cause: error });
  }
}

async function postLink(deps: PipelineDeps, job: ClaimedJob, link: OrderLink): Promise<void> {
  const { db } = deps;
  const state = link.state as LinkState;
  const shop = await db.shop.findUnique({ where: { domain: link.shop } });
  if (!shop || shop.uninstalledAt) {
    await moveLink(db, link, "held", { reason: notInstalledText() });
    return;
  }

  const connection = tryConnect(deps, shop);
  // An earlier POST may have reached the platform (crash, timeout, 5xx, or a
  // failure before its answer was recorded): look for that lead first.
  const uncertain = link.postingSince !== null || state === "posting";
  if (uncertain) {
    if (!connection) return waitForKey(deps, link, shop);
    let found: CreateLeadResult | undefined;
    try {
      found = await findPostedLead(connection.client, link);
    } catch (error) {
      return handleApiFailure(deps, job, link, shop, error, { uncertain });
    }
    if (found) {
      await recordAnswer(deps, link, shop, found, { recovered: true });
      return;
    }
  }

  let mapped: MappedOrder;
  try {
    mapped = await mapLink(deps, link, shop, connection);
  } catch (error) {
    return handleApiFailure(deps, job, link, shop, error, { uncertain });
  }
  const { result } = mapped;
  const settings = readShopSettings(shop.settings);
  // Every path below writes the mapping in the same commit as the link's next state.
  const alsoWrite = mapped.write;

  if (result.decision === "skip" || result.decision === "hold") {
    const to = result.decision === "skip" ? "skipped" : "held";
    const blocking = result.findings.find((f) => f.severity === "blocking");
    const reason = (blocking && findingRef(blocking)) ?? heldByRulesText();
    await moveLink(db, link, to, { reason, timeline: { kind: to, text: reason }, alsoWrite });
    return;
  }
  if (settings.customerHold.enabled && result.phone && !parseJson<string[]>(link.flags, []).includes(FLAG_CUSTOMER_HOLD_WAIVED)) {
    const history = await holdHistory(db, shop, result.phone, link.id);
    const decision = customerHold(history, settings.customerHold, deps.now());
    if (decision.hold) {
      // The reason as data for the pages (each in its language); English text for readers with no locale (Flow).
      const text = holdReasonRef(decision.reason);
      await moveLink(db, link, "held", { reason: text, timeline: { kind: "customer_hold", text, data: { reason: decision.reason } }, alsoWrite });
      return;
    }
  }
  if (!settings.autoSend && !link.resendAt) {
    const reason = autoSendOffText();
    await moveLink(db, link, "held", { reason, timeline: { kind: "held", text: reason }, alsoWrite });
    return;
  }
  if (!connection) return waitForKey(deps, link, shop, alsoWrite);

  const posting = { state: "posting", postingSince: link.postingSince ?? deps.now(), ...reasonFields(null) };
  // One commit: the mapping, the mark and their timeline rows (each commit costs the process a synchronous write).
  const marked = await db.$transaction(async (tx) => {
    const { count } = await tx.orderLink.updateMany({
      where: { id: link.id, state: { in: ["received", "retrying", "posting"] } },
      // The earliest uncertain attempt is kept: the search for our lead starts there.
      data: { ...mapped.fields, ...posting },
    });
    const sent = { kind: "posted" as const, text: leadSentText(uncertain) };
    // Changed meanwhile: the mapping is still recorded, the state is left to that change.
    await mapped.write(tx, count === 1 ? { skipFields: true, then: sent } : {});
    return count === 1;
  });
  // Cancelled or changed by the merchant meanwhile: that change wins.
  if (!marked) {
    log.warn(`post-lead ${link.shop} ${link.orderName}: the order changed while it was being mapped; not sent now`, { shop: link.shop, order: link.orderId });
    return;
  }
  Object.assign(link, posting);

  try {
    const answer = await connection.client.createLead(result.lead!);
    await recordAnswer(deps, link, shop, answer, { reposted: uncertain });
  } catch (error) {
    return handleApiFailure(deps, job, link, shop, error, { posting: true, uncertain });
  }
}

function tryConnect(deps: PipelineDeps, shop: Shop): ShopConnection | undefined {
  try {
    return deps.connect(shop);
  } catch (error) {
    if (error instanceof ShopNotConnectedError) return undefined;
    throw error;
  }
}

async function waitForKey(deps: PipelineDeps, link: OrderLink, shop: Shop, alsoWrite?: MoveOptions["alsoWrite"]): Promise<never> {
  const reason = waitingForKeyText(Boolean(shop.pausedReason));
  const to: LinkState = link.state === "posting" ? "posting" : "received";
  await moveLink(deps.db, link, to, { reason, alsoWrite });
  throw new RetryLaterError(WAIT_FOR_KEY_MS, { countAttempt: false, reason: english(reason) });
}

/** A mapped order: the result, and the rows that record it, written by the caller's next commit. */
interface MappedOrder {
  result: MappingResult;
  fields: Prisma.OrderLinkUpdateManyMutationInput;
  write(tx: Prisma.TransactionClient, options?: { skipFields?: boolean; then?: { kind: TimelineKind; text: MessageRef } }): Promise<void>;
}

/** Maps the stored order with the shop's rules, refreshing stale reference lists first. */
async function mapLink(deps: PipelineDeps, link: OrderLink, shop: Shop, connection: ShopConnection | undefined): Promise<MappedOrder> {
  const { db } = deps;
  const now = deps.now();
  let references = connection
    ? await ensureReferenceData(db, shop, connection.client, { now })
    : cachedReferenceData(shop);
  const order = applyOverrides(fromWebhookOrder(JSON.parse(link.payload)), parseJson<OrderOverrides>(link.overrides, {}));
  const rules = await loadShopRules(db, shop);
  const recentLeads = await recentLeadsFor(deps, link, order, rules.settings.duplicateWindowMinutes);
  const context = () => mappingContext(references, rules, { now, currency: order.currency, recentLeads });
  let result = mapOrderToLead(order, context());
  if (result.needsRefresh.length > 0 && connection) {
    references = await ensureReferenceData(db, shop, connection.client, { now, force: result.needsRefresh });
    result = mapOrderToLead(order, context());
  }
  const warnings = result.findings.filter((f) => f.severity === "warning").length;
  const blocking = result.findings.length - warnings;
  const row = (kind: TimelineKind, text: MessageRef, at: Date, data?: unknown) => timelineRow(link.shop, link.id, { kind, text, at, data });
  const mappedRow = row("mapped", checkedText(result.decision, blocking, warnings), now, {
    decision: result.decision,
    findings: result.findings.map((f) => f.code),
  });
  // Intake writes no timeline row (it must stay small): the first look at the
  // order records its arrival. Only a link never mapped has neither a lead nor a finding.
  const firstLook = link.leadJson === null && link.findings === "[]";
  const receivedRow = row("received", receivedText(link.orderName), link.createdAt);
  const fields = {
    findings: JSON.stringify(result.findings),
    leadJson: result.lead ? JSON.stringify(result.lead) : null,
    phone: result.phone ?? null,
    cityId: result.city?.id ?? null,
    totalClient: result.lead?.total_client ?? null,
    totalCents: totalCentsOf(result.lead?.total_client),
    productKeys: JSON.stringify(result.productKeys),
  };
  return {
    result,
    fields,
    async write(tx, options = {}) {
      if (!options.skipFields) await tx.orderLink.update({ where: { id: link.id }, data: fields, select: { id: true } });
      const rows = [...(firstLook ? [receivedRow] : []), mappedRow];
      if (options.then) rows.push(row(options.then.kind, options.then.text, deps.now()));
      await tx.timelineEvent.createMany({ data: rows });
    },
  };
}

/** The merchant's per-order fixes (phone, address, city, name) over the Shopify snapshot. */
export function applyOverrides(order: ShopOrder, overrides: OrderOverrides): ShopOrder {
  if (!overrides.phone && !overrides.address && !overrides.city && !overrides.name) return order;
  const address = { ...(order.shippingAddress ?? {}) };
  if (overrides.phone) address.phone = overrides.phone;
  if (overrides.address) Object.assign(address, { address1: overrides.address, address2: undefined });
  if (overrides.city) address.city = overrides.city;
  if (overrides.name) Object.assign(address, { name: overrides.name, firstName: undefined, lastName: undefined });
  return { ...order, shippingAddress: address, ...(overrides.phone ? { phone: overrides.phone } : {}) };
}

/** The shop's leads with the same phone inside the duplicate window. */
async function recentLeadsFor(deps: PipelineDeps, link: OrderLink, order: ShopOrder, windowMinutes: number): Promise<RecentLead[]> {
  const candidates = [order.shippingAddress?.phone, order.phone, order.customer?.phone, order.billingAddress?.phone];
  const phones = [...new Set(candidates.map((p) => normalizeMoroccanPhone(p)).flatMap((r) => (r.ok ? [r.phone] : [])))];
  if (phones.length === 0 || windowMinutes <= 0) return [];
  const since = new Date(deps.now().getTime() - windowMinutes * 60_000);
  const rows = await deps.db.orderLink.findMany({
    where: { shop: link.shop, phone: { in: phones }, postedAt: { gte: since }, id: { not: link.id } },
    select: { phone: true, productKeys: true, postedAt: true, orderId: true, orderName: true },
  });
  return rows.map((r) => ({
    phone: r.phone!,
    productKeys: parseJson<string[]>(r.productKeys, []),
    createdAt: r.postedAt!,
    orderId: r.orderId,
    orderName: r.orderName,
  }));
}

/**
 * After an unknown outcome: is our lead on the platform already? Looks through
 * the leads created since the attempt for our external_ref (the sandbox, and
 * platforms that return unknown fields, list it). Undefined when not found or
 * when the platform does not show external_ref.
 */
async function findPostedLead(client: SellerApiClient, link: OrderLink): Promise<CreateLeadResult | undefined> {
  const from = new Date((link.postingSince ?? link.updatedAt).getTime() - 24 * 3600 * 1000);
  let pages = 0;
  for await (const page of client.listLeads({ since: from.toISOString().slice(0, 10), limit: 100 }).pages()) {
    for (const lead of page.leads) {
      const raw = lead.raw as Record<string, unknown>;
      if (!("external_ref" in raw)) return undefined;
      if (raw.external_ref !== link.externalRef) continue;
      return lead.damaged
        ? { kind: "damaged", ref: lead.ref, anomalies: lead.anomalies ?? [], raw }
        : { kind: "created", ref: lead.ref, raw };
    }
    if (++pages >= 5) break;
  }
  return undefined;
}

async function recordAnswer(
  deps: PipelineDeps,
  link: OrderLink,
  shop: Pick<Shop, "settings">,
  answer: CreateLeadResult,
  how: { recovered?: boolean; reposted?: boolean },
): Promise<void> {
  const { db } = deps;
  const now = deps.now();
  const flags = new Set(parseJson<string[]>(link.flags, []));
  const anomalies = answer.kind === "damaged" ? answer.anomalies : [];
  if (how.reposted && anomalies.some((a) => a.code === "recent_duplicate")) flags.add(FLAG_DUPLICATE_AFTER_NETWORK_FAILURE);
  const state: LinkState = answer.kind;
  assertMove(link.state as LinkState, state);
  await db.$transaction(async (tx) => {
    await tx.orderLink.update({
      where: { id: link.id },
      data: {
        state,
        leadRef: answer.ref ?? null,
        anomalies: JSON.stringify(anomalies),
        flags: JSON.stringify([...flags]),
        ...reasonFields(null),
        postingSince: null,
        postedAt: now,
        postCount: { increment: how.recovered ? 0 : 1 },
        confirmationStatus: "new",
        shippingStatus: "pending",
        // A new lead: a parcel number and profit of an earlier one are not its own.
        trackingNumber: null,
        sellerProfit: null,
        statusFinal: false,
      },
      // Not the row back: its payload is the whole order, which Prisma would read and convert again.
      select: { id: true },
    });
    await addTimeline(tx, link.shop, link.id, {
      kind: "answered",
      text: leadAnsweredText(answer.ref ?? null, anomalies, Boolean(how.recovered)),
      data: { ref: answer.ref, anomalies },
      at: now,
    });
    await applyLeadEvents(tx, link.shop, [
      {
        linkId: link.id,
        kind: "answered",
        before: snapshotOf(link),
        after: { state, confirmationStatus: "new", shippingStatus: "pending", sellerProfit: null },
        at: now,
      },
    ]);
    await enqueueWriteBack(tx, link, shop);
    await ensureSyncScheduled(tx, link.shop, now);
  });
  recordOrderToLead(link.createdAt, now);
}

/** The shop row the job loaded moments ago: its toggles, without reading it again. */
async function enqueueWriteBack(tx: Prisma.TransactionClient, link: OrderLink, shop: Pick<Shop, "settings">): Promise<void> {
  const { writeBack } = readShopSettings(shop.settings);
  if (writeBack.tags || writeBack.fulfillment || writeBack.markPaid || writeBack.cancel) {
    await enqueueJob(tx, writeBackJobFor(link.shop, link.orderId, link.id));
  }
}

interface FailureContext {
  /** The failing call was this attempt's POST. */
  posting?: boolean;
  /** An earlier POST of this order may have created the lead: postingSince must survive. */
  uncertain?: boolean;
}

async function handleApiFailure(
  deps: PipelineDeps,
  job: ClaimedJob,
  link: OrderLink,
  shop: Shop,
  error: unknown,
  context: FailureContext = {},
): Promise<void> {
  const { db } = deps;
  // A definite refusal of this POST (422, 400, 429, 401) says nothing of an earlier one.
  const refusedState = (fallback: LinkState): { to: LinkState; postingSince?: null } =>
    context.uncertain ? { to: "posting" } : { to: fallback, postingSince: null };

  const outcome = sellerApiOutcome(error, deps.now());
  if (outcome.kind === "permanent") {
    const named = error instanceof Error && "field" in error ? error.field : undefined;
    const reason = refusedText(named ? String(named) : undefined);
    // Kept when uncertain: a resend after the fix looks for the earlier lead first.
    await moveLink(db, link, "invalid", {
      reason,
      ...(context.uncertain ? {} : { postingSince: null }),
      timeline: { kind: "answered", text: reason, data: { detail: outcome.reason, refused: refusalOf(error) } },
    });
    return;
  }
  if (outcome.kind === "pause-shop") {
    await pauseShop(db, shop, deps.now());
    const reason = keyRejectedText();
    const { to, postingSince } = refusedState(context.posting ? "retrying" : (link.state as LinkState));
    await moveLink(db, link, to, { reason, postingSince });
    throw new RetryLaterError(WAIT_FOR_KEY_MS, { countAttempt: false, reason: english(reason) });
  }
  if (outcome.kind === "later") {
    const reason = rateLimitedText(Math.ceil(outcome.delayMs / 1000));
    // A 429 (or our own limiter) means this call was not made or was refused.
    const { to, postingSince } = refusedState(context.posting ? "retrying" : (link.state as LinkState));
    await moveLink(db, link, to, { reason, postingSince });
    throw new RetryLaterError(outcome.delayMs, { countAttempt: false, reason: english(reason) });
  }
  // 5xx, timeout, reset, unreadable answer: this POST may have created the
  // lead. The link keeps postingSince so the next attempt looks for it before
  // posting again. A refused connection sent nothing.
  const mayHaveReached = (context.posting && !(error instanceof ConnectionError)) || context.uncertain === true;
  const lastAttempt = job.attempts >= job.maxAttempts;
  const message = error instanceof Error ? error.message : String(error);
  const reason = sendFailedText(failureCauseOf(error), job.attempts, lastAttempt);
  const to: LinkState = lastAttempt ? "failed" : mayHaveReached ? "posting" : "retrying";
  await moveLink(db, link, to, {
    reason,
    ...(mayHaveReached ? {} : { postingSince: null }),
    // The technical message stays with the entry for support; the sentence says what it means.
    timeline: { kind: lastAttempt ? "failed" : "retrying", text: reason, data: { detail: message } },
  });
  throw error;
}

/** The order stops as failed, with a reason that quotes nothing of it (the refused value is in it). */
async function stopOnRefusedValue(db: PipelineDeps["db"], linkId: string, problem: string): Promise<void> {
  const link = await db.orderLink.findUnique({ where: { id: linkId } });
  if (!link || !canMove(link.state as LinkState, "failed")) return;
  const reason = refusedValueText();
  try {
    await moveLink(db, link, "failed", { reason, timeline: { kind: "failed", text: reason, data: { detail: problem } } });
  } catch (error) {
    console.error(`post-lead ${link.shop} ${link.orderName}: could not record the refused value (${databaseValueProblem(error) ?? "database error"})`);
  }
}

interface MoveOptions {
  reason?: MessageRef | null;
  postingSince?: null;
  timeline?: { kind: "held" | "skipped" | "answered" | "retrying" | "failed" | "customer_hold"; text: MessageRef; data?: unknown };
  /** Rows to write in the same commit (the mapping that led to this move). */
  alsoWrite?: MappedOrder["write"];
}

/** States where the order stops short of a lead: features that follow lead events are told. */
const STOPPED_STATES: ReadonlySet<LinkState> = new Set(["held", "skipped", "invalid", "failed"]);

async function moveLink(db: PipelineDeps["db"], link: OrderLink, to: LinkState, options: MoveOptions): Promise<void> {
  assertMove(link.state as LinkState, to);
  const write = async (tx: Prisma.TransactionClient) => {
    await options.alsoWrite?.(tx);
    await tx.orderLink.update({
      where: { id: link.id },
      data: { state: to, ...reasonFields(options.reason ?? null), ...(options.postingSince === null ? { postingSince: null } : {}) },
      select: { id: true },
    });
    if (options.timeline) await addTimeline(tx, link.shop, link.id, options.timeline);
  };
  const stopped = STOPPED_STATES.has(to) && link.state !== to;
  if (!stopped && !options.alsoWrite) return write(db);
  await db.$transaction(async (tx) => {
    await write(tx);
    if (!stopped) return;
    await applyLeadEvents(tx, link.shop, [
      { linkId: link.id, kind: "stopped", before: snapshotOf(link), after: { ...snapshotOf(link), state: to }, reason: options.reason ? english(options.reason) : null, at: new Date() },
    ]);
  });
}

function parseJson<T>(json: string | null | undefined, fallback: T): T {
  if (!json) return fallback;
  try {
    return JSON.parse(json) as T;
  } catch {
    return fallback;
  }
}
