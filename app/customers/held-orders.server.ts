/**
 * The Anomalies page's customer section: orders the customer hold keeps back,
 * each with its reason and its customer's risk. Bounded like the page's groups:
 * the newest SCAN held orders of the shop (index on shop, state, updatedAt),
 * their hold steps and their records read in pages.
 */
import type { Db } from "../db.server";
import type { HoldReasonView } from "./hold-reason";
import { customerHoldReasons } from "./hold-reasons.server";
import type { RiskLevel } from "./risk";
import { risksOfPhones } from "./records.server";

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
  /** To call or write to the customer before deciding. */
  phone: string | null;
  customerName: string | null;
  cityName: string | null;
  amountCents: number | null;
}

export interface CustomerHolds {
  orders: CustomerHeldOrder[];
  /** Held by the customer hold among the orders read. */
  count: number;
  /** More held orders than were read. */
  truncated: boolean;
}

/** The customer's name and the city as the lead names them (a city id gives no name here). */
function leadFacts(json: string | null): { name: string | null; city: string | null } {
  try {
    const lead = json ? (JSON.parse(json) as { customer_name?: unknown; city?: unknown }) : null;
    const name =
      typeof lead?.customer_name === "string" && lead.customer_name !== "[redacted]" ? lead.customer_name : null;
    return { name, city: typeof lead?.city === "string" ? lead.city : null };
  } catch {
    return { name: null, city: null };
  }
}

export async function loadCustomerHolds(db: Db, shop: string): Promise<CustomerHolds> {
  const held = await db.orderLink.findMany({
    where: { shop, state: "held", cancelledAt: null },
    orderBy: [{ updatedAt: "desc" }, { id: "desc" }],
    take: CUSTOMER_HOLDS_SCAN,
    select: { id: true, orderName: true, createdAt: true, phone: true },
  });
  const reasons = await customerHoldReasons(
    db,
    shop,
    held.map((l) => l.id),
  );
  const byCustomer = held.filter((l) => reasons.has(l.id));
  const shown = byCustomer.slice(0, CUSTOMER_HOLDS_SHOWN);
  const phones = [...new Set(shown.flatMap((l) => (l.phone ? [l.phone] : [])))];
  const risks = await risksOfPhones(db, shop, phones);
  // The shown orders' leads, for the message to the customer (name, city, amount).
  const leads = shown.length
    ? new Map(
        (
          await db.orderLink.findMany({
            where: { id: { in: shown.map((l) => l.id) } },
            select: { id: true, leadJson: true, totalClient: true, totalCents: true },
          })
        ).map((r) => [r.id, r]),
      )
    : new Map();
  return {
    orders: shown.map((l) => {
      const lead = leadFacts(leads.get(l.id)?.leadJson ?? null);
      return {
        id: l.id,
        orderName: l.orderName,
        createdAt: l.createdAt.toISOString(),
        reason: reasons.get(l.id)!,
        risk: l.phone ? (risks.get(l.phone) ?? null) : null,
        phone: l.phone,
        customerName: lead.name,
        cityName: lead.city,
        amountCents: leads.get(l.id)?.totalClient ? leads.get(l.id)!.totalCents : null,
      };
    }),
    count: byCustomer.length,
    truncated: held.length >= CUSTOMER_HOLDS_SCAN,
  };
}
