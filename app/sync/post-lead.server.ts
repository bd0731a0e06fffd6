/**
 * The "post-lead" job: map a stored Shopify order and post its lead, exactly
 * once. Before the POST the link is marked `posting` and committed; a later
 * attempt that finds it still `posting` (crash, timeout, 5xx) first looks for
 * the lead on the platform by external_ref, and only re-posts when it is not
 * there.
 *
 * The hot path in few prepared statements (app/db/sql): the link, its shop and
 * the versions of the shop's rules and lists in one read (the rules and lists
 * themselves are kept parsed while their version holds), the duplicate check,
 * the posting mark (one commit), the limiter's reservation, and the answer with
 * its lead event, its write-back's wake-up and the job's completion (one
 * commit). The lead events are told to their handlers (analytics, customer
 * records, the cash ledger, Flow) in batches by the worker (lead-events.server.ts).
 */
import type { OrderLink, Shop } from "@prisma/client";
import { z } from "zod";
import {
  fromWebhookOrder,
  mapOrderToLead,
  normalizeMoroccanPhone,
  type CatalogueProduct,
  type City,
  type MappingResult,
  type RecentLead,
  type ShopOrder,
} from "../leads";
import { addTimelineRows, timelineRow, type TimelineEntry, type TimelineKind } from "../models/timeline.server";
import {
  mappingInputsOf,
  moveItems,
  moveLink,
  type LinkColumns,
  type MappingInputs,
} from "../models/link-moves.server";
import {
  autoSendOffText,
  checkedText,
  earlierSendLandingText,
  findingRef,
  heldByRulesText,
  keyRejectedText,
  leadAnsweredText,
  leadSentText,
  notInstalledText,
  rateLimitedText,
  receivedText,
  placedText,
  staleHeldText,
  refusedText,
  sendFailedText,
  waitingForKeyText,
  refusedValueText,
} from "../models/order-texts";
import type { MessageRef } from "../i18n/message-ref";
import { failureCauseOf } from "../models/failure-cause";
import { readShopSettings, type ShopSettings } from "../models/shop-settings";
import { canMove, type LinkState, FLAG_DUPLICATE_AFTER_NETWORK_FAILURE } from "../models/order-link-state";
import { databaseValueProblem } from "../queue/database-value-error";
import { PermanentJobError, RetryLaterError } from "../queue/errors";
import { wakeJobsItems } from "../queue/jobs.server";
import type { ClaimedJob, JobContext } from "../queue/types";
import { ConnectionError, type CreateLeadResult, type SellerApiClient } from "../seller-api";
import { withReservation, type Reservation } from "./db-rate-limiter.server";
import { currentReferenceData } from "./reference-data.server";
import { currentShopRules, mappingContext } from "./mapping-context.server";
import { ShopNotConnectedError, type ShopConnection } from "./seller-connection.server";
import type { PipelineDeps } from "./pipeline-deps.server";
import { pauseShop } from "./shop-pause.server";
import { writeBackWakes } from "./write-back-task.server";
import { customerHold, FLAG_CUSTOMER_HOLD_WAIVED } from "../customers/risk";
import { oddsBeforeSending, type OddsVersions } from "./delivery-odds.server";
import { ageInDays, FLAG_STALE_APPROVED, isStaleOrder } from "../models/stale-order";
import { holdReasonRef } from "../customers/hold-reason";
import { english } from "../i18n";
import { sellerApiOutcome } from "../models/job-outcomes";
import { asBool, asDate, asNumber, asString, sqlDatabaseOf, statement, type Sql } from "../db/sql";
import { modelColumns, modelRow } from "../db/model-rows";
import { log } from "../runtime/logger.server";
import { recordOrderToLead } from "../runtime/metrics.server";
import { totalCentsOf } from "../models/order-amount";
import { refusalOf } from "../models/refusal.server";

/** Intake queues by order id (it never reads the link back); merchant actions by link id. */
const payloadSchema = z.union([
  z.object({ linkId: z.string().min(1) }),
  z.object({ orderId: z.string().regex(/^\d+$/) }),
]);

/** How long a link waits for a key (none yet, or rejected) before looking again. */
export const WAIT_FOR_KEY_MS = 15 * 60_000;

