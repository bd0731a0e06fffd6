/** Reads the demo database for the replayed orders: their links and unfinished post-lead jobs. */
import type { PrismaClient } from "@prisma/client";
import { IN_FLIGHT_STATES, refusedSummary, summarize, type OrderSummary } from "./summary";

export interface SentOrder {
  orderId: string;
  orderName: string;
  /** HTTP status of the order's first webhook (orders/create). */
  status: number;
}

/** Job states that may still run (failed = waiting for its retry). */
const UNFINISHED_JOB_STATES = ["pending", "running", "failed"];

export interface ProgressSnapshot {
  /** Per order, in sending order: its summary, or null when the app stored nothing yet. */
  orders: { sent: SentOrder; summary: OrderSummary | null; settled: boolean; cancelled: boolean }[];
  allSettled: boolean;
}

export async function readProgress(
  db: PrismaClient,
  shop: string,
  sent: readonly SentOrder[],
): Promise<ProgressSnapshot> {
  const ids = sent.map((s) => s.orderId);
  const [links, jobs] = await Promise.all([
    db.orderLink.findMany({
      where: { shop, orderId: { in: ids } },
      select: {
        orderId: true,
        orderName: true,
        state: true,
        leadRef: true,
        confirmationStatus: true,
        shippingStatus: true,
        findings: true,
        anomalies: true,
        totalClient: true,
        phone: true,
        cityId: true,
        leadJson: true,
        cancelledAt: true,
      },
    }),
    db.job.findMany({
      where: {
        kind: "post-lead",
        shop,
        state: { in: UNFINISHED_JOB_STATES },
        key: { in: ids.map((id) => `post-lead:${shop}:${id}`) },
      },
      select: { key: true },
    }),
  ]);
  const byId = new Map(links.map((l) => [l.orderId, l]));
  const busy = new Set(jobs.map((j) => j.key.slice(`post-lead:${shop}:`.length)));
  const orders = sent.map((s) => {
    if (s.status < 200 || s.status > 299)
      return { sent: s, summary: refusedSummary(s.orderId, s.orderName, s.status), settled: true, cancelled: false };
    const link = byId.get(s.orderId);
    if (!link) return { sent: s, summary: null, settled: false, cancelled: false };
    const settled = !IN_FLIGHT_STATES.has(link.state) && !busy.has(s.orderId);
    return { sent: s, summary: summarize(link), settled, cancelled: link.cancelledAt !== null };
  });
  return { orders, allSettled: orders.every((o) => o.settled) };
}
