/**
 * The "odds-fit" job, once a day per connected shop: reads the shop's sent
 * orders (city, products, amount, items and address as sent; what became of
 * each and when), fits the shop's delivery-odds model on them (app/odds/fit.ts)
 * and stores it (OddsModel). Only this shop's own orders: no score crosses from
 * one merchant to another. On the worker, never on a webhook's path; the fit
 * gives the event loop back between its steps.
 */
import type { Db } from "../db.server";
import { asDate, asNumber, asString, sqlDatabaseOf, statement } from "../db/sql";
import { enqueueJob } from "../queue/jobs.server";
import type { ClaimedJob } from "../queue/types";
import { oddsFitJobFor, oddsFitJobKey } from "../models/job-kinds";
import { addressIncomplete } from "../odds/features";
import { fitOddsModelInSteps, type HistoryOrder } from "../odds/fit";
import { parseStoredModel, type StoredModel } from "../odds/model";
import { log } from "../runtime/logger.server";
import { deliveryOutcomeOf } from "./outcome";

const DAY_MS = 86_400_000;
/** Orders read per statement. */
const HISTORY_PAGE = 10_000;
/** A shop with no model yet is fitted this soon after it starts syncing (its history may be imported). */
const FIRST_FIT_DELAY_MS = 60_000;

/** A sent order as the fit and the export read it. */
export interface OddsHistoryOrder extends HistoryOrder {
  id: string;
  orderName: string;
  /** The items as sent ({ sku } or { product_id }, quantity). */
  items: { sku?: string; product_id?: number; quantity: number }[];
  address: string | null;
}

// Through the (shop, createdAt) index, a page at a time from where the last one ended.
const HISTORY =
  statement(`SELECT l."id", l."orderName", l."createdAt", l."phone", l."cityId", l."productKeys", l."totalCents",
    l."totalClient", l."leadJson", l."state", l."confirmationStatus", l."shippingStatus", l."statusCheckedAt", l."updatedAt",
    c."outcomeAt"
  FROM "OrderLink" l LEFT JOIN "CustomerLead" c ON c."linkId" = l."id"
  WHERE l."shop" = ? AND l."state" IN ('created', 'damaged') AND (l."createdAt" > ? OR (l."createdAt" = ? AND l."id" > ?))
  ORDER BY l."createdAt", l."id" LIMIT ${HISTORY_PAGE}`);

interface LeadFacts {
  items: OddsHistoryOrder["items"];
  address: string | null;
  /** False for an order sent before leads were stored (its address is not known, not missing). */
  known: boolean;
}

function leadFacts(json: string | null): LeadFacts {
  if (!json) return { items: [], address: null, known: false };
  try {
    const lead = json ? (JSON.parse(json) as { items?: unknown; address?: unknown }) : null;
    const items = Array.isArray(lead?.items)
      ? lead.items.flatMap((i: { sku?: unknown; product_id?: unknown; quantity?: unknown }) =>
          typeof i?.quantity === "number" && i.quantity > 0
            ? [
                {
                  ...(typeof i.sku === "string" ? { sku: i.sku } : {}),
                  ...(typeof i.product_id === "number" ? { product_id: i.product_id } : {}),
                  quantity: i.quantity,
                },
              ]
            : [],
        )
      : [];
    return { items, address: typeof lead?.address === "string" ? lead.address : null, known: true };
  } catch {
    return { items: [], address: null, known: false };
  }
}

const parseKeys = (json: string | null): string[] => {
  try {
    const keys = json ? (JSON.parse(json) as unknown) : [];
    return Array.isArray(keys) ? keys.filter((k): k is string => typeof k === "string") : [];
  } catch {
    return [];
  }
};

