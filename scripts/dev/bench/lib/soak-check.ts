/**
 * The soak's exactly-once check: every accepted order ended with one lead on
 * the platform or one recorded refusal (held), none twice, and orders that
 * must be held never reached the platform.
 */
import type { PrismaClient } from "@prisma/client";
import { parseExternalRef } from "../../../../app/leads";

export interface SentOrder {
  held: boolean;
  /** At least one delivery was answered 2xx. */
  accepted: boolean;
}

export interface ExactlyOnce {
  orders: number;
  accepted: number;
  notAccepted: number;
  leads: number;
  refusals: number;
  /** Accepted orders with no link, or a link not settled. */
  unsettled: number;
  /** Orders with more than one lead on the platform. */
  twice: number;
  /** Orders that must be held but became leads, or leads whose link says otherwise. */
  wrong: number;
  holds: boolean;
}

const LEAD_STATES = new Set(["created", "damaged"]);
const REFUSAL_STATES = new Set(["held", "skipped", "invalid"]);

export async function checkExactlyOnce(
  db: PrismaClient,
  shop: string,
  sandboxUrl: string,
  account: string,
  sent: Map<string, SentOrder>,
): Promise<ExactlyOnce> {
  const links = await db.orderLink.findMany({ where: { shop }, select: { orderId: true, state: true, leadRef: true } });
  const linkOf = new Map(links.map((l) => [l.orderId, l]));
  const response = await fetch(`${sandboxUrl}/_sandbox/leads?account=${encodeURIComponent(account)}`);
  const { leads } = (await response.json()) as { leads: { ref: string; external_ref: string | null }[] };
  const leadsOf = new Map<string, string[]>();
  for (const lead of leads) {
    const orderId = lead.external_ref ? parseExternalRef(lead.external_ref)?.orderId : undefined;
    if (!orderId) continue;
    leadsOf.set(orderId, [...(leadsOf.get(orderId) ?? []), lead.ref]);
  }

  const result: ExactlyOnce = {
    orders: sent.size,
    accepted: 0,
    notAccepted: 0,
    leads: 0,
    refusals: 0,
    unsettled: 0,
    twice: 0,
    wrong: 0,
    holds: false,
  };
  for (const [orderId, order] of sent) {
    const platform = leadsOf.get(orderId) ?? [];
    if (platform.length > 1) result.twice++;
    if (!order.accepted) {
      result.notAccepted++;
      continue;
    }
    result.accepted++;
    const link = linkOf.get(orderId);
    if (!link) {
      result.unsettled++;
      continue;
    }
    if (LEAD_STATES.has(link.state)) {
      result.leads++;
      if (order.held || platform.length !== 1 || platform[0] !== link.leadRef) result.wrong++;
    } else if (REFUSAL_STATES.has(link.state)) {
      result.refusals++;
      if (platform.length > 0 || !order.held) result.wrong++;
    } else {
      result.unsettled++;
    }
  }
  result.holds = result.unsettled === 0 && result.twice === 0 && result.wrong === 0;
  return result;
}
