/**
 * The Customer card of an order page: its customer's delivery record and last
 * five orders, read by phone key (two indexed reads), and the same phone's
 * record in the merchant's other stores when both sides share (sharing.server.ts).
 */
import type { Db } from "../db.server";
import { deliveryOutcomeOf, type DeliveryOutcome } from "./outcome";
import { riskLevel, type RiskLevel } from "./risk";
import { sharedRecord, type SharedRecord } from "./sharing.server";
import { NOTHING_RECORDED } from "./record";

export interface CustomerCardView {
  phoneKey: string;
  standing: "blocked" | "trusted" | null;
  risk: RiskLevel;
  orders: number;
  counts: Record<DeliveryOutcome, number>;
  lastOutcome: string | null;
  lastOutcomeAt: string | null;
  collectedCents: number;
  firstOrderAt: string | null;
  lastOrderAt: string | null;
  recent: { id: string; orderName: string; createdAt: string; state: string; outcome: DeliveryOutcome | null }[];
  /** The same phone in the merchant's other stores that share records with this one (both consented); null otherwise. */
  shared: SharedRecord | null;
}

export const RECENT_ORDERS = 5;
/** A phone's orders read to find its last five: far more than a customer places in one shop. */
const PHONE_ORDERS_READ = 1000;

export async function loadCustomerCard(
  db: Db,
  shop: string,
  phoneKey: string | null,
): Promise<CustomerCardView | null> {
  if (!phoneKey) return null;
  const [record, recent, shared] = await Promise.all([
    db.customerRecord.findUnique({ where: { shop_phoneKey: { shop, phoneKey } } }),
    db.orderLink.findMany({
      where: { shop, phone: phoneKey },
      // In (shop, phone) index order, sorted here: a phone has few rows.
      orderBy: { phone: "asc" },
      take: PHONE_ORDERS_READ,
      select: {
        id: true,
        orderName: true,
        createdAt: true,
        state: true,
        confirmationStatus: true,
        shippingStatus: true,
      },
    }),
    sharedRecord(db, shop, phoneKey),
  ]);
  const r = record ?? {
    standing: null,
    ...NOTHING_RECORDED,
    collectedCents: 0n,
  };
  const standing = r.standing === "blocked" || r.standing === "trusted" ? r.standing : null;
  return {
    phoneKey,
    standing,
    // The risk reads the shared stores' outcomes too, as the hold rule does.
    risk: riskLevel({
      standing,
      delivered: r.delivered + (shared?.counts.delivered ?? 0),
      returned: r.returned + (shared?.counts.returned ?? 0),
      refused: r.refused + (shared?.counts.refused ?? 0),
      cancelled: r.cancelled + (shared?.counts.cancelled ?? 0),
      wrongNumber: r.wrongNumber + (shared?.counts.wrong_number ?? 0),
    }),
    orders: r.orders,
    counts: {
      delivered: r.delivered,
      returned: r.returned,
      refused: r.refused,
      cancelled: r.cancelled,
      wrong_number: r.wrongNumber,
      in_progress: r.inProgress,
    },
    lastOutcome: r.lastOutcome,
    lastOutcomeAt: r.lastOutcomeAt?.toISOString() ?? null,
    collectedCents: Number(r.collectedCents),
    firstOrderAt: r.firstOrderAt?.toISOString() ?? null,
    lastOrderAt: r.lastOrderAt?.toISOString() ?? null,
    recent: newestFirst(recent)
      .slice(0, RECENT_ORDERS)
      .map((l) => ({
        id: l.id,
        orderName: l.orderName,
        createdAt: l.createdAt.toISOString(),
        state: l.state,
        outcome: deliveryOutcomeOf(l),
      })),
    shared,
  };
}

/** The card of an order's customer; null when the order has no valid phone. Scoped to the shop. */
export async function loadCustomerCardForOrder(db: Db, shop: string, linkId: string): Promise<CustomerCardView | null> {
  const link = await db.orderLink.findFirst({ where: { id: linkId, shop }, select: { phone: true } });
  return loadCustomerCard(db, shop, link?.phone ?? null);
}

/** Newest order first (ties by id, as the Orders list). */
export function newestFirst<T extends { id: string; createdAt: Date }>(rows: readonly T[]): T[] {
  return [...rows].sort(
    (a, b) => b.createdAt.getTime() - a.createdAt.getTime() || (a.id < b.id ? 1 : a.id > b.id ? -1 : 0),
  );
}
