/**
 * An order's delivery odds, scored by the post-lead job before the order is
 * sent: its customer's record (this store and the stores that share with it
 * through a pairing), the shop's model (fitted on its own orders, else the
 * pooled default), the order's city, products, amount and shape, and the money
 * (the platform's prices and the city's fee). The shop's policy may hold it:
 * the hold is the customer hold's own (a customer_hold step on the timeline,
 * "Send anyway" waives it). The score is stored (OrderOdds) with the order's
 * next state, and its risk assessment and Flow trigger queued in that commit.
 */
import type { Prisma, Shop } from "@prisma/client";
import type { Db } from "../db.server";
import { asDate, asString, sqlDatabaseOf, statement, type BatchItem } from "../db/sql";
import { t, type MessageKey, type MessageParams } from "../i18n";
import type { CatalogueProduct, City } from "../leads/types";
import { toCents } from "../leads/money";
import { normalizeSku } from "../leads";
import { insertNewJobsItem, turnItem, wakeJobsItem } from "../queue/job-sql";
import { enqueueJob, newJob, type EnqueueJobInput } from "../queue/jobs.server";
import { riskAssessmentJobFor } from "../models/job-kinds";
import type { ShopSettings } from "../models/shop-settings";
import {
  decide,
  expectedValue,
  releasedRiskLevel,
  riskLevelOf,
  type OddsPolicy,
  type OddsRiskLevel,
} from "../odds/decision";
import { oddsReasons, parseOddsReasons, type OddsReason } from "../odds/explain";
import { RECENT_HOURS, type CustomerFacts, type OrderFacts } from "../odds/features";
import { compileModel, priorModel, scoreOrder, type OddsModel } from "../odds/model";
import { riskFacts, type RiskFact } from "../odds/assessment";
import { addressIncomplete } from "../odds/features";
import { holdReasonText, type HoldReason } from "./hold-reason";
import { sharingPeers } from "./sharing.server";
import { FAILED_OUTCOMES, type DeliveryOutcome } from "./outcome";
import type { CustomerHistory } from "./risk";
import { loadOddsModel } from "./odds-fit.server";

type Reader = Db | Prisma.TransactionClient;
type ShopConsent = Pick<Shop, "domain" | "settings" | "sellerAccount" | "sellerApiBaseUrl" | "uninstalledAt">;

// ---------------------------------------------------------------------------
// The shop's model, kept parsed per process while its fit holds

const MODELS_KEPT = 256;
const models = new Map<string, { fittedAt: number; model: OddsModel }>();
const PRIOR = compileModel(priorModel());

/**
 * The shop's compiled model. `fittedAt` is the stored model's time as the
 * caller read it (null: none yet, the pooled default): a model already parsed
 * for that time costs no statement.
 */
export async function oddsModelFor(db: Reader, shop: string, fittedAt: Date | null): Promise<OddsModel> {
  if (fittedAt === null) return PRIOR;
  const known = models.get(shop);
  if (known && known.fittedAt === fittedAt.getTime()) return known.model;
  const stored = await loadOddsModel(db, shop);
  if (!stored) return PRIOR;
  const model = compileModel(stored.model);
  if (models.size >= MODELS_KEPT && !models.has(shop)) models.delete(models.keys().next().value!);
  models.set(shop, { fittedAt: stored.fittedAt.getTime(), model });
  return model;
}

// ---------------------------------------------------------------------------
// The customer: one read for the hold rule and the odds

const OWN_OUTCOMES = statement(`SELECT r."standing", c."outcome", c."outcomeAt", c."orderedAt"
  FROM (SELECT 1 AS "one") x
  LEFT JOIN "CustomerRecord" r ON r."shop" = ? AND r."phoneKey" = ?
  LEFT JOIN "CustomerLead" c ON c."shop" = ? AND c."phoneKey" = ? AND c."linkId" <> ?`);

export interface OddsCustomer {
  /** What the customer hold reads (app/customers/risk.ts). */
  history: CustomerHistory;
  /** What the odds read. */
  facts: CustomerFacts;
}