type OrderOverrides = { phone?: string; address?: string; city?: string; name?: string };

/**
 * The link, its shop (without the cached lists) and the versions of what the mapping reads, in one statement; with
 * them, when the shop's odds model was fitted and triggerInUse's answer for "Delivery odds scored" (no read of their own).
 */
const LOADED_COLUMNS = `${modelColumns("OrderLink", "l")}, ${modelColumns("Shop", "s", { prefix: "s_", except: ["catalogueJson", "citiesJson"] })},
  octet_length(s."catalogueJson") AS "catalogueBytes", octet_length(s."citiesJson") AS "citiesBytes",
  (SELECT COUNT(*) FROM "SkuMapping" m WHERE m."shop" = l."shop") AS "skuCount",
  (SELECT MAX(m."updatedAt") FROM "SkuMapping" m WHERE m."shop" = l."shop") AS "skuChangedAt",
  (SELECT COUNT(*) FROM "CityAlias" a WHERE a."shop" = l."shop") AS "aliasCount",
  (SELECT MAX(a."updatedAt") FROM "CityAlias" a WHERE a."shop" = l."shop") AS "aliasChangedAt",
  (SELECT o."fittedAt" FROM "OddsModel" o WHERE o."shop" = l."shop") AS "oddsFittedAt",
  (SELECT f."hasEnabledFlow" FROM "FlowTriggerUsage" f WHERE f."shop" = l."shop" AND f."handle" = 'delivery-odds-scored') AS "oddsFlowInUse"`;
const LOAD_BY_ID = statement(
  `SELECT ${LOADED_COLUMNS} FROM "OrderLink" l LEFT JOIN "Shop" s ON s."domain" = l."shop" WHERE l."id" = ?`,
);
const LOAD_BY_ORDER = statement(
  `SELECT ${LOADED_COLUMNS} FROM "OrderLink" l LEFT JOIN "Shop" s ON s."domain" = l."shop" WHERE l."shop" = ? AND l."orderId" = ?`,
);

interface Loaded {
  link: OrderLink;
  shop: Shop | null;
  versions: {
    references: Parameters<typeof currentReferenceData>[2];
    rules: Parameters<typeof currentShopRules>[2];
    odds: OddsVersions;
  };
}

async function loadForPosting(
  db: Sql,
  payload: z.infer<typeof payloadSchema>,
  jobShop: string | null,
): Promise<Loaded | null> {
  const rows =
    "linkId" in payload
      ? await db.all(LOAD_BY_ID, [payload.linkId])
      : jobShop
        ? await db.all(LOAD_BY_ORDER, [jobShop, payload.orderId])
        : [];
  const row = rows[0];
  if (!row) return null;
  const shop = row.s_domain === null || row.s_domain === undefined ? null : modelRow<Shop>("Shop", row, "s_");
  const changedAt = (v: unknown) => (v === null || v === undefined ? null : String(asDate(v)!.getTime()));
  return {
    link: modelRow<OrderLink>("OrderLink", row),
    shop,
    versions: {
      references: {
        catalogueFetchedAt: shop?.catalogueFetchedAt ?? null,
        citiesFetchedAt: shop?.citiesFetchedAt ?? null,
        catalogueBytes: row.catalogueBytes === null ? null : asNumber(row.catalogueBytes),
        citiesBytes: row.citiesBytes === null ? null : asNumber(row.citiesBytes),
      },
      rules: {
        skuCount: asNumber(row.skuCount),
        skuChangedAt: changedAt(row.skuChangedAt),
        aliasCount: asNumber(row.aliasCount),
        aliasChangedAt: changedAt(row.aliasChangedAt),
      },
      odds: { fittedAt: asDate(row.oddsFittedAt), flowInUse: asBool(row.oddsFlowInUse) },
    },
  };
}

/** The last settings parsed per stored text (the same few shops' settings over and over). */
const parsedSettings = new Map<string, ShopSettings>();
function settingsOf(shop: Pick<Shop, "settings">): ShopSettings {
  let settings = parsedSettings.get(shop.settings);
  if (!settings) {
    if (parsedSettings.size >= 64) parsedSettings.delete(parsedSettings.keys().next().value!);
    settings = readShopSettings(shop.settings);
    parsedSettings.set(shop.settings, settings);
  }
  return settings;
}

