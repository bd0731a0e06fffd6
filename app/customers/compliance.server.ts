/**
 * Compliance webhooks for a customer's personal data held in order links:
 * what is held (customers/data_request, kept as an export the merchant
 * downloads from Activity) and erasing it (customers/redact).
 */
import type { CustomerRecord, OrderLink, Prisma } from "@prisma/client";
import type { Db } from "../db.server";
import { LinkMovedError, rewordLink, type LinkRewording } from "../models/link-moves.server";
import { DEFAULT_TIME_ZONE } from "../analytics/days";
import { localTime } from "../time-zone";
import { redactedText } from "../models/order-texts";
import { FLOW_TRIGGER_JOB } from "../models/job-kinds";

type Tx = Prisma.TransactionClient;

export interface CustomerDataQuery {
  customerId?: string | null;
  orderIds: string[];
}

const REDACTED = "[redacted]";
/** Lead fields that identify the customer. */
const PERSONAL_LEAD_FIELDS = ["customer_name", "customer_phone", "address", "email", "notes", "note"];

function readQuery(
  payload: Record<string, unknown>,
  ordersField: "orders_requested" | "orders_to_redact",
): CustomerDataQuery {
  const customer = payload.customer as { id?: unknown } | undefined;
  const orders = Array.isArray(payload[ordersField]) ? (payload[ordersField] as unknown[]) : [];
  return {
    customerId: customer?.id != null ? String(customer.id) : null,
    orderIds: orders.map(String).filter((id) => /^\d+$/.test(id)),
  };
}

function linksOf(tx: Tx, shop: string, query: CustomerDataQuery) {
  const or: Prisma.OrderLinkWhereInput[] = [];
  if (query.orderIds.length) or.push({ orderId: { in: query.orderIds } });
  if (query.customerId) or.push({ customerId: query.customerId });
  if (or.length === 0) return Promise.resolve([]);
  return tx.orderLink.findMany({ where: { shop, OR: or } });
}

/** The customer's delivery records, by phone key: the orders' phones and the records linked to the customer id. */
async function deliveryRecordsOf(
  tx: Tx,
  shop: string,
  query: CustomerDataQuery,
  links: readonly OrderLink[],
): Promise<Map<string, CustomerRecord>> {
  const phones = [...new Set(links.flatMap((l) => (l.phone ? [l.phone] : [])))];
  const or: Prisma.CustomerRecordWhereInput[] = [];
  if (phones.length) or.push({ phoneKey: { in: phones } });
  if (query.customerId) or.push({ customerId: query.customerId });
  if (or.length === 0) return new Map();
  const rows = await tx.customerRecord.findMany({ where: { shop, OR: or } });
  return new Map(rows.map((r) => [r.phoneKey, r]));
}

function parseJson(text: string | null | undefined): unknown {
  if (!text) return null;
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
}

/** One order of a data request export: everything the app holds about the customer for it. */
export interface HeldOrder {
  orderId: string;
  orderName: string;
  leadRef: string | null;
  state: string;
  receivedAt: string;
  /** From the stored Shopify order snapshot. */
  customer: Record<string, unknown>;
  /** The lead as sent to the platform. */
  lead: unknown;
  /** The merchant's corrections for this order. */
  corrections: unknown;
  reason: string | null;
  findings: string[];
  timeline: { at: string; kind: string; message: string }[];
  /** The delivery record of the order's phone (app/customers/), if the app keeps one. */
  deliveryRecord: DeliveryRecordExport | null;
}

export type DeliveryRecordExport = Omit<
  CustomerRecord,
  "shop" | "collectedCents" | "lastOutcomeAt" | "firstOrderAt" | "lastOrderAt"
> & {
  collectedCents: number;
  lastOutcomeAt: string | null;
  firstOrderAt: string | null;
  lastOrderAt: string | null;
};

function recordExport(record: CustomerRecord): DeliveryRecordExport {
  const { shop: _shop, ...rest } = record;
  const iso = (d: Date | null) => d?.toISOString() ?? null;
  return {
    ...rest,
    collectedCents: Number(record.collectedCents),
    lastOutcomeAt: iso(record.lastOutcomeAt),
    firstOrderAt: iso(record.firstOrderAt),
    lastOrderAt: iso(record.lastOrderAt),
  };
}

function customerPart(snapshot: unknown): Record<string, unknown> {
  if (!snapshot || typeof snapshot !== "object") return {};
  const order = snapshot as Record<string, unknown>;
  const picked: Record<string, unknown> = {};
  for (const field of ["email", "phone", "contact_email", "customer", "shipping_address", "billing_address", "note"]) {
    if (order[field] != null) picked[field] = order[field];
  }
  return picked;
}