/** Counts of outcomes before `placedAt`, and orders sent in the RECENT_HOURS before it. */
export function customerFactsOf(
  outcomes: readonly { outcome: DeliveryOutcome; orderedAt: Date }[],
  placedAt: Date,
): CustomerFacts {
  const facts: CustomerFacts = { delivered: 0, failed: 0, wrongNumber: 0, inProgress: 0, recentOrders: 0 };
  const since = placedAt.getTime() - RECENT_HOURS * 3600_000;
  for (const { outcome, orderedAt } of outcomes) {
    if (outcome === "delivered") facts.delivered += 1;
    else if (outcome === "wrong_number") facts.wrongNumber += 1;
    else if (outcome === "in_progress") facts.inProgress += 1;
    else if ((FAILED_OUTCOMES as readonly string[]).includes(outcome)) facts.failed += 1;
    if (orderedAt.getTime() > since && orderedAt.getTime() <= placedAt.getTime()) facts.recentOrders += 1;
  }
  return facts;
}

/**
 * The phone's standing and outcomes in this store (one statement), and in the
 * stores that share with it (none unless paired and consenting: no statement).
 */
export async function oddsCustomer(
  db: Db,
  shop: ShopConsent,
  phoneKey: string,
  exceptLinkId: string,
  placedAt: Date,
): Promise<OddsCustomer> {
  const rows = await sqlDatabaseOf(db).all(OWN_OUTCOMES, [shop.domain, phoneKey, shop.domain, phoneKey, exceptLinkId]);
  const standing = asString(rows[0]?.standing);
  const outcomes = rows
    .filter((r) => r.outcome !== null && r.outcome !== undefined)
    .map((r) => ({
      outcome: String(r.outcome) as DeliveryOutcome,
      at: asDate(r.outcomeAt)!,
      orderedAt: asDate(r.orderedAt)!,
    }));
  const peers = await sharingPeers(db, shop);
  if (peers.length > 0) {
    const shared = await db.customerLead.findMany({
      where: { shop: { in: peers }, phoneKey },
      select: { outcome: true, outcomeAt: true, orderedAt: true },
    });
    for (const s of shared)
      outcomes.push({ outcome: s.outcome as DeliveryOutcome, at: s.outcomeAt, orderedAt: s.orderedAt });
  }
  return {
    history: {
      standing: standing === "blocked" || standing === "trusted" ? standing : null,
      outcomes: outcomes.map(({ outcome, at }) => ({ outcome, at })),
    },
    facts: customerFactsOf(outcomes, placedAt),
  };
}

// ---------------------------------------------------------------------------
// The money: the platform's prices and the city's fee

type LeadItem = { sku?: string; product_id?: number; quantity: number };

/** The platform's prices of the items times their quantities; null when one is not in the catalogue. */
export function platformCostCents(items: readonly LeadItem[], catalogue: readonly CatalogueProduct[]): number | null {
  let total = 0;
  for (const item of items) {
    const product =
      item.product_id !== undefined
        ? catalogue.find((p) => p.id === item.product_id)
        : catalogue.find(
            (p) =>
              normalizeSku(p.sku) === normalizeSku(item.sku ?? "") ||
              p.variants?.some((v) => v.sku && normalizeSku(v.sku) === normalizeSku(item.sku ?? "")),
          );
    const price = product ? toCents(product.platform_price) : undefined;
    if (price === undefined) return null;
    total += price * item.quantity;
  }
  return total;
}

export function deliveryFeeCents(cityId: number | null, cities: readonly City[]): number | null {
  if (cityId === null) return null;
  const fee = toCents(cities.find((c) => c.id === cityId)?.delivery_fee);
  return fee === undefined ? null : fee;
}

// ---------------------------------------------------------------------------
// Scoring an order before it is sent

export interface OddsOrder {
  linkId: string;
  orderId: string;
  placedAt: Date;
  lead: { items: LeadItem[]; address?: string | null; total_client?: string | null };
  cityId: number | null;
  productKeys: readonly string[];
}

export interface ScoredOdds {
  probability: number;
  level: OddsRiskLevel;
  reasons: OddsReason[];
  value: ReturnType<typeof expectedValue>;
  /** Set when the shop's policy holds the order. */
  hold: HoldReason | null;
  shopRate: number;
  modelFittedAt: Date | null;
}

