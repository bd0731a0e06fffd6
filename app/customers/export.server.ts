/**
 * A customer's data on request, from the Customer card: the delivery record of
 * the order's phone and every order of that phone in this shop, as JSON or CSV.
 * Scoped to the shop: another shop's order, record or orders are never read.
 */
import type { Db } from "../db.server";
import { amount, csvText } from "../analytics/csv";
import { signedCents } from "../analytics/contribution";
import { deliveryOutcomeOf, type DeliveryOutcome } from "./outcome";
import { newestFirst } from "./card.server";

/** Orders exported at most (newest first); a real customer has far fewer. */
export const EXPORT_ORDERS = 5000;

export interface CustomerExport {
  shop: string;
  exportedAt: string;
  phoneKey: string;
  record: {
    customerId: string | null;
    standing: string | null;
    orders: number;
    counts: Record<DeliveryOutcome, number>;
    lastOutcome: string | null;
    lastOutcomeAt: string | null;
    collectedCents: number;
    firstOrderAt: string | null;
    lastOrderAt: string | null;
  } | null;
  orders: {
    orderId: string;
    orderName: string;
    createdAt: string;
    state: string;
    leadRef: string | null;
    confirmationStatus: string | null;
    shippingStatus: string | null;
    totalClient: string | null;
    outcome: DeliveryOutcome | null;
  }[];
}

const iso = (d: Date | null) => d?.toISOString() ?? null;

/** The export for the customer of one of the shop's orders; null when the shop has no such order or it has no valid phone. */
export async function customerExport(
  db: Db,
  shop: string,
  linkId: string,
  now = new Date(),
): Promise<CustomerExport | null> {
  const link = await db.orderLink.findFirst({ where: { id: linkId, shop }, select: { phone: true } });
  if (!link?.phone) return null;
  const phoneKey = link.phone;
  const [record, orders] = await Promise.all([
    db.customerRecord.findUnique({ where: { shop_phoneKey: { shop, phoneKey } } }),
    db.orderLink.findMany({
      where: { shop, phone: phoneKey },
      // In (shop, phone) index order, sorted below (as card.server.ts reads them).
      orderBy: { phone: "asc" },
      take: EXPORT_ORDERS,
      select: {
        id: true,
        orderId: true,
        orderName: true,
        createdAt: true,
        state: true,
        leadRef: true,
        confirmationStatus: true,
        shippingStatus: true,
        totalClient: true,
      },
    }),
  ]);
  return {
    shop,
    exportedAt: now.toISOString(),
    phoneKey,
    record: record && {
      customerId: record.customerId,
      standing: record.standing,
      orders: record.orders,
      counts: {
        delivered: record.delivered,
        returned: record.returned,
        refused: record.refused,
        cancelled: record.cancelled,
        wrong_number: record.wrongNumber,
        in_progress: record.inProgress,
      },
      lastOutcome: record.lastOutcome,
      lastOutcomeAt: iso(record.lastOutcomeAt),
      collectedCents: Number(record.collectedCents),
      firstOrderAt: iso(record.firstOrderAt),
      lastOrderAt: iso(record.lastOrderAt),
    },
    orders: newestFirst(orders).map(({ id: _id, ...o }) => ({
      ...o,
      createdAt: o.createdAt.toISOString(),
      outcome: deliveryOutcomeOf(o),
    })),
  };
}

const CSV_HEADER = [
  "kind",
  "phone",
  "order_id",
  "order_name",
  "ordered_at",
  "state",
  "lead_ref",
  "confirmation_status",
  "shipping_status",
  "total_mad",
  "outcome",
  "field",
  "value",
];

/**
 * One table: a "record" line per fact of the delivery record (field, value),
 * then an "order" line per order. Pure.
 */
export function customerExportCsv(data: CustomerExport): string {
  const rows: string[][] = [CSV_HEADER];
  if (data.record) {
    const r = data.record;
    const facts: [string, string | number | null][] = [
      ["customer_id", r.customerId],
      ["standing", r.standing],
      ["orders", r.orders],
      ...Object.entries(r.counts),
      ["last_outcome", r.lastOutcome],
      ["last_outcome_at", r.lastOutcomeAt],
      ["collected_mad", amount(r.collectedCents)],
      ["first_order_at", r.firstOrderAt],
      ["last_order_at", r.lastOrderAt],
    ];
    for (const [field, value] of facts)
      rows.push([
        "record",
        data.phoneKey,
        "",
        "",
        "",
        "",
        "",
        "",
        "",
        "",
        "",
        field,
        value === null ? "" : String(value),
      ]);
  }
  for (const o of data.orders) {
    const total = o.totalClient === null ? "" : amount(signedCents(o.totalClient));
    rows.push([
      "order",
      data.phoneKey,
      o.orderId,
      o.orderName,
      o.createdAt,
      o.state,
      o.leadRef ?? "",
      o.confirmationStatus ?? "",
      o.shippingStatus ?? "",
      total,
      o.outcome ?? "",
      "",
      "",
    ]);
  }
  return rows.map((r) => r.map(csvText).join(",")).join("\r\n") + "\r\n";
}
