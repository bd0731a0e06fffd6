/**
 * The "risk-assessment" job: an order's delivery odds on its own Shopify risk
 * card (orderRiskAssessmentCreate: a level and facts), which Shopify shows on
 * the order and Flow can act on (orders/risk_assessment_changed). Queued with
 * every score (app/sync/delivery-odds.server.ts); it writes the latest score
 * and nothing when Shopify already shows it (the content's key is kept on the
 * score), so an assessment is written once per change.
 */
import { z } from "zod";
import { PermanentJobError } from "../queue/errors";
import type { ClaimedJob, JobContext } from "../queue/types";
import { jobErrorFor, shopifyOutcome } from "../models/job-outcomes";
import { timelineItems, timelineRow, type TimelineEntry } from "../models/timeline.server";
import { asDate, asString, sqlDatabaseOf, statement, type SqlDatabase } from "../db/sql";
import { msg } from "../i18n/message-ref";
import { assessmentKey, nothingToGainFacts } from "../odds/assessment";
import { oddsStandingOf, stopCostOf, type StopCost } from "../odds/standing";
import { readShopSettings } from "../models/shop-settings";
import type { City } from "../leads/types";
import { runAdminGraphql, throwIfUserErrors, type AdminFor } from "../shopify/admin-graphql.server";
import { ORDER_RISK_ASSESSMENT_CREATE } from "../shopify/documents";
import {
  assessmentOf,
  deliveryFeeCents,
  oddsModelFor,
  oddsOfLinks,
  oddsPolicyOf,
} from "../customers/delivery-odds.server";
import { customerHoldReasons } from "../customers/hold-reasons.server";
import type { PipelineDeps } from "./pipeline-deps.server";

const payloadSchema = z.object({ linkId: z.string().min(1) });

interface CreateAnswer {
  orderRiskAssessmentCreate: {
    orderRiskAssessment: { riskLevel: string } | null;
    userErrors: { field: string[] | null; message: string; code: string | null }[];
  } | null;
}

const LEVEL_WORDS = {
  HIGH: "odds.level.high",
  MEDIUM: "odds.level.medium",
  LOW: "odds.level.low",
  NONE: "odds.level.none",
} as const;

export type RiskAssessmentResult = "written" | "unchanged" | "nothing" | "too_late";

/** Shopify's answers that no later attempt changes: the order is fulfilled (no new assessment) or gone. */
const FINAL_REFUSALS = new Set(["ORDER_ALREADY_FULFILLED", "NOT_FOUND"]);

/** The link, its shop's install and its stored score's model and last assessment, in one read. */
const READ_LINK = statement(`SELECT l."id", l."shop", l."orderId", l."state", l."cancelledAt",
    l."confirmationStatus", l."shippingStatus", l."mismatch", l."cityId",
    s."domain" AS "shopDomain", s."uninstalledAt", o."linkId" AS "scored", o."modelFittedAt", o."assessedHash"
  FROM "OrderLink" l LEFT JOIN "Shop" s ON s."domain" = l."shop" LEFT JOIN "OrderOdds" o ON o."linkId" = l."id"
  WHERE l."id" = ?`);

const SET_ASSESSED = statement(`UPDATE "OrderOdds" SET "assessedHash" = ?, "assessedAt" = ? WHERE "linkId" = ?`);