async function heldOrder(tx: Tx, link: OrderLink, records: ReadonlyMap<string, CustomerRecord>): Promise<HeldOrder> {
  const events = await tx.timelineEvent.findMany({
    where: { shop: link.shop, linkId: link.id },
    orderBy: { at: "asc" },
  });
  const findings = parseJson(link.findings);
  return {
    orderId: link.orderId,
    orderName: link.orderName,
    leadRef: link.leadRef,
    state: link.state,
    receivedAt: link.createdAt.toISOString(),
    customer: customerPart(parseJson(link.payload)),
    lead: parseJson(link.leadJson),
    corrections: parseJson(link.overrides),
    reason: link.reason,
    findings: Array.isArray(findings) ? findings.map((f) => String((f as { message?: unknown }).message ?? "")) : [],
    timeline: events.map((e) => ({ at: e.at.toISOString(), kind: e.kind, message: e.message })),
    deliveryRecord: link.phone && records.has(link.phone) ? recordExport(records.get(link.phone)!) : null,
  };
}

/** customers/data_request: keep, as the request's export, what the app holds about the customer. */
export async function recordDataRequest(tx: Tx, shop: string, payload: Record<string, unknown>): Promise<void> {
  const query = readQuery(payload, "orders_requested");
  const links = await linksOf(tx, shop, query);
  const records = await deliveryRecordsOf(tx, shop, query, links);
  const held: HeldOrder[] = [];
  for (const link of links) held.push(await heldOrder(tx, link, records));
  await tx.dataRequest.create({
    data: {
      shop,
      customerId: query.customerId ?? null,
      orderIds: JSON.stringify(query.orderIds),
      held: JSON.stringify(held),
    },
  });
}

/**
 * The orders a customers/redact names (by order id or customer), before they are erased: for the features
 * that keep their own rows. The named order ids count even without a link (a storefront signal may precede it).
 */
export async function ordersToRedact(
  tx: Tx,
  shop: string,
  payload: Record<string, unknown>,
): Promise<{ orderIds: string[]; linkIds: string[] }> {
  const query = readQuery(payload, "orders_to_redact");
  const links = await linksOf(tx, shop, query);
  return {
    orderIds: [...new Set([...query.orderIds, ...links.map((l) => l.orderId)])],
    linkIds: links.map((l) => l.id),
  };
}

/**
 * Erases what the link holds of the customer, through the door, in the state it stands in:
 * read once more if it moved meanwhile; a link that keeps moving fails the delivery, which
 * Shopify retries.
 */
async function eraseLink(tx: Tx, link: OrderLink, erasure: Omit<LinkRewording, "link" | "at">): Promise<void> {
  let state = link.state;
  for (let attempt = 0; attempt < 2; attempt++) {
    if (await rewordLink(tx, { ...erasure, link: { id: link.id, shop: link.shop, state }, at: new Date() })) return;
    const now = await tx.orderLink.findUnique({ where: { id: link.id }, select: { state: true } });
    if (!now) return;
    state = now.state;
  }
  throw new LinkMovedError(link.id);
}

/**
 * customers/redact: erase the customer's personal data everywhere the app keeps
 * it: order snapshots, leads, corrections, findings, reasons, platform anomaly
 * texts, timeline messages, job errors and earlier data request exports.
 */