/** The shop's sent orders, with their outcome once settled, oldest first. */
export async function readOddsHistory(db: Db, shop: string): Promise<OddsHistoryOrder[]> {
  const sql = sqlDatabaseOf(db);
  const orders: OddsHistoryOrder[] = [];
  let after = { at: new Date(0), id: "" };
  for (;;) {
    const rows = await sql.all(HISTORY, [shop, after.at, after.at, after.id]);
    for (const r of rows) {
      const outcome = deliveryOutcomeOf({
        state: String(r.state),
        confirmationStatus: asString(r.confirmationStatus),
        shippingStatus: asString(r.shippingStatus),
      });
      const settled = outcome !== null && outcome !== "in_progress" ? outcome : null;
      const lead = leadFacts(asString(r.leadJson));
      const placedAt = asDate(r.createdAt)!.getTime();
      orders.push({
        id: String(r.id),
        orderName: String(r.orderName),
        placedAt,
        phoneKey: asString(r.phone),
        cityId: r.cityId === null || r.cityId === undefined ? null : asNumber(r.cityId),
        productKeys: parseKeys(asString(r.productKeys)),
        amountCents: r.totalClient === null || r.totalClient === undefined ? null : asNumber(r.totalCents),
        quantity: Math.max(
          1,
          lead.items.reduce((n, i) => n + i.quantity, 0),
        ),
        addressIncomplete: lead.known && addressIncomplete(lead.address),
        outcome: settled,
        settledAt: settled
          ? (asDate(r.outcomeAt) ?? asDate(r.statusCheckedAt) ?? asDate(r.updatedAt) ?? new Date(placedAt)).getTime()
          : null,
        items: lead.items,
        address: lead.address,
      });
    }
    if (rows.length < HISTORY_PAGE) break;
    const last = rows[rows.length - 1];
    after = { at: asDate(last.createdAt)!, id: String(last.id) };
  }
  return orders;
}

/** The stored model of a shop and when it was fitted; null before its first fit (or when unreadable). */
export async function loadOddsModel(
  db: Pick<Db, "oddsModel">,
  shop: string,
): Promise<{ model: StoredModel; fittedAt: Date } | null> {
  const row = await db.oddsModel.findUnique({ where: { shop } });
  if (!row) return null;
  let model: StoredModel | null = null;
  try {
    model = parseStoredModel(JSON.parse(row.model));
  } catch {
    model = null;
  }
  return model ? { model, fittedAt: row.fittedAt } : null;
}

export interface OddsFitReport {
  orders: number;
  settled: number;
  ms: number;
}

/** Reads, fits and stores one shop's model. */
export async function fitShopOdds(db: Db, shop: string, now: Date): Promise<OddsFitReport> {
  const started = performance.now();
  const history = await readOddsHistory(db, shop);
  const model = await fitOddsModelInSteps(history, now, () => new Promise((resolve) => setImmediate(resolve)));
  const data = { model: JSON.stringify(model), fittedAt: now, settled: model.settled };
  await db.oddsModel.upsert({ where: { shop }, create: { shop, ...data }, update: data });
  return { orders: history.length, settled: model.settled, ms: Math.round(performance.now() - started) };
}

export async function runOddsFitJob(deps: { db: Db; now: () => Date }, job: ClaimedJob): Promise<void> {
  if (!job.shop) return;
  const shop = await deps.db.shop.findUnique({ where: { domain: job.shop }, select: { uninstalledAt: true } });
  // Uninstalled (or erased): nothing to learn for; a reinstall schedules it again.
  if (!shop || shop.uninstalledAt) return;
  const now = deps.now();
  const report = await fitShopOdds(deps.db, job.shop, now);
  log.info(`odds-fit ${job.shop}: ${report.settled} settled of ${report.orders} sent orders in ${report.ms} ms`, {
    shop: job.shop,
    job: job.key,
  });
  // Again tomorrow (re-enqueued while running: it becomes pending at that time).
  await enqueueJob(deps.db, oddsFitJobFor(job.shop, new Date(now.getTime() + DAY_MS)));
}

/** Makes sure a connected shop has its daily fit, without pushing back one already planned. */
export async function ensureOddsFitScheduled(db: Db, domain: string, now: Date): Promise<void> {
  const existing = await db.job.findUnique({ where: { key: oddsFitJobKey(domain) }, select: { state: true } });
  if (existing && existing.state !== "done" && existing.state !== "dead") return;
  const fitted = await db.oddsModel.findUnique({ where: { shop: domain }, select: { fittedAt: true } });
  await enqueueJob(db, oddsFitJobFor(domain, new Date(now.getTime() + (fitted ? DAY_MS : FIRST_FIT_DELAY_MS))));
}