export async function writeRiskAssessment(
  deps: Pick<PipelineDeps, "db" | "now"> & { adminFor: AdminFor },
  linkId: string,
  finish: Partial<Pick<JobContext, "completion">> = {},
): Promise<RiskAssessmentResult> {
  const { db } = deps;
  const database = sqlDatabaseOf(db);
  const [row] = await database.all(READ_LINK, [linkId]);
  if (!row) return "nothing";
  const link = { id: String(row.id), shop: String(row.shop), orderId: String(row.orderId), state: String(row.state) };
  // Uninstalled (the token is revoked), or the score erased since (customers/redact): nothing to write.
  if (row.shopDomain === null || asDate(row.uninstalledAt) || row.scored === null) return "nothing";
  const standing = oddsStandingOf({
    state: link.state,
    confirmationStatus: asString(row.confirmationStatus),
    shippingStatus: asString(row.shippingStatus),
    cancelled: asDate(row.cancelledAt) !== null,
    refunded: row.mismatch === "refunded",
  });
  const { level, facts } =
    standing.kind === "stop" || standing.kind === "cancelled"
      ? {
          level: "NONE" as const,
          facts: nothingToGainFacts(standing, await stopCostOfLink(db, link.shop, row.cityId)),
        }
      : await scoredAssessment(db, link, linkId, asDate(row.modelFittedAt));
  const key = assessmentKey(level, facts);
  if (key === asString(row.assessedHash)) return "unchanged";

  const admin = await deps.adminFor(link.shop);
  const data = await runAdminGraphql<CreateAnswer>(admin, ORDER_RISK_ASSESSMENT_CREATE, {
    input: { orderId: `gid://shopify/Order/${link.orderId}`, riskLevel: level, facts },
  });
  const userErrors = data.orderRiskAssessmentCreate?.userErrors ?? [];
  const now = deps.now();
  // An order imported after it was fulfilled (a backfill) takes no assessment: kept as done, not retried.
  if (userErrors.length > 0 && userErrors.every((e) => e.code !== null && FINAL_REFUSALS.has(e.code))) {
    await recordAssessed(database, link, key, now, null, finish);
    return "too_late";
  }
  throwIfUserErrors("OrderRiskAssessmentCreate", "write the order's risk assessment", userErrors);
  const entry: TimelineEntry = {
    kind: "risk_assessed",
    text: msg("odds.timeline.assessed", { level: msg(LEVEL_WORDS[level]) }),
    data: { level, facts: facts.length },
    at: now,
  };
  await recordAssessed(database, link, key, now, entry, finish);
  return "written";
}

/** The stored score as Shopify's risk card reads it: the odds' level and facts. */
async function scoredAssessment(
  db: PipelineDeps["db"],
  link: { shop: string; state: string },
  linkId: string,
  modelFittedAt: Date | null,
) {
  const view = (await oddsOfLinks(db, link.shop, [linkId])).get(linkId)!;
  const model = await oddsModelFor(db, link.shop, modelFittedAt);
  const hold = link.state === "held" ? (await customerHoldReasons(db, link.shop, [linkId])).get(linkId) : undefined;
  return assessmentOf(view, model.context.shopRate, hold && "reason" in hold ? hold.reason : null);
}

/** What the link's parcel out and back costs: its city's fee (the shop's cached cities) and the shop's own cost. */
async function stopCostOfLink(db: PipelineDeps["db"], shop: string, cityId: unknown): Promise<StopCost> {
  const row = await db.shop.findUnique({ where: { domain: shop }, select: { citiesJson: true, settings: true } });
  const { refusalCostCents } = oddsPolicyOf(readShopSettings(row?.settings));
  if (typeof cityId !== "number") return stopCostOf(null, refusalCostCents);
  let cities: City[] = [];
  try {
    cities = row?.citiesJson ? (JSON.parse(row.citiesJson) as City[]) : [];
  } catch {
    cities = [];
  }
  return stopCostOf(deliveryFeeCents(cityId, cities), refusalCostCents);
}

/** The assessment written, its timeline row and the job's completion: one statement, all or none. */
async function recordAssessed(
  database: SqlDatabase,
  link: { id: string; shop: string },
  key: string,
  now: Date,
  entry: TimelineEntry | null,
  finish: Partial<Pick<JobContext, "completion">>,
): Promise<void> {
  const completion = finish.completion?.();
  const counts = await database.batch([
    { statement: SET_ASSESSED, params: [key, now, link.id] },
    ...(entry ? timelineItems([timelineRow(link.shop, link.id, entry)]) : []),
    ...(completion ? [completion.item] : []),
  ]);
  completion?.completed(counts[counts.length - 1]);
}

export async function runRiskAssessmentJob(
  deps: Pick<PipelineDeps, "db" | "now"> & { adminFor: AdminFor },
  job: ClaimedJob,
  ctx?: Pick<JobContext, "completion">,
): Promise<void> {
  const parsed = payloadSchema.safeParse(job.payload);
  if (!parsed.success) throw new PermanentJobError("risk-assessment payload names no order");
  try {
    await writeRiskAssessment(deps, parsed.data.linkId, { completion: ctx?.completion });
  } catch (error) {
    // THROTTLED waits for the bucket; a refusal (a fulfilled order, an unknown one) is final; the rest backs off.
    throw jobErrorFor(shopifyOutcome(error), error);
  }
}
