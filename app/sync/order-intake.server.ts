/**
 * Intake of orders/create, orders/updated and orders/cancelled: store the
 * order snapshot and queue the work, inside the webhook's transaction. No
 * mapping and no outbound HTTP here; the worker does that.
 */
import { randomUUID } from "node:crypto";
import { Prisma } from "@prisma/client";
import type { Db } from "../db.server";
import { enqueueJob } from "../queue/jobs.server";
import { externalRefFor } from "../leads/external-ref";
import { acceptsOrderUpdates, isLinkState, isPosted, type LinkState } from "../models/order-link-state";
import { addTimeline, type TimelineEntry } from "../models/timeline.server";
import { insertReceivedLinks, LinkMovedError, moveLink, type NewLink } from "../models/link-moves.server";
import {
  cancelledAfterSendingText,
  cancelledBeforeSendingText,
  cancelledReasonText,
  changedAfterSendingText,
  updatedInShopifyText,
} from "../models/order-texts";
import { changesNothingForTheLead, mismatchOfUpdate } from "./order-changes";
import { POST_LEAD_JOB, postLeadJobFor, postLeadJobKey, riskAssessmentJobFor } from "../models/job-kinds";

type Tx = Prisma.TransactionClient;

export class UnreadableOrderError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "UnreadableOrderError";
  }
}

interface OrderHeader {
  orderId: string;
  orderName: string;
  createdAt: Date | null;
  updatedAt: Date | null;
  customerId: string | null;
  cancelledAt: Date | null;
}

function parseJson(json: string): unknown {
  try {
    return JSON.parse(json) as unknown;
  } catch {
    return null;
  }
}

function readHeader(payload: Record<string, unknown>): OrderHeader {
  const id = payload.id;
  if ((typeof id !== "number" && typeof id !== "string") || !/^\d+$/.test(String(id))) {
    throw new UnreadableOrderError("the order payload has no numeric id");
  }
  const orderId = String(id);
  const date = (value: unknown) =>
    typeof value === "string" && !Number.isNaN(Date.parse(value)) ? new Date(value) : null;
  const customer = payload.customer as { id?: unknown } | null | undefined;
  return {
    orderId,
    orderName: typeof payload.name === "string" && payload.name ? payload.name : `#${orderId}`,
    createdAt: date(payload.created_at),
    updatedAt: date(payload.updated_at),
    customerId: customer && customer.id != null ? String(customer.id) : null,
    cancelledAt: date(payload.cancelled_at),
  };
}

async function queuePosting(tx: Tx, shop: string, orderId: string, linkId: string) {
  await enqueueJob(tx, postLeadJobFor(shop, orderId, linkId));
}

/** Where an order event came from: its delivery key, and when Shopify raised it (X-Shopify-Triggered-At). */
export interface IntakeDelivery {
  id: string;
  shop: string;
  topic: string;
  triggeredAt?: Date | null;
}

/** What orders/create stores: the delivery, the order's link and its post-lead job. */
export interface OrderCreatedRows {
  delivery: { id: string; shop: string; topic: string; receivedAt: Date; triggeredAt: Date | null };
  link: NewLink;
  job: { id: string; key: string; shop: string; payload: string; createdAt: Date };
}

/**
 * Pure: the rows of one orders/create delivery; throws UnreadableOrderError for a payload without an order id.
 * An imported order (`imported`) keeps the day it was placed as its date, so it counts then, not on the
 * day of the import; its import's instant is kept beside it.
 */