export async function runPostLead(
  deps: PipelineDeps,
  job: ClaimedJob,
  ctx?: Pick<JobContext, "completion">,
  lookAgain = true,
): Promise<void> {
  const parsed = payloadSchema.safeParse(job.payload);
  if (!parsed.success) throw new PermanentJobError("post-lead payload names no order");
  const { db } = deps;
  const database = sqlDatabaseOf(db);
  const loaded = await loadForPosting(database, parsed.data, job.shop);
  // Erased since (shop/redact, retention): nothing left to post.
  if (!loaded) {
    log.warn(`post-lead ${job.key}: no order link any more; nothing to send`, { job: job.key, shop: job.shop });
    return;
  }
  const state = loaded.link.state as LinkState;
  if (state !== "received" && state !== "retrying" && state !== "posting") return;
  try {
    // Changed while it was mapped: once more as it stands now (a correction is sent, a hold or a cancellation stands).
    if ((await postLink(deps, job, loaded, ctx)) === "moved" && lookAgain) return runPostLead(deps, job, ctx, false);
  } catch (error) {
    // A value the database refuses (old snapshots may still hold a lone surrogate) is refused on every attempt.
    const problem = databaseValueProblem(error);
    if (!problem) throw error;
    await stopOnRefusedValue(db, loaded.link.id, problem);
    throw new PermanentJobError(problem, { cause: error });
  }
}

