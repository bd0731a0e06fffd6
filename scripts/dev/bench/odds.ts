/**
 * `npm run bench -- odds [--orders 100000] [--scores 2000]`: what the delivery odds cost the worker.
 *
 * - Scoring, pure: an order's features, probability, reasons, expected value and
 *   decision (scoreForSending), and the statements that record it: CPU per order
 *   over the simulated shop's orders (target: under 1 ms).
 * - Scoring in the post-lead job: the same with its one read of the customer's
 *   outcomes on PostgreSQL (oddsBeforeSending): this process's CPU per order.
 * - Fitting: a shop with `--orders` settled orders (the simulated shop's year,
 *   scripts/dev/odds/world.ts), first in memory, then as the daily job does it:
 *   read from PostgreSQL, replayed, fitted, stored (target: under 10 s on one core).
 *
 * The database is an embedded PostgreSQL the benchmark starts (fsync on); its own
 * CPU is not this process's and is reported apart.
 */
import * as fs from "node:fs";
import { parseArgs } from "node:util";
import { createPrismaClient } from "../../../app/db/client";
import { DEFAULT_SHOP_SETTINGS } from "../../../app/models/shop-settings";
import { compileModel } from "../../../app/odds/model";
import { fitOddsModel } from "../../../app/odds/fit";
import { scoredOddsItems, scoreForSending } from "../../../app/customers/delivery-odds.server";
import { fitShopOdds } from "../../../app/customers/odds-fit.server";
import { createPipelineDeps } from "../../../app/sync/pipeline-deps.server";
import { oddsBeforeSending } from "../../../app/sync/delivery-odds.server";
import { simulateWorld, type WorldOrder } from "../odds/world";
import { openBenchDatabase } from "./lib/bench-database";
import { insertLinksAsTheyStand } from "../../../app/models/link-moves.server";
import { cpuTimeMs } from "./lib/process-cpu";
import { readOddsHistory } from "../../../app/customers/odds-fit.server";

const { values } = parseArgs({
  options: { orders: { type: "string", default: "100000" }, scores: { type: "string", default: "2000" } },
});
const orderCount = Number(values.orders);
const scoreCount = Number(values.scores);

const cpuMs = () => {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
};
const measure = async <T>(run: () => T | Promise<T>) => {
  const wall = performance.now();
  const cpu = cpuMs();
  const result = await run();
  return { result, wallMs: performance.now() - wall, cpuMs: cpuMs() - cpu };
};
const fmt = (n: number, digits = 1) => n.toFixed(digits);

/** CPU ms used so far by this process's descendants (the embedded PostgreSQL server and its backends). */
function childrenCpuMs(): number {
  const parents = new Map<number, number>();
  for (const entry of fs.readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = fs.readFileSync(`/proc/${entry}/stat`, "utf8");
      parents.set(Number(entry), Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]));
    } catch {
      // Gone meanwhile.
    }
  }
  const ours = (pid: number): boolean => {
    for (let p = parents.get(pid); p !== undefined && p > 1; p = parents.get(p)) if (p === process.pid) return true;
    return false;
  };
  let total = 0;
  for (const pid of parents.keys()) if (ours(pid)) total += cpuTimeMs(pid) || 0;
  return total;
}

// A year of a shop taking orders, as many as asked.
const world = simulateWorld({ days: 365, ordersPerDay: Math.max(1, orderCount / 365) });
const orders = world.orders.slice(0, orderCount);
const catalogue = JSON.parse(
  fs.readFileSync("sandbox/seed/products.json", "utf8"),
) as (import("../../../app/leads/types").CatalogueProduct & { private_to?: string | null })[];
const cities = world.cities.map((c) => ({ id: c.id, name: c.name, delivery_fee: (c.feeCents / 100).toFixed(2) }));
console.info(`odds: ${orders.length} orders of the simulated shop, ${orders.filter((o) => o.outcome).length} settled`);

// ---------------------------------------------------------------------------
// Fitting in memory

const fitted = await measure(() => fitOddsModel(orders, new Date()));
console.info(
  `fit in memory: ${fmt(fitted.wallMs / 1000, 2)} s wall, ${fmt(fitted.cpuMs / 1000, 2)} s CPU for ${fitted.result.settled} settled orders`,
);
const model = compileModel(fitted.result);

// ---------------------------------------------------------------------------
// Scoring, pure

const leadOf = (o: WorldOrder) => ({
  items: o.items.map((i) => ({ product_id: Number(i.product.split(":")[1]), quantity: i.quantity })),
  address: o.address ?? null,
  total_client: ((o.amountCents ?? 0) / 100).toFixed(2),
});
const settings = {
  ...DEFAULT_SHOP_SETTINGS,
  deliveryOdds: { policy: "hold_negative_value" as const, minPercent: 30, refusalCost: 5 },
};
const customer = { delivered: 1, failed: 1, wrongNumber: 0, inProgress: 0, recentOrders: 0 };
const pure = await measure(() => {
  let held = 0;
  for (const o of orders) {
    const order = {
      linkId: o.id,
      orderId: o.id,
      placedAt: new Date(o.placedAt),
      lead: leadOf(o),
      cityId: o.cityId,
      productKeys: o.productKeys,
    };
    const scored = scoreForSending(order, customer, model, { catalogue, cities }, settings, {
      waived: false,
      modelFittedAt: null,
    });
    scoredOddsItems("bench.myshopify.com", order, scored, { now: new Date() });
    if (scored.hold) held++;
  }
  return held;
});
console.info(
  `scoring, pure: ${fmt((pure.cpuMs * 1000) / orders.length, 1)} µs CPU per order (${orders.length} orders, ${pure.result} held by a negative value)`,
);

