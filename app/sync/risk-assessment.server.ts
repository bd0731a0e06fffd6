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
import type { ClaimedJob } from "../queue/types";
import { jobErrorFor, shopifyOutcome } from "../models/job-outcomes";
import { addTimeline } from "../models/timeline.server";
import { msg } from "../i18n/message-ref";
import { assessmentKey } from "../odds/assessment";
import { runAdminGraphql, throwIfUserErrors, type AdminFor } from "../shopify/admin-graphql.server";
import { ORDER_RISK_ASSESSMENT_CREATE } from "../shopify/documents";
import { assessmentOf, oddsModelFor, oddsOfLinks } from "../customers/delivery-odds.server";
import { customerHoldReasons } from "../customers/hold-reasons.server";
import type { PipelineDeps } from "./pipeline-deps.server";

const payloadSchema = z.object({ linkId: z.string().min(1) });

interface CreateAnswer {
  orderRiskAssessmentCreate: {
    orderRiskAssessment: { riskLevel: string } | null;
    userErrors: { field: string[] | null; message: string; code: string | null }[];
  } | null;
}

const LEVEL_WORDS = { HIGH: "odds.level.high", MEDIUM: "odds.level.medium", LOW: "odds.level.low" } as const;

export type RiskAssessmentResult = "written" | "unchanged" | "nothing" | "too_late";

/** Shopify's answers that no later attempt changes: the order is fulfilled (no new assessment) or gone. */
const FINAL_REFUSALS = new Set(["ORDER_ALREADY_FULFILLED", "NOT_FOUND"]);

export async function writeRiskAssessment(
  deps: Pick<PipelineDeps, "db" | "now"> & { adminFor: AdminFor },
  linkId: string,
): Promise<RiskAssessmentResult> {
  const { db } = deps;
  const link = await db.orderLink.findUnique({
    where: { id: linkId },
    select: { id: true, shop: true, orderId: true, state: true, cancelledAt: true },
  });
  if (!link || link.cancelledAt) return "nothing";
  const [shop, stored] = await Promise.all([
    db.shop.findUnique({ where: { domain: link.shop }, select: { uninstalledAt: true } }),
    db.orderOdds.findUnique({
      where: { linkId },
      select: { modelFittedAt: true, assessedHash: true },
    }),
  ]);
  // Uninstalled (the token is revoked), or the score erased since (customers/redact): nothing to write.
  if (!shop || shop.uninstalledAt || !stored) return "nothing";
  const view = (await oddsOfLinks(db, link.shop, [linkId])).get(linkId)!;
  const model = await oddsModelFor(db, link.shop, stored.modelFittedAt);
  const hold = link.state === "held" ? (await customerHoldReasons(db, link.shop, [linkId])).get(linkId) : undefined;
  const { level, facts } = assessmentOf(view, model.context.shopRate, hold && "reason" in hold ? hold.reason : null);
  const key = assessmentKey(level, facts);
  if (key === stored.assessedHash) return "unchanged";

  const admin = await deps.adminFor(link.shop);
  const data = await runAdminGraphql<CreateAnswer>(admin, ORDER_RISK_ASSESSMENT_CREATE, {
    input: { orderId: `gid://shopify/Order/${link.orderId}`, riskLevel: level, facts },
  });
  const userErrors = data.orderRiskAssessmentCreate?.userErrors ?? [];
  const now = deps.now();
  // An order imported after it was fulfilled (a backfill) takes no assessment: kept as done, not retried.
  if (userErrors.length > 0 && userErrors.every((e) => e.code !== null && FINAL_REFUSALS.has(e.code))) {
    await db.orderOdds.updateMany({ where: { linkId }, data: { assessedHash: key, assessedAt: now } });
    return "too_late";
  }
  throwIfUserErrors("OrderRiskAssessmentCreate", "write the order's risk assessment", userErrors);
  await db.orderOdds.updateMany({ where: { linkId }, data: { assessedHash: key, assessedAt: now } });
  await addTimeline(db, link.shop, linkId, {
    kind: "risk_assessed",
    text: msg("odds.timeline.assessed", { level: msg(LEVEL_WORDS[level]) }),
    data: { level, facts: facts.length },
    at: now,
  });
  return "written";
}

export async function runRiskAssessmentJob(
  deps: Pick<PipelineDeps, "db" | "now"> & { adminFor: AdminFor },
  job: ClaimedJob,
): Promise<void> {
  const parsed = payloadSchema.safeParse(job.payload);
  if (!parsed.success) throw new PermanentJobError("risk-assessment payload names no order");
  try {
    await writeRiskAssessment(deps, parsed.data.linkId);
  } catch (error) {
    // THROTTLED waits for the bucket; a refusal (a fulfilled order, an unknown one) is final; the rest backs off.
    throw jobErrorFor(shopifyOutcome(error), error);
  }
}