async function postLink(
  deps: PipelineDeps,
  job: ClaimedJob,
  loaded: Loaded,
  ctx?: Pick<JobContext, "completion">,
): Promise<void | "moved"> {
  const { db } = deps;
  const database = sqlDatabaseOf(db);
  const { link, shop } = loaded;
  const state = link.state as LinkState;
  if (!shop || shop.uninstalledAt) {
    await move(db, link, "held", { reason: notInstalledText() });
    return;
  }
  const finish = { completion: ctx?.completion };

  const connection = tryConnect(deps, shop);
  // An earlier POST may have reached the platform (crash, timeout, 5xx, or a
  // failure before its answer was recorded): look for that lead first.
  const uncertain = link.postingSince !== null || state === "posting";
  if (uncertain) {
    if (!connection) return waitForKey(deps, link, shop);
    // The last POST may still be on its way to the platform (no answer came, or its worker was stopped mid-call):
    // a search now could miss a lead stored a moment later.
    const settledAt = link.updatedAt.getTime() + deps.uncertainSettleMs;
    if (state === "posting" && settledAt > deps.now().getTime())
      throw new RetryLaterError(new Date(settledAt), {
        countAttempt: false,
        reason: english(earlierSendLandingText()),
      });
    let found: CreateLeadResult | undefined;
    try {
      found = await findPostedLead(connection.client, link);
    } catch (error) {
      return handleApiFailure(deps, job, link, shop, error, { uncertain });
    }
    if (found) {
      await recordAnswer(deps, link, shop, found, { recovered: true }, finish);
      return;
    }
  }

  let mapped: MappedOrder;
  try {
    mapped = await mapLink(deps, link, shop, connection, loaded.versions);
  } catch (error) {
    return handleApiFailure(deps, job, link, shop, error, { uncertain });
  }
  const { result } = mapped;
  // What the mapping read: every move it leads to holds only while the link still has it.
  const asMapped = mappingInputsOf(link);
  const settings = settingsOf(shop);
  if (result.decision === "skip" || result.decision === "hold") {
    const to = result.decision === "skip" ? "skipped" : "held";
    const blocking = result.findings.find((f) => f.severity === "blocking");
    const reason = (blocking && findingRef(blocking)) ?? heldByRulesText();
    return move(db, link, to, { reason, timeline: { kind: to, text: reason }, alsoWrite: mapped.write, asMapped });
  }
  // Older than the shop's limit and never sent: only with the merchant's word (an order that may
  // already be on the platform, or whose lead exists, is past that question).
  const placedAt = link.orderCreatedAt ?? link.createdAt;
  if (
    !uncertain &&
    link.leadRef === null &&
    isStaleOrder(placedAt, deps.now(), settings.staleOrderDays) &&
    !parseJson<string[]>(link.flags, []).includes(FLAG_STALE_APPROVED)
  ) {
    const days = ageInDays(placedAt, deps.now());
    const text = staleHeldText(days, settings.staleOrderDays);
    return move(db, link, "held", {
      reason: text,
      timeline: { kind: "held", text, data: { days } },
      alsoWrite: mapped.write,
      asMapped,
    });
  }
  // The order's delivery odds, before anything can hold it: its customer read once for both holds.
  const waived = parseJson<string[]>(link.flags, []).includes(FLAG_CUSTOMER_HOLD_WAIVED);
  const odds = await oddsBeforeSending(deps, {
    link,
    shop,
    settings,
    result,
    references: mapped.references,
    versions: loaded.versions.odds,
    waived,
  });
  // Every path below writes the mapping and the score in the same commit as the link's next state.
  const alsoWrite = async (tx: Sql) => {
    await mapped.write(tx);
    await tx.batch(odds.items);
  };
  const customerDecision =
    settings.customerHold.enabled && odds.customer && !waived
      ? customerHold(odds.customer.history, settings.customerHold, deps.now())
      : { hold: false as const };
  const holdReason = customerDecision.hold ? customerDecision.reason : odds.scored.hold;
  if (holdReason) {
    // The reason as data for the pages (each in its language); English text for readers with no locale (Flow).
    const text = holdReasonRef(holdReason);
    return move(db, link, "held", {
      reason: text,
      timeline: { kind: "customer_hold", text, data: { reason: holdReason } },
      alsoWrite,
      asMapped,
    });
  }
  if (!settings.autoSend && !link.resendAt) {
    const reason = autoSendOffText();
    return move(db, link, "held", { reason, timeline: { kind: "held", text: reason }, alsoWrite, asMapped });
  }
  if (!connection) return waitForKey(deps, link, shop, alsoWrite);

  const posting = { state: "posting", postingSince: link.postingSince ?? deps.now(), reason: null, reasonText: null };
  const sent = { kind: "posted" as const, text: leadSentText(uncertain) };
  // The call's rate-limit slot, reserved with the mark when the limiter knows the key's slot and rate.
  const slot = connection.limiter?.reservationFor(connection.keyId);
  let reservation: Reservation | undefined;
  // One commit and, on PostgreSQL, one statement in it: the mapping, the mark, their timeline rows, the slot.
  // The earliest uncertain attempt is kept: the search for our lead starts there.
  const marked = await database
    .transaction(async (tx) => {
      const counts = await tx.batch([
        ...moveItems({
          link,
          to: "posting",
          reason: null,
          set: { ...mapped.fields, postingSince: posting.postingSince },
          timeline: mapped.entries(sent),
          at: deps.now(),
          // A correction from Shopify, or a merchant's fix and resend, leaves a received link received:
          // only what the mapping read says it changed.
          asMapped: mappingInputsOf(link),
        }),
        ...odds.items,
        ...(slot ? [slot.item] : []),
      ]);
      if (counts[0] !== 1) throw new ChangedMeanwhile();
      if (slot?.settle(counts[counts.length - 1])) reservation = slot.reservation;
      return true;
    })
    .catch(async (error: unknown) => {
      if (!(error instanceof ChangedMeanwhile)) throw error;
      // Changed meanwhile: the mapping is still recorded, the state is left to that change.
      slot?.settle(0);
      await database.transaction((tx) => mapped.write(tx));
      return false;
    });
  // Cancelled, corrected or changed by the merchant meanwhile: that change wins.
  if (!marked) {
    log.warn(`post-lead ${link.shop} ${link.orderName}: the order changed while it was being mapped; not sent now`, {
      shop: link.shop,
      order: link.orderId,
    });
    return "moved";
  }
  Object.assign(link, posting);

  let answer: CreateLeadResult;
  try {
    answer = await withReservation(reservation, () => connection.client.createLead(result.lead!));
  } catch (error) {
    return handleApiFailure(deps, job, link, shop, error, { posting: true, uncertain });
  }
  await recordAnswer(deps, link, shop, answer, { reposted: uncertain }, finish);
}

