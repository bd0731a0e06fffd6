/**
 * What the order page and Settings show of the delivery odds: an order's score
 * (its probability, value and reasons, against the shop's own rate, and what
 * would send it when the shop's policy holds it) and what the shop's model was
 * fitted on.
 */
import type { Db } from "../db.server";
import type { HoldReasonView, OddsHold } from "../customers/hold-reason";
import { oddsModelFor, oddsOfLinks, type OddsView } from "../customers/delivery-odds.server";
import { loadOddsModel } from "../customers/odds-fit.server";

export interface OrderOddsView {
  odds: OddsView;
  /** The shop's delivery rate the model reads orders against (0 to 1). */
  shopRate: number;
  model: { source: "prior" | "fitted"; settled: number };
  /** The odds hold, while the shop's policy keeps the order back. */
  hold: OddsHold | null;
  /** The merchant's own cost of a failed order (Settings), in cents; 0 when not set. */
  refusalCostCents: number;
}

/** The order's score, or null before it was scored (or after its customer was erased). */
export async function loadOrderOdds(
  db: Db,
  shop: string,
  linkId: string,
  holdReason: HoldReasonView | null,
  refusalCostCents: number,
): Promise<OrderOddsView | null> {
  const odds = (await oddsOfLinks(db, shop, [linkId])).get(linkId);
  if (!odds) return null;
  const row = await db.oddsModel.findUnique({ where: { shop }, select: { fittedAt: true } });
  const model = await oddsModelFor(db, shop, row?.fittedAt ?? null);
  const reason = holdReason && "reason" in holdReason ? holdReason.reason : null;
  return {
    refusalCostCents,
    odds,
    shopRate: model.context.shopRate,
    model: { source: model.stored.source, settled: model.stored.settled },
    hold: reason?.code === "delivery_odds" && reason.odds ? reason.odds : null,
  };
}

/** What the shop's model was fitted on, for Settings. */
export interface OddsModelStatus {
  source: "prior" | "fitted";
  settled: number;
  fittedAt: string;
  quality: { brier: number; auc: number; heldOut: number } | null;
}

/** What Settings says of the shop's model; null before its first fit. */
export async function loadOddsModelStatus(db: Db, shop: string): Promise<OddsModelStatus | null> {
  const stored = await loadOddsModel(db, shop);
  if (!stored) return null;
  const { model } = stored;
  return {
    source: model.source,
    settled: model.settled,
    fittedAt: model.fittedAt,
    quality: model.quality
      ? { brier: model.quality.brier, auc: model.quality.auc, heldOut: model.quality.heldOut }
      : null,
  };
}
