/**
 * The post-lead job's delivery odds: before an order is sent, its customer is
 * read once (for the customer hold and the odds), the order scored with the
 * shop's model, and the statements that record the score prepared for the
 * commit that moves the order on (held, or marked posting): the score row, its
 * risk assessment's job and, when a workflow uses it, the "Delivery odds
 * scored" Flow trigger (app/customers/delivery-odds.server.ts).
 */
import type { OrderLink, Shop } from "@prisma/client";
import type { BatchItem } from "../db/sql";
import { english } from "../i18n";
import type { CatalogueProduct, City, MappingResult } from "../leads";
import type { ShopSettings } from "../models/shop-settings";
import { flowTriggerJobFor } from "../models/job-kinds";
import { oddsReasonRef } from "../odds/explain";
import { deliveryOddsFiring } from "../flow/triggers";
import {
  oddsCustomer,
  oddsModelFor,
  scoredOddsItems,
  scoreForSending,
  type OddsCustomer,
  type ScoredOdds,
} from "../customers/delivery-odds.server";
import type { PipelineDeps } from "./pipeline-deps.server";

/** What the post-lead job's first read says of the shop's odds (no statement of their own). */
export interface OddsVersions {
  /** When the shop's model was fitted; null before its first fit. */
  fittedAt: Date | null;
  /** Flow said an enabled workflow uses "Delivery odds scored". */
  flowInUse: boolean;
}

export interface OddsBeforeSending {
  /** The customer as read (null without a phone): the customer hold reads its history. */
  customer: OddsCustomer | null;
  scored: ScoredOdds;
  /** The score's statements, for the commit that moves the order on. */
  items: BatchItem[];
}

export async function oddsBeforeSending(
  deps: PipelineDeps,
  input: {
    link: OrderLink;
    shop: Shop;
    settings: ShopSettings;
    result: MappingResult;
    references: { catalogue: readonly CatalogueProduct[]; cities: readonly City[] };
    versions: OddsVersions;
    waived: boolean;
  },
): Promise<OddsBeforeSending> {
  const { link, shop, settings, result } = input;
  const now = deps.now();
  const placedAt = link.orderCreatedAt ?? link.createdAt;
  const customer = result.phone ? await oddsCustomer(deps.db, shop, result.phone, link.id, placedAt) : null;
  const model = await oddsModelFor(deps.db, shop.domain, input.versions.fittedAt);
  const order = {
    linkId: link.id,
    orderId: link.orderId,
    placedAt,
    lead: result.lead ?? { items: [] },
    cityId: result.city?.id ?? null,
    productKeys: result.productKeys,
  };
  const scored = scoreForSending(order, customer?.facts ?? null, model, input.references, settings, {
    // Sent anyway by the merchant, or a phone the merchant trusts: never held on its odds.
    waived: input.waived || customer?.history.standing === "trusted",
    modelFittedAt: input.versions.fittedAt,
  });
  const flow = settings.flowTriggers.deliveryOdds && input.versions.flowInUse;
  const firing = flow
    ? deliveryOddsFiring({
        orderId: link.orderId,
        probability: scored.probability,
        valueCents: scored.value?.valueCents ?? null,
        level: scored.level,
        held: scored.hold !== null,
        reasons: scored.reasons.map((r) => english(oddsReasonRef(r))),
      })
    : null;
  const items = scoredOddsItems(link.shop, order, scored, {
    now,
    newJobs: firing
      ? [flowTriggerJobFor(link.shop, link.orderId, link.id, firing.handle, firing.eventKey, firing.payload)]
      : [],
  });
  return { customer, scored, items };
}