/** The mapping's columns, in the order of the statements that write them. */
const MAPPED_COLUMNS = ["findings", "leadJson", "phone", "cityId", "totalClient", "totalCents", "productKeys"] as const;
type MappedFields = Pick<LinkColumns, (typeof MAPPED_COLUMNS)[number]>;
const mappedValues = (fields: MappedFields) => MAPPED_COLUMNS.map((c) => fields[c]);
const SET_MAPPED = MAPPED_COLUMNS.map((c) => `"${c}" = ?`).join(", ");

const WRITE_MAPPED = statement(`UPDATE "OrderLink" SET ${SET_MAPPED}, "updatedAt" = ? WHERE "id" = ?`);

function tryConnect(deps: PipelineDeps, shop: Shop): ShopConnection | undefined {
  try {
    return deps.connect(shop);
  } catch (error) {
    if (error instanceof ShopNotConnectedError) return undefined;
    throw error;
  }
}

async function waitForKey(
  deps: PipelineDeps,
  link: OrderLink,
  shop: Shop,
  alsoWrite?: MoveOptions["alsoWrite"],
): Promise<never> {
  const reason = waitingForKeyText(Boolean(shop.pausedReason));
  const to: LinkState = link.state === "posting" ? "posting" : "received";
  await move(deps.db, link, to, { reason, alsoWrite });
  throw new RetryLaterError(WAIT_FOR_KEY_MS, { countAttempt: false, reason: english(reason) });
}

/** A mapped order: the result, and the rows that record it, written by the caller's next commit. */
interface MappedOrder {
  result: MappingResult;
  /** The catalogue and cities the order was mapped with (the odds read the prices and fees). */
  references: { catalogue: CatalogueProduct[]; cities: City[] };
  fields: MappedFields;
  /** Its timeline rows, then `then`'s. */
  entries(then?: { kind: TimelineKind; text: MessageRef }): TimelineEntry[];
  /** The mapping's fields and timeline rows, in the caller's transaction. */
  write(tx: Sql): Promise<void>;
}

/** The link moved since it was read (a merchant's action, another attempt): the mark or the answer is rolled back. */
class ChangedMeanwhile extends Error {}