export const oddsPolicyOf = (settings: ShopSettings): OddsPolicy => ({
  policy: settings.deliveryOdds.policy,
  minProbability: settings.deliveryOdds.minPercent / 100,
  refusalCostCents: settings.deliveryOdds.refusalCost * 100,
});

/** The order's odds, reasons, value and the policy's decision. Pure once its inputs are read. */
export function scoreForSending(
  order: OddsOrder,
  customer: CustomerFacts | null,
  model: OddsModel,
  references: { catalogue: readonly CatalogueProduct[]; cities: readonly City[] },
  settings: ShopSettings,
  options: { waived: boolean; modelFittedAt: Date | null },
): ScoredOdds {
  const amount = order.lead.total_client ? toCents(order.lead.total_client) : undefined;
  const facts: OrderFacts = {
    amountCents: amount ?? null,
    quantity: order.lead.items.reduce((n, i) => n + i.quantity, 0),
    cityId: order.cityId,
    productKeys: order.productKeys,
    addressIncomplete: addressIncomplete(order.lead.address),
    customer,
  };
  const score = scoreOrder(model, facts);
  const names = new Map(references.catalogue.map((p) => [`product:${p.id}`, p.name]));
  const reasons = oddsReasons(model, facts, score, {
    city: order.cityId === null ? null : (references.cities.find((c) => c.id === order.cityId)?.name ?? null),
    product: (key) => names.get(key) ?? null,
  });
  const policy = oddsPolicyOf(settings);
  const value = expectedValue(
    score.probability,
    {
      amountCents: amount ?? null,
      platformCostCents: platformCostCents(order.lead.items, references.catalogue),
      deliveryFeeCents: deliveryFeeCents(order.cityId, references.cities),
    },
    model.stored.returnShare,
    policy.refusalCostCents,
  );
  const decision = options.waived ? ({ hold: false } as const) : decide(score.probability, value, policy);
  const hold: HoldReason | null = decision.hold
    ? {
        code: "delivery_odds",
        counts: {},
        days: 0,
        blocked: false,
        odds: {
          probability: score.probability,
          rule: decision.rule,
          releaseAt: decision.releaseAt,
          valueCents: value?.valueCents ?? null,
          reasons,
        },
      }
    : null;
  return {
    probability: score.probability,
    level: riskLevelOf(score.probability, value, decision.hold, model.context.shopRate),
    reasons,
    value,
    hold,
    shopRate: model.context.shopRate,
    modelFittedAt: options.modelFittedAt,
  };
}

const UPSERT_ODDS = statement(`INSERT INTO "OrderOdds" ("linkId", "shop", "probability", "valueCents", "marginCents",
    "lossCents", "breakEven", "level", "held", "reasons", "modelFittedAt", "scoredAt")
  VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
  ON CONFLICT ("linkId") DO UPDATE SET "probability" = excluded."probability", "valueCents" = excluded."valueCents",
    "marginCents" = excluded."marginCents", "lossCents" = excluded."lossCents", "breakEven" = excluded."breakEven",
    "level" = excluded."level", "held" = excluded."held", "reasons" = excluded."reasons",
    "modelFittedAt" = excluded."modelFittedAt", "scoredAt" = excluded."scoredAt",
    "releasedAt" = CASE WHEN excluded."held" THEN NULL ELSE "OrderOdds"."releasedAt" END`);

/**
 * The statements that record a score in the caller's commit: the row, its risk
 * assessment's job and the caller's other jobs (the Flow trigger, when in use),
 * and the shop's turn in the queue.
 */
export function scoredOddsItems(
  shop: string,
  order: Pick<OddsOrder, "linkId" | "orderId">,
  scored: ScoredOdds,
  options: { now: Date; newJobs?: readonly EnqueueJobInput[] },
): BatchItem[] {
  const { now } = options;
  return [
    {
      statement: UPSERT_ODDS,
      params: [
        order.linkId,
        shop,
        scored.probability,
        scored.value?.valueCents ?? null,
        scored.value?.marginCents ?? null,
        scored.value?.lossCents ?? null,
        scored.value?.breakEven ?? null,
        scored.level,
        scored.hold !== null,
        JSON.stringify(scored.reasons),
        scored.modelFittedAt,
        now,
      ],
    },
    // One write per order at a time; the job writes the latest score, and nothing when Shopify already shows it.
    wakeJobsItem([newJob(riskAssessmentJobFor(shop, order.orderId, order.linkId), now)], now),
    ...(options.newJobs ?? []).map((job) => insertNewJobsItem([newJob(job, now)], now)),
    turnItem(shop),
  ];
}