// ---------------------------------------------------------------------------
// On PostgreSQL: the daily fit as the job runs it, and scoring with its read

const database = await openBenchDatabase();
const db = createPrismaClient(database.url);
try {
  const SHOP = "bench-odds.myshopify.com";
  await db.shop.create({
    data: {
      domain: SHOP,
      settings: JSON.stringify(settings),
      catalogueJson: JSON.stringify(catalogue),
      citiesJson: JSON.stringify(cities),
    },
  });
  const loaded = await measure(async () => {
    for (let i = 0; i < orders.length; i += 2000) {
      const page = orders.slice(i, i + 2000);
      await insertLinksAsTheyStand(
        db,
        page.map((o) => {
          const confirmation =
            o.outcome === "refused"
              ? "canceled"
              : o.outcome === "wrong_number"
                ? "wrong"
                : o.outcome === "cancelled"
                  ? "fake"
                  : "confirmed";
          const shipping = o.outcome === "delivered" ? "delivered" : o.outcome === "returned" ? "returned" : "pending";
          return {
            id: o.id,
            shop: SHOP,
            orderId: o.id.slice(1),
            orderName: `#${o.id}`,
            payload: "{}",
            externalRef: `shopify:${o.id}`,
            state: "created",
            confirmationStatus: confirmation,
            shippingStatus: shipping,
            phone: o.phoneKey,
            cityId: o.cityId,
            totalClient: ((o.amountCents ?? 0) / 100).toFixed(2),
            totalCents: o.amountCents ?? 0,
            productKeys: JSON.stringify(o.productKeys),
            leadJson: JSON.stringify(leadOf(o)),
            statusFinal: true,
            createdAt: new Date(o.placedAt),
            statusCheckedAt: new Date(o.settledAt ?? o.placedAt),
          };
        }),
      );
      await db.customerLead.createMany({
        data: page.flatMap((o) =>
          o.phoneKey
            ? [
                {
                  linkId: o.id,
                  shop: SHOP,
                  phoneKey: o.phoneKey,
                  orderName: `#${o.id}`,
                  outcome: o.outcome ?? "in_progress",
                  outcomeAt: new Date(o.settledAt ?? o.placedAt),
                  orderedAt: new Date(o.placedAt),
                },
              ]
            : [],
        ),
      });
    }
  });
  console.info(`(${orders.length} orders written to PostgreSQL in ${fmt(loaded.wallMs / 1000, 1)} s)`);

  const serverBefore = childrenCpuMs();
  const read = await measure(() => readOddsHistory(db, SHOP));
  console.info(
    `reading the history alone: ${fmt(read.wallMs / 1000, 2)} s wall, ${fmt(read.cpuMs / 1000, 2)} s CPU of the worker, ${fmt((childrenCpuMs() - serverBefore) / 1000, 2)} s CPU of PostgreSQL`,
  );
  const serverJob = childrenCpuMs();
  const job = await measure(() => fitShopOdds(db, SHOP, new Date()));
  console.info(
    `fit as the daily job runs it (read ${job.result.orders} orders from PostgreSQL, replay, fit, store): ${fmt(job.wallMs / 1000, 2)} s wall, ${fmt(job.cpuMs / 1000, 2)} s CPU of the worker + ${fmt((childrenCpuMs() - serverJob) / 1000, 2)} s CPU of PostgreSQL`,
  );

  const shop = await db.shop.findUniqueOrThrow({ where: { domain: SHOP } });
  const deps = createPipelineDeps(db, { timeoutMs: 5_000 });
  const fittedAt = (await db.oddsModel.findUniqueOrThrow({ where: { shop: SHOP } })).fittedAt;
  const sample = orders.slice(-scoreCount);
  // One warm-up: the model parsed once per process (kept while its fit holds), the statements prepared.
  const scoreOne = async (o: WorldOrder) => {
    const link = {
      id: `new-${o.id}`,
      shop: SHOP,
      orderId: o.id,
      createdAt: new Date(o.placedAt),
      orderCreatedAt: null,
    } as never;
    return oddsBeforeSending(deps, {
      link,
      shop,
      settings,
      result: {
        decision: "send",
        findings: [],
        needsRefresh: [],
        productKeys: [...o.productKeys],
        phone: o.phoneKey ?? undefined,
        lead: leadOf(o) as never,
        city: o.cityId === null ? undefined : { id: o.cityId, name: "", score: 1, via: "name" },
      },
      references: { catalogue, cities },
      versions: { fittedAt, flowInUse: false },
      waived: false,
    });
  };
  await scoreOne(sample[0]);
  const withRead = await measure(async () => {
    for (const o of sample) await scoreOne(o);
  });
  console.info(
    `scoring in the post-lead job (the customer's outcomes read from PostgreSQL, then scored): ${fmt((withRead.cpuMs * 1000) / sample.length, 0)} µs CPU and ${fmt(withRead.wallMs / sample.length, 2)} ms wall per order (${sample.length} orders)`,
  );
} finally {
  await db.$disconnect();
  await database.close();
}
