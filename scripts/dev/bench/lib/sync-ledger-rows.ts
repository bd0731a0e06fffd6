/**
 * A week of the sync ledger for one shop, as the reconciliation leaves it: the ledger
 * row with its counts, the passes that found something (a few a day), and the hourly
 * latency histograms of both metrics. For the admin benchmark's Home.
 */
import type { PrismaClient } from "@prisma/client";
import { bucketOf, LATENCY_METRICS } from "../../../../app/sync/reconcile/latency";

export async function seedSyncLedger(db: PrismaClient, shop: string, now: Date): Promise<number> {
  const hour = 3600_000;
  const figures = {
    at: now.toISOString(),
    windows: {
      day: {
        from: new Date(now.getTime() - 24 * hour).toISOString(),
        shopify: { count: 1680, precision: "EXACT" },
        app: { sent: 1420, held: 110, refused: 20, skipped: 110, cancelled: 12, pending: 8, total: 1680 },
      },
      week: {
        from: new Date(now.getTime() - 168 * hour).toISOString(),
        shopify: { count: 11700, precision: "EXACT" },
        app: { sent: 9900, held: 780, refused: 140, skipped: 760, cancelled: 90, pending: 30, total: 11700 },
      },
    },
  };
  await db.syncLedger.upsert({
    where: { shop },
    create: {
      shop,
      coverageFrom: new Date(now.getTime() - 30 * 24 * hour),
      watermark: new Date(now.getTime() - 7 * 60_000),
      lastPassAt: now,
      measuredUntil: now,
      figures: JSON.stringify(figures),
    },
    update: {},
  });
  let rows = 1;
  const passes = Array.from({ length: 40 }, (_, i) => ({
    shop,
    at: new Date(now.getTime() - i * 4 * hour),
    scanned: 60,
    recovered: i % 3,
    cancelled: i % 5 === 0 ? 1 : 0,
    updated: 0,
    rewritten: i % 7 === 0 ? 1 : 0,
    orders: JSON.stringify([{ linkId: `link-${i}`, orderName: `#${9000 + i}`, what: "recovered" }]),
  }));
  await db.reconcilePass.createMany({ data: passes });
  rows += passes.length;
  // Per hour: about 70 leads (most within seconds) and 200 write-backs.
  const latencies = new Map<string, { shop: string; metric: string; hour: Date; bucket: number; count: number }>();
  for (let h = 0; h < 170; h++) {
    const at = new Date(Math.floor((now.getTime() - h * hour) / hour) * hour);
    for (const [metric, samples] of [
      [LATENCY_METRICS.orderToLead, [2, 3, 4, 8, 15, 25, 40, 70, 200]],
      [LATENCY_METRICS.statusToShopify, [3, 6, 12, 30, 60, 120, 400]],
    ] as const) {
      for (const seconds of samples) {
        const row = { shop, metric, hour: at, bucket: bucketOf(seconds), count: 0 };
        const key = `${metric}|${at.getTime()}|${row.bucket}`;
        const entry = latencies.get(key) ?? latencies.set(key, row).get(key)!;
        entry.count += 1 + ((h + seconds) % 9);
      }
    }
  }
  await db.syncLatency.createMany({ data: [...latencies.values()] });
  return rows + latencies.size;
}