/** Maps the stored order with the shop's rules, refreshing stale reference lists first. */
async function mapLink(
  deps: PipelineDeps,
  link: OrderLink,
  shop: Shop,
  connection: ShopConnection | undefined,
  versions: Loaded["versions"],
): Promise<MappedOrder> {
  const { db } = deps;
  const now = deps.now();
  let references = await currentReferenceData(db, shop, versions.references, connection?.client, { now });
  const order = applyOverrides(
    fromWebhookOrder(JSON.parse(link.payload)),
    parseJson<OrderOverrides>(link.overrides, {}),
  );
  const rules = await currentShopRules(db, shop, versions.rules);
  const recentLeads = await recentLeadsFor(deps, link, order, rules.settings.duplicateWindowMinutes);
  const context = () => mappingContext(references, rules, { now, currency: order.currency, recentLeads });
  let result = mapOrderToLead(order, context());
  if (result.needsRefresh.length > 0 && connection) {
    references = await currentReferenceData(db, shop, versions.references, connection.client, {
      now,
      force: result.needsRefresh,
    });
    result = mapOrderToLead(order, context());
  }
  const warnings = result.findings.filter((f) => f.severity === "warning").length;
  const blocking = result.findings.length - warnings;
  const row = (kind: TimelineKind, text: MessageRef, at: Date, data?: unknown): TimelineEntry => ({
    kind,
    text,
    at,
    data,
  });
  const mappedRow = row("mapped", checkedText(result.decision, blocking, warnings), now, {
    decision: result.decision,
    findings: result.findings.map((f) => f.code),
  });
  // Intake writes no timeline row (it must stay small): the first look at the
  // order records its arrival (an imported order's, when it was placed: its import has a row of its own).
  // Only a link never mapped has neither a lead nor a finding.
  const firstLook = link.leadJson === null && link.findings === "[]";
  const receivedRow = link.importedAt
    ? row("placed", placedText(link.orderName), link.createdAt)
    : row("received", receivedText(link.orderName), link.createdAt);
  const fields: MappedFields = {
    findings: JSON.stringify(result.findings),
    leadJson: result.lead ? JSON.stringify(result.lead) : null,
    phone: result.phone ?? null,
    cityId: result.city?.id ?? null,
    totalClient: result.totalClient ?? null,
    totalCents: totalCentsOf(result.totalClient),
    productKeys: JSON.stringify(result.productKeys),
  };
  const entries = (then?: { kind: TimelineKind; text: MessageRef }) => [
    ...(firstLook ? [receivedRow] : []),
    mappedRow,
    ...(then ? [row(then.kind, then.text, deps.now())] : []),
  ];
  return {
    result,
    references: { catalogue: references.catalogue, cities: references.cities },
    fields,
    entries,
    async write(tx) {
      await tx.run(WRITE_MAPPED, [...mappedValues(fields), deps.now(), link.id]);
      await addTimelineRows(
        tx,
        entries().map((e) => timelineRow(link.shop, link.id, e)),
      );
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

/**
 * A phone's most recent leads the duplicate check looks at: a number shared by
 * hundreds of orders in the window (a reseller, a placeholder number) would
 * otherwise make each posting read them all.
 */
export const RECENT_LEADS_LOOKED_AT = 50;

// One phone per statement: with equality on (shop, phone) the database reads the
// (shop, phone, postedAt) index backwards and stops at the limit
// (test/db/query-plans.test.ts).
export const RECENT_LEADS =
  statement(`SELECT "phone", "productKeys", "postedAt", "orderId", "orderName" FROM "OrderLink"
    WHERE "shop" = ? AND "phone" = ? AND "postedAt" >= ? AND "id" <> ?
    ORDER BY "postedAt" DESC LIMIT ${RECENT_LEADS_LOOKED_AT}`);

/** The shop's most recent leads with the same phone inside the duplicate window (RECENT_LEADS_LOOKED_AT of them at most). */
async function recentLeadsFor(
  deps: PipelineDeps,
  link: OrderLink,
  order: ShopOrder,
  windowMinutes: number,
): Promise<RecentLead[]> {
  const candidates = [order.shippingAddress?.phone, order.phone, order.customer?.phone, order.billingAddress?.phone];
  const phones = [...new Set(candidates.map((p) => normalizeMoroccanPhone(p)).flatMap((r) => (r.ok ? [r.phone] : [])))];
  if (phones.length === 0 || windowMinutes <= 0) return [];
  const since = new Date(deps.now().getTime() - windowMinutes * 60_000);
  const database = sqlDatabaseOf(deps.db);
  const rows = [];
  // Usually one phone: the order's numbers are most often the same one.
  for (const phone of phones) rows.push(...(await database.all(RECENT_LEADS, [link.shop, phone, since, link.id])));
  const leads = rows.map((r) => ({
    phone: String(r.phone),
    productKeys: parseJson<string[]>(asString(r.productKeys), []),
    createdAt: asDate(r.postedAt)!,
    orderId: String(r.orderId),
    orderName: String(r.orderName),
  }));
  return phones.length === 1
    ? leads
    : leads.sort((a, b) => b.createdAt.getTime() - a.createdAt.getTime()).slice(0, RECENT_LEADS_LOOKED_AT);
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

/**
 * The answer in one commit: the link, its timeline row, its lead event (told
 * later, in a batch) and the job's completion; nothing when the link moved meanwhile.
 */
async function recordAnswer(
  deps: PipelineDeps,
  link: OrderLink,
  shop: Shop,
  answer: CreateLeadResult,
  how: { recovered?: boolean; reposted?: boolean },
  finish: Partial<Pick<JobContext, "completion">>,
): Promise<void> {
  const now = deps.now();
  const flags = new Set(parseJson<string[]>(link.flags, []));
  const anomalies = answer.kind === "damaged" ? answer.anomalies : [];
  if (how.reposted && anomalies.some((a) => a.code === "recent_duplicate"))
    flags.add(FLAG_DUPLICATE_AFTER_NETWORK_FAILURE);
  const completion = finish.completion?.();
  // A new lead: a parcel number and profit of an earlier one are not its own.
  const lead = {
    leadRef: answer.ref ?? null,
    anomalies: JSON.stringify(anomalies),
    confirmationStatus: "new",
    shippingStatus: "pending",
    trackingNumber: null,
    sellerProfit: null,
  };
  // Independent writes in one statement, in a transaction rolled back when the link moved meanwhile: a statement
  // sees the link as it was when it began, so only the UPDATE's own count says this move was made.
  const counts = await sqlDatabaseOf(deps.db)
    .transaction(async (tx) => {
      const written = await tx.batch([
        ...moveItems({
          link,
          to: answer.kind,
          reason: null,
          set: {
            ...lead,
            flags: JSON.stringify([...flags]),
            postingSince: null,
            postedAt: now,
            postCount: { add: how.recovered ? 0 : 1 },
            statusFinal: false,
          },
          timeline: [
            {
              kind: "answered",
              text: leadAnsweredText(answer.ref ?? null, anomalies, Boolean(how.recovered)),
              data: { ref: answer.ref, anomalies },
            },
          ],
          at: now,
        }),
        ...wakeJobsItems(writeBackWakes(settingsOf(shop), [{ ...link, ...lead }], now), now),
        ...(completion ? [completion.item] : []),
      ]);
      if (written[0] !== 1) throw new ChangedMeanwhile();
      return written;
    })
    .catch((error: unknown) => {
      if (!(error instanceof ChangedMeanwhile)) throw error;
      return null;
    });
  // Moved meanwhile (another attempt recorded this lead, or failed): that move stands, and no second POST follows.
  // The job ends as done, outside the rolled-back commit; a link not posted keeps postingSince, so its next send
  // looks for this lead first.
  if (!counts) {
    log.warn(`post-lead ${link.shop} ${link.orderName}: the order moved while its answer was recorded; left as it is`, {
      shop: link.shop,
      order: link.orderId,
    });
    return;
  }
  completion?.completed(counts[counts.length - 1]);
  recordOrderToLead(link.createdAt, now);
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
    await move(db, link, "invalid", {
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
    await move(db, link, to, { reason, postingSince });
    throw new RetryLaterError(WAIT_FOR_KEY_MS, { countAttempt: false, reason: english(reason) });
  }
  if (outcome.kind === "later") {
    const reason = rateLimitedText(Math.ceil(outcome.delayMs / 1000));
    // A 429 (or our own limiter) means this call was not made or was refused.
    const { to, postingSince } = refusedState(context.posting ? "retrying" : (link.state as LinkState));
    await move(db, link, to, { reason, postingSince });
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
  await move(db, link, to, {
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
    await move(db, link, "failed", {
      reason,
      timeline: { kind: "failed", text: reason, data: { detail: problem } },
    });
  } catch (error) {
    console.error(
      `post-lead ${link.shop} ${link.orderName}: could not record the refused value (${databaseValueProblem(error) ?? "database error"})`,
    );
  }
}

interface MoveOptions {
  reason?: MessageRef | null;
  postingSince?: null;
  timeline?: {
    kind: "held" | "skipped" | "answered" | "retrying" | "failed" | "customer_hold";
    text: MessageRef;
    data?: unknown;
  };
  /** Rows to write in the same commit (the mapping that led to this move). */
  alsoWrite?: MappedOrder["write"];
  /** What the mapping read, when the move follows from it: a fix or correction since makes it stand back. */
  asMapped?: MappingInputs;
}

/** The link's next state (through the door), its timeline row and the mapping that led there, in one commit. */
/** "moved" when the link changed meanwhile and the move stood back. */
async function move(
  db: PipelineDeps["db"],
  link: OrderLink,
  to: LinkState,
  options: MoveOptions,
): Promise<void | "moved"> {
  const moved = await sqlDatabaseOf(db).transaction(async (tx) => {
    await options.alsoWrite?.(tx);
    return moveLink(tx, {
      link,
      to,
      reason: options.reason ?? null,
      set: options.postingSince === null ? { postingSince: null } : {},
      timeline: options.timeline ? [options.timeline] : [],
      at: new Date(),
      ...(options.asMapped ? { asMapped: options.asMapped } : {}),
    });
  });
  // Changed by the merchant or Shopify meanwhile: that change wins (the mapping is still recorded).
  if (moved) return;
  log.warn(`post-lead ${link.shop} ${link.orderName}: the order changed meanwhile; not moved to ${to}`, {
    shop: link.shop,
    order: link.orderId,
  });
  return "moved";
}

function parseJson<T>(json: string | null | undefined, fallback: T): T {
  if (!json) return fallback;
  try {
    return JSON.parse(json) as T;
  } catch {
    return fallback;
  }
}