export function orderCreatedRows(
  delivery: IntakeDelivery,
  payload: Record<string, unknown>,
  now = new Date(),
  options: { imported?: boolean } = {},
): OrderCreatedRows {
  const header = readHeader(payload);
  const { shop } = delivery;
  const placedAt = header.createdAt && header.createdAt < now ? header.createdAt : now;
  return {
    delivery: {
      id: delivery.id,
      shop,
      topic: delivery.topic,
      receivedAt: now,
      triggeredAt: delivery.triggeredAt ?? null,
    },
    link: {
      id: randomUUID(),
      shop,
      orderId: header.orderId,
      orderName: header.orderName,
      payload: JSON.stringify(payload),
      payloadAt: header.updatedAt,
      customerId: header.customerId,
      externalRef: externalRefFor({ id: header.orderId, name: header.orderName }) ?? `shopify:${header.orderId}`,
      cancelledAt: header.cancelledAt,
      // A payload without created_at (never from Shopify) counts from its arrival.
      orderCreatedAt: header.createdAt ?? now,
      createdAt: options.imported ? placedAt : now,
      importedAt: options.imported ? now : null,
    },
    job: {
      id: randomUUID(),
      key: postLeadJobKey(shop, header.orderId),
      shop,
      payload: JSON.stringify({ orderId: header.orderId }),
      createdAt: now,
    },
  };
}

/*
 * The inserts below take many orders at once (one statement per table, however
 * many orders: the intake commits concurrent webhooks together) and do nothing
 * for a row that exists, so a redelivery (same webhook id) or a duplicate
 * (another id, same order) changes nothing; a changed order arrives through
 * orders/updated. Raw SQL: multi-row VALUES with ON CONFLICT ... DO NOTHING, one
 * statement per table. Dates are passed as Date so the driver stores them as
 * Prisma does.
 */

export function insertDeliveries(db: Db | Tx, rows: OrderCreatedRows[]): Prisma.PrismaPromise<number> {
  const values = rows.map(
    ({ delivery: d }) => Prisma.sql`(${d.id}, ${d.shop}, ${d.topic}, ${d.receivedAt}, ${d.triggeredAt})`,
  );
  return db.$executeRaw`INSERT INTO "WebhookDelivery" ("id", "shop", "topic", "receivedAt", "triggeredAt")
    VALUES ${Prisma.join(values)} ON CONFLICT ("id") DO NOTHING`;
}

export function insertOrderLinks(db: Db | Tx, rows: OrderCreatedRows[]): Prisma.PrismaPromise<number> {
  return insertReceivedLinks(
    db,
    rows.map((r) => r.link),
  );
}

export function insertPostLeadJobs(db: Db | Tx, rows: OrderCreatedRows[]): Prisma.PrismaPromise<number> {
  const values = rows.map(
    ({ job: j }) => Prisma.sql`(${j.id}, ${POST_LEAD_JOB}, ${j.key}, ${j.shop}, ${j.payload}, 'pending', ${j.createdAt},
      ${j.createdAt}, ${j.createdAt})`,
  );
  return db.$executeRaw`INSERT INTO "Job" ("id", "kind", "key", "shop", "payload", "state", "runAt", "createdAt", "updatedAt")
    VALUES ${Prisma.join(values)} ON CONFLICT ("key") DO NOTHING`;
}

/**
 * The rows whose order another shop holds, or another row of the group claims for another shop
 * first. Shopify's order ids are unique across shops, and the webhook's HMAC covers its body,
 * not its X-Shopify-Shop-Domain header: the same order for a second shop is a signed body
 * replayed with another shop's header. One indexed read for the whole group.
 */
export async function ordersOfAnotherShop(db: Db | Tx, rows: OrderCreatedRows[]): Promise<Set<OrderCreatedRows>> {
  const held = await db.$queryRaw<{ orderId: string; shop: string }[]>`SELECT "orderId", "shop" FROM "OrderLink"
    WHERE "orderId" IN (${Prisma.join([...new Set(rows.map((r) => r.link.orderId))])})`;
  const shopsOf = new Map<string, Set<string>>();
  for (const { orderId, shop } of held) shopsOf.set(orderId, (shopsOf.get(orderId) ?? new Set()).add(shop));
  const refused = new Set<OrderCreatedRows>();
  for (const row of rows) {
    const shops = shopsOf.get(row.link.orderId) ?? new Set<string>();
    if ([...shops].some((shop) => shop !== row.link.shop)) refused.add(row);
    else shopsOf.set(row.link.orderId, shops.add(row.link.shop));
  }
  return refused;
}