export async function redactCustomer(tx: Tx, shop: string, payload: Record<string, unknown>): Promise<number> {
  const query = readQuery(payload, "orders_to_redact");
  const links = await linksOf(tx, shop, query);
  // The delivery record and its phone key go first: erasing the links drops the phones that find them.
  // Only this shop's rows: a store sharing records with this one (app/customers/sharing.server.ts)
  // keeps its own rows of the phone until its own customers/redact, which Shopify sends each store
  // that holds the customer; sharing copies nothing, so nothing of this shop's is left elsewhere.
  const keys = [...(await deliveryRecordsOf(tx, shop, query, links)).keys()];
  if (keys.length) {
    await tx.customerLead.deleteMany({ where: { shop, phoneKey: { in: keys } } });
    await tx.customerRecord.deleteMany({ where: { shop, phoneKey: { in: keys } } });
  }
  await tx.customerLead.deleteMany({ where: { shop, linkId: { in: links.map((l) => l.id) } } });
  // The orders' delivery odds read the customer's record (their reasons count its refusals): they go too.
  await tx.orderOdds.deleteMany({ where: { shop, linkId: { in: links.map((l) => l.id) } } });
  for (const link of links) {
    const lead = parseJson(link.leadJson) as Record<string, unknown> | null;
    if (lead && typeof lead === "object") {
      for (const field of PERSONAL_LEAD_FIELDS) if (field in lead) lead[field] = REDACTED;
    }
    const anomalies = parseJson(link.anomalies);
    // Timeline messages quote reasons and findings: only the step and its time remain.
    await tx.timelineEvent.updateMany({
      where: { shop, linkId: link.id },
      data: { message: REDACTED, text: null, data: null },
    });
    await tx.job.updateMany({
      where: { shop, key: { endsWith: `:${shop}:${link.orderId}` }, lastError: { not: null } },
      data: { lastError: REDACTED },
    });
    // Flow trigger jobs carry the order's reason and findings for Flow: none is sent or kept after the erasure.
    await tx.job.deleteMany({
      where: { shop, kind: FLOW_TRIGGER_JOB, key: { startsWith: `${FLOW_TRIGGER_JOB}:${shop}:${link.orderId}:` } },
    });
    await eraseLink(tx, link, {
      // Reasons and the platform's anomaly messages may quote the phone, name or address.
      reason: link.reason === null ? null : { erased: REDACTED },
      set: {
        // Only what identifies the order itself is kept.
        payload: JSON.stringify({ id: link.orderId, name: link.orderName, redacted: true }),
        leadJson: lead ? JSON.stringify(lead) : null,
        phone: null,
        customerId: null,
        overrides: "{}",
        findings: "[]",
        anomalies: JSON.stringify(
          Array.isArray(anomalies) ? anomalies.map((a) => ({ code: (a as { code?: unknown }).code ?? null })) : [],
        ),
      },
      timeline: [{ kind: "redacted", text: redactedText() }],
    });
  }
  // Earlier exports of this customer's data (by customer or by any of these orders).
  const orderIds = new Set([...query.orderIds, ...links.map((l) => l.orderId)]);
  const requests = await tx.dataRequest.findMany({
    where: { shop },
    select: { id: true, customerId: true, orderIds: true, held: true },
  });
  for (const request of requests) {
    const held = parseJson(request.held);
    const ids = [
      ...((parseJson(request.orderIds) as unknown[] | null) ?? []),
      ...(Array.isArray(held) ? held.map((h) => (h as { orderId?: unknown }).orderId) : []),
    ];
    const sameCustomer = query.customerId != null && request.customerId === query.customerId;
    if (sameCustomer || ids.some((id) => orderIds.has(String(id)))) {
      await tx.dataRequest.update({ where: { id: request.id }, data: { held: "[]" } });
    }
  }
  return links.length;
}

// ---------------------------------------------------------------------------
// The merchant's view of data requests (Activity page)

export interface DataRequestView {
  id: string;
  receivedAt: string;
  /** The same instant on the shop's wall clock ("YYYY-MM-DD HH:MM:SS"). */
  receivedLocal: string;
  customerId: string | null;
  /** Orders the request named. */
  ordersRequested: number;
  /** Orders found and exported (0 once the customer was redacted). */
  ordersHeld: number;
}

export const DATA_REQUESTS_SHOWN = 20;

export async function listDataRequests(db: Db, shop: string): Promise<DataRequestView[]> {
  const rows = await db.dataRequest.findMany({
    where: { shop },
    orderBy: { createdAt: "desc" },
    take: DATA_REQUESTS_SHOWN,
  });
  return rows.map((row) => {
    const requested = parseJson(row.orderIds);
    const held = parseJson(row.held);
    return {
      id: row.id,
      receivedAt: row.createdAt.toISOString(),
      receivedLocal: localTime(row.createdAt, DEFAULT_TIME_ZONE),
      customerId: row.customerId,
      ordersRequested: Array.isArray(requested) ? requested.length : 0,
      ordersHeld: Array.isArray(held) ? held.length : 0,
    };
  });
}

export interface DataRequestExport {
  request: { id: string; shop: string; receivedAt: string; customerId: string | null; ordersRequested: string[] };
  orders: HeldOrder[];
}

/** The JSON the merchant downloads to answer the customer; null for another shop's request. */
export async function dataRequestExport(db: Db, shop: string, id: string): Promise<DataRequestExport | null> {
  const row = await db.dataRequest.findFirst({ where: { id, shop } });
  if (!row) return null;
  const requested = parseJson(row.orderIds);
  const held = parseJson(row.held);
  return {
    request: {
      id: row.id,
      shop,
      receivedAt: row.createdAt.toISOString(),
      customerId: row.customerId,
      ordersRequested: Array.isArray(requested) ? requested.map(String) : [],
    },
    orders: Array.isArray(held) ? (held as HeldOrder[]) : [],
  };
}