// ---------------------------------------------------------------------------
// Reading scores back: the pages and the risk assessment

export interface OddsView {
  probability: number;
  valueCents: number | null;
  marginCents: number | null;
  lossCents: number | null;
  breakEven: number | null;
  level: OddsRiskLevel;
  held: boolean;
  /** The merchant released it from its odds' hold (its level is then never high: releasedRiskLevel). */
  released: boolean;
  reasons: OddsReason[];
  scoredAt: string;
}

const ODDS_COLUMNS = {
  linkId: true,
  probability: true,
  valueCents: true,
  marginCents: true,
  lossCents: true,
  breakEven: true,
  level: true,
  held: true,
  releasedAt: true,
  reasons: true,
  scoredAt: true,
} as const;

type OddsRow = Prisma.OrderOddsGetPayload<{ select: typeof ODDS_COLUMNS }>;

const parseJson = (text: string): unknown => {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return null;
  }
};

function viewOf(row: OddsRow): OddsView {
  const level = row.level === "HIGH" || row.level === "MEDIUM" ? row.level : "LOW";
  const released = row.releasedAt !== null && !row.held;
  return {
    probability: row.probability,
    valueCents: row.valueCents,
    marginCents: row.marginCents,
    lossCents: row.lossCents,
    breakEven: row.breakEven,
    level: released ? releasedRiskLevel(level) : level,
    held: row.held,
    released,
    reasons: parseOddsReasons(parseJson(row.reasons)),
    scoredAt: row.scoredAt.toISOString(),
  };
}

/** The scores of these links of the shop (one indexed read by primary key per 500). */
export async function oddsOfLinks(
  db: Reader,
  shop: string,
  linkIds: readonly string[],
): Promise<Map<string, OddsView>> {
  const views = new Map<string, OddsView>();
  for (let i = 0; i < linkIds.length; i += 500) {
    const rows = await db.orderOdds.findMany({
      where: { shop, linkId: { in: linkIds.slice(i, i + 500) } },
      select: ODDS_COLUMNS,
    });
    for (const row of rows) views.set(row.linkId, viewOf(row));
  }
  return views;
}

const englishT = (key: MessageKey, params?: MessageParams) => t("en", key, params);

/** What Shopify's risk card gets for a stored score. */
export function assessmentOf(
  view: OddsView,
  shopRate: number,
  hold: HoldReason | null,
): { level: OddsRiskLevel; facts: RiskFact[] } {
  return {
    level: view.level,
    facts: riskFacts({
      ...view,
      shopRate,
      holdText: hold ? holdReasonText(englishT, hold) : null,
    }),
  };
}

/**
 * The merchant released the order from its odds' hold (Send anyway, or a looser policy
 * in Settings): the score stops holding it, its level becomes the odds' own without the
 * hold (read as releasedRiskLevel), and the risk-assessment job is queued so Shopify's
 * risk card says so now, not when the order is next scored. In the caller's transaction.
 */
export async function releaseOddsHold(
  tx: Prisma.TransactionClient,
  shop: string,
  link: { id: string; orderId: string },
  now: Date,
): Promise<void> {
  const row = await tx.orderOdds.findFirst({
    where: { shop, linkId: link.id, held: true },
    select: { probability: true, valueCents: true, modelFittedAt: true },
  });
  if (!row) return;
  const model = await oddsModelFor(tx, shop, row.modelFittedAt);
  const value = row.valueCents === null ? null : { valueCents: row.valueCents };
  await tx.orderOdds.update({
    where: { linkId: link.id },
    data: {
      held: false,
      releasedAt: now,
      level: riskLevelOf(row.probability, value, false, model.context.shopRate),
    },
  });
  await enqueueJob(tx, riskAssessmentJobFor(shop, link.orderId, link.id));
}