/** Everything orders/create stores for these deliveries, as one batch for `$transaction`. */
export function orderCreatedInserts(db: Db, rows: OrderCreatedRows[]): Prisma.PrismaPromise<number>[] {
  return [insertDeliveries(db, rows), insertOrderLinks(db, rows), insertPostLeadJobs(db, rows)];
}

/**
 * An order read from Shopify rather than received by webhook (backfill, reconciliation),
 * stored exactly as orders/create stores it (its link in `received` and its post-lead
 * job, both insert-or-ignore) with a first timeline row saying where it came from. False
 * when the app knew the order already (a webhook, or another pass, stored it first: its
 * link and job stand). An import of past orders (`imported`) dates the order by the day
 * it was placed (orderCreatedRows).
 */
export async function intakeImportedOrder(
  db: Db,
  shop: string,
  payload: Record<string, unknown>,
  source: { deliveryId: string; timeline: TimelineEntry; imported?: boolean },
): Promise<boolean> {
  const orderId = String(payload.id);
  return db.$transaction(async (tx: Tx) => {
    const rows = orderCreatedRows({ id: source.deliveryId, shop, topic: "ORDERS_CREATE" }, payload, new Date(), {
      imported: source.imported,
    });
    if ((await insertOrderLinks(tx, [rows])) === 0) return false;
    await insertPostLeadJobs(tx, [rows]);
    const link = await tx.orderLink.findUniqueOrThrow({
      where: { shop_orderId: { shop, orderId } },
      select: { id: true },
    });
    await addTimeline(tx, shop, link.id, source.timeline);
    return true;
  });
}

/** orders/create inside a caller's transaction (tests, scripts): the link and job, as the route stores them. */
export async function intakeOrderCreated(tx: Tx, shop: string, payload: Record<string, unknown>): Promise<void> {
  const rows = orderCreatedRows({ id: `intake:${randomUUID()}`, shop, topic: "ORDERS_CREATE" }, payload);
  await insertOrderLinks(tx, [rows]);
  await insertPostLeadJobs(tx, [rows]);
}

/** Once more with the link as it stands now; a link that keeps moving fails the delivery, which Shopify retries. */
function lookAgainAt<T>(link: { id: string }, again: () => Promise<T>, lookAgain: boolean): Promise<T> {
  if (lookAgain) return again();
  throw new LinkMovedError(link.id);
}

/** What an orders/updated or orders/cancelled did: the reconciliation counts what it applied. */
export type OrderChangeOutcome = "applied" | "unknown_order" | "stale" | "already_cancelled";

/** When Shopify says this snapshot is from: its updated_at, else the event's X-Shopify-Triggered-At. */
const shopifyTimeOf = (header: OrderHeader, triggeredAt: Date | null | undefined) =>
  header.updatedAt ?? triggeredAt ?? null;

/**
 * orders/updated: an order not yet posted picks up the merchant's corrections
 * (and is mapped again); a posted one keeps its lead. A snapshot not newer than
 * the one applied (Shopify does not guarantee delivery order, and retries an event
 * for hours with its original payload) changes nothing.
 */
