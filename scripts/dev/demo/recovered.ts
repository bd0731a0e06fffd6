/**
 * The demo's orders the reconciliation took in (their webhook never reached the app):
 * how long after being placed, for the summary; the sync ledger shows them too.
 */
import type { PrismaClient } from "@prisma/client";

/** The reconciliation's interval in the demo (5 minutes by default): the lost order comes in within it. */
export const DEMO_RECONCILE_SECONDS = 15;

export interface RecoveredOrder {
  orderName: string;
  state: string;
  /** Seconds from the order placed in Shopify to the reconciliation taking it in. */
  afterSeconds: number | null;
}

export async function readRecovered(db: PrismaClient, shop: string): Promise<RecoveredOrder[]> {
  const rows = await db.timelineEvent.findMany({
    where: { shop, kind: "recovered" },
    select: { linkId: true, at: true },
    orderBy: { at: "asc" },
  });
  if (rows.length === 0) return [];
  const links = new Map(
    (
      await db.orderLink.findMany({
        where: { id: { in: rows.map((r) => r.linkId) } },
        select: { id: true, orderName: true, state: true, orderCreatedAt: true },
      })
    ).map((l) => [l.id, l]),
  );
  return rows.flatMap((row) => {
    const link = links.get(row.linkId);
    if (!link) return [];
    const afterSeconds = link.orderCreatedAt
      ? Math.max(0, Math.round((row.at.getTime() - link.orderCreatedAt.getTime()) / 1000))
      : null;
    return [{ orderName: link.orderName, state: link.state, afterSeconds }];
  });
}

export function recoveredLines(orders: readonly RecoveredOrder[], intervalSeconds: number): string[] {
  return orders.map(
    (o) =>
      `Recovered by the reconciliation: ${o.orderName} (its webhook never reached the app) was taken in ${o.afterSeconds === null ? "" : `${o.afterSeconds} s after it was placed `}` +
      `(checks every ${intervalSeconds} s in the demo, 5 minutes by default), then ${o.state}; the sync ledger on Home and Activity counts it.`,
  );
}
