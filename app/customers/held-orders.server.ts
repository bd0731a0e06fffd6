/**
 * The Anomalies page's customer section: orders the customer hold keeps back,
 * each with its reason and its customer's risk. Bounded like the page's groups:
 * the newest SCAN held orders of the shop (index on shop, state, updatedAt),
 * their hold steps and their records read in pages.
 */
import type { Db } from "../db.server";
import type { HoldReasonView } from "./hold-reason";
import { customerHoldReasons } from "./hold-reasons.server";
import { riskLevel, type RiskLevel } from "./risk";

/** Held orders read per page load. */
export const CUSTOMER_HOLDS_SCAN = 1000;
/** Orders listed on the page (the count says how many there are). */
export const CUSTOMER_HOLDS_SHOWN = 20;

export interface CustomerHeldOrder {
  id: string;
  orderName: string;
  createdAt: string;
  reason: HoldReasonView;
  risk: RiskLevel | null;
}

export interface CustomerHolds {
  orders: CustomerHeldOrder[];
  /** Held by the customer hold among the orders read. */
  count: number;
  /** More held orders than were read. */
  truncated: boolean;
}

export async function loadCustomerHolds(db: Db, shop: string): Promise<CustomerHolds> {
  const held = await db.orderLink.findMany({
    where: { shop, state: "held", cancelledAt: null },
    orderBy: [{ updatedAt: "desc" }, { id: "desc" }],
    take: CUSTOMER_HOLDS_SCAN,
    select: { id: true, orderName: true, createdAt: true, phone: true },
  });
  const reasons = await customerHoldReasons(db, shop, held.map((l) => l.id));
  const byCustomer = held.filter((l) => reasons.has(l.id));
  const shown = byCustomer.slice(0, CUSTOMER_HOLDS_SHOWN);
  const phones = [...new Set(shown.flatMap((l) => (l.phone ? [l.phone] : [])))];
  const records = phones.length
    ? await db.customerRecord.findMany({
        where: { shop, phoneKey: { in: phones } },
        select: { phoneKey: true, standing: true, delivered: true, returned: true, refused: true, cancelled: true, wrongNumber: true },
      })
    : [];
  const risks = new Map(records.map((r) => [r.phoneKey, riskLevel(r)]));
  return {
    orders: shown.map((l) => ({
      id: l.id,
      orderName: l.orderName,
      createdAt: l.createdAt.toISOString(),
      reason: reasons.get(l.id)!,
      risk: l.phone ? (risks.get(l.phone) ?? null) : null,
    })),
    count: byCustomer.length,
    truncated: held.length >= CUSTOMER_HOLDS_SCAN,
  };
}