export async function intakeOrderUpdated(
  tx: Tx,
  shop: string,
  payload: Record<string, unknown>,
  options: { triggeredAt?: Date | null } = {},
  lookAgain = true,
): Promise<OrderChangeOutcome> {
  const header = readHeader(payload);
  const link = await tx.orderLink.findUnique({ where: { shop_orderId: { shop, orderId: header.orderId } } });
  // An order we never received (placed before install) is not sent because it changed.
  if (!link) return "unknown_order";
  const at = shopifyTimeOf(header, options.triggeredAt);
  if (link.payloadAt && at && at <= link.payloadAt) return "stale";
  const state = (isLinkState(link.state) ? link.state : "received") as LinkState;
  if (header.cancelledAt) return intakeOrderCancelled(tx, shop, payload, options);
  if (!acceptsOrderUpdates(state)) {
    // Posted or in flight: keep the snapshot current for display; a refund or an edit of what the lead
    // carries is a disagreement the merchant must settle in the seller space (the API cannot edit a lead).
    const mismatch =
      link.mismatch === null && isPosted(state) ? mismatchOfUpdate(parseJson(link.payload), payload) : null;
    await tx.orderLink.update({
      where: { id: link.id },
      data: { payload: JSON.stringify(payload), payloadAt: at, ...(mismatch ? { mismatch } : {}) },
    });
    if (mismatch)
      await addTimeline(tx, shop, link.id, { kind: "updated", text: changedAfterSendingText(mismatch, link.leadRef) });
    return "applied";
  }
  if (changesNothingForTheLead(parseJson(link.payload), payload)) {
    await tx.orderLink.update({ where: { id: link.id }, data: { payload: JSON.stringify(payload), payloadAt: at } });
    return "applied";
  }
  const moved = await moveLink(tx, {
    link: { ...link, state },
    to: "received",
    reason: null,
    set: {
      payload: JSON.stringify(payload),
      payloadAt: at,
      orderName: header.orderName,
      customerId: header.customerId,
    },
    timeline: [{ kind: "updated", text: updatedInShopifyText() }],
    at: new Date(),
  });
  // Moved meanwhile (its post-lead marked it in flight): taken as it stands now.
  if (!moved) return lookAgainAt(link, () => intakeOrderUpdated(tx, shop, payload, options, false), lookAgain);
  await queuePosting(tx, shop, header.orderId, link.id);
  return "applied";
}

/**
 * orders/cancelled: an unsent order is never sent; a sent one is marked (the API cannot
 * cancel a lead). A cancellation is final in Shopify, so it applies whenever it arrives;
 * the link's Shopify time moves to it, so an older orders/updated arriving later is stale.
 */
export async function intakeOrderCancelled(
  tx: Tx,
  shop: string,
  payload: Record<string, unknown>,
  options: { triggeredAt?: Date | null } = {},
  lookAgain = true,
): Promise<OrderChangeOutcome> {
  const header = readHeader(payload);
  const link = await tx.orderLink.findUnique({ where: { shop_orderId: { shop, orderId: header.orderId } } });
  if (!link) return "unknown_order";
  const at = header.cancelledAt ?? new Date();
  if (link.cancelledAt) return "already_cancelled";
  const seen = shopifyTimeOf(header, options.triggeredAt) ?? at;
  const payloadAt = link.payloadAt && link.payloadAt > seen ? link.payloadAt : seen;
  const state = (isLinkState(link.state) ? link.state : "received") as LinkState;
  if (isPosted(state) || state === "posting") {
    await tx.orderLink.update({ where: { id: link.id }, data: { cancelledAt: at, payloadAt, mismatch: "cancelled" } });
    await addTimeline(tx, shop, link.id, { kind: "cancelled", text: cancelledAfterSendingText(link.leadRef) });
    await queueRiskAssessment(tx, shop, link);
    return "applied";
  }
  const moved = await moveLink(tx, {
    link: { ...link, state },
    to: "cancelled",
    reason: cancelledReasonText(),
    set: { cancelledAt: at, payloadAt },
    timeline: [{ kind: "cancelled", text: cancelledBeforeSendingText() }],
    at: new Date(),
    eventAt: at,
  });
  // Moved meanwhile (its post-lead marked it in flight): taken as it stands now.
  if (!moved) return lookAgainAt(link, () => intakeOrderCancelled(tx, shop, payload, options, false), lookAgain);
  await queueRiskAssessment(tx, shop, link);
  return "applied";
}

/** A scored order's risk card says what is true once it is cancelled: nothing to gain (no score: nothing to say). */
async function queueRiskAssessment(tx: Tx, shop: string, link: { id: string; orderId: string }): Promise<void> {
  const scored = await tx.orderOdds.findUnique({ where: { linkId: link.id }, select: { linkId: true } });
  if (scored) await enqueueJob(tx, riskAssessmentJobFor(shop, link.orderId, link.id));
}
