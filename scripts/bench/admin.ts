/**
 * `npm run bench -- admin [--orders 100000] [--runs 20] [--keep]`: server time of the
 * admin's Orders and Anomalies queries with 100,000 order links in one shop.
 *
 * A temporary SQLite file gets every migration, then 100k links for one shop (plus
 * 10k for another) with a realistic mix of states, statuses, findings, anomalies and
 * a Shopify payload of the usual size, inserted with createMany in batches. Each case
 * calls the same functions the route loaders call; p50 / p95 over --runs runs after
 * two warm-up runs. Target (DESIGN section 6): under 200 ms.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { performance } from "node:perf_hooks";
import { createClient } from "@libsql/client";
import type { Prisma } from "@prisma/client";
import { createPrismaClient } from "../../app/db-client";
import { makeFinding } from "../../app/leads/findings";
import { parseOrdersSearch, queryOrders, countFailedOrders } from "../../app/models/orders-query.server";
import { loadAnomalyGroups } from "../../app/models/anomaly-groups.server";
import { webhookOrder } from "../lib/order-payloads";

const { values } = parseArgs({
  options: {
    orders: { type: "string", default: "100000" },
    runs: { type: "string", default: "20" },
    keep: { type: "boolean", default: false },
  },
});
const ORDERS = Number(values.orders);
const RUNS = Number(values.runs);
const SHOP = "atlas-beauty.myshopify.com";
const OTHER = "rif-market.myshopify.com";
const root = join(import.meta.dirname, "..", "..");

// Deterministic PRNG: two runs bench the same rows.
let seed = 7;
// mulberry32: an LCG modulo 2^31 repeats phones far too often.
const random = () => {
  seed = (seed + 0x6d2b79f5) | 0;
  let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
  t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
  return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
};
const pick = <T>(items: readonly [T, number][]): T => {
  let r = random() * items.reduce((s, [, w]) => s + w, 0);
  for (const [value, weight] of items) if ((r -= weight) < 0) return value;
  return items[items.length - 1][0];
};

const STATES: [string, number][] = [
  ["created", 70],
  ["skipped", 9],
  ["held", 6],
  ["damaged", 5],
  ["cancelled", 3],
  ["invalid", 2],
  ["failed", 1],
  ["received", 2],
  ["retrying", 1],
  ["posting", 1],
];
const CONFIRMATIONS: [string, number][] = [
  ["new", 15],
  ["confirmed", 50],
  ["callback", 5],
  ["no_answer_1", 5],
  ["canceled", 10],
  ["fake", 3],
  ["duplicate", 2],
];
const SHIPPINGS: [string, number][] = [
  ["pending", 40],
  ["shipped", 15],
  ["delivered", 30],
  ["paid", 10],
  ["returned", 5],
];
const UNKNOWN_SKUS = ["BABOUCHE-YLW", "ARGAN-200", "KAFTAN-RED", "TEA-SET-12"];
const UNKNOWN_CITIES = ["Casa Anfa", "Hay Salam", "Sebt Gzoula", "Ouled Frej"];

function findingsFor(state: string): object[] {
  if (state === "held" || state === "invalid" || state === "failed") {
    const r = random();
    if (r < 0.4) {
      const sku = UNKNOWN_SKUS[Math.floor(random() * UNKNOWN_SKUS.length)];
      return [
        makeFinding("sku_unmatched", "blocking", "items", { lineItemId: "1", lineIndex: 0, title: sku, quantity: 1, via: "sku", sku, unknown: sku, mappingId: null }, [
          { kind: "product", productId: 1015, sku: "BABOUCHE-CLS-YEL", name: "Babouche classique (Jaune)", score: 0.62 },
        ]),
      ];
    }
    if (r < 0.75) {
      const input = UNKNOWN_CITIES[Math.floor(random() * UNKNOWN_CITIES.length)];
      return [makeFinding("city_unmatched", "blocking", "city", { input }, [{ kind: "city", cityId: 101, name: "Casablanca", score: 0.71 }])];
    }
    return [makeFinding("phone_missing", "blocking", "customer_phone")];
  }
  if (state === "created" && random() < 0.1) return [makeFinding("city_fuzzy", "warning", "city", { input: "Marakech", city: "Marrakech", score: 0.91 })];
  return [];
}

function anomaliesFor(state: string): object[] {
  if (state !== "damaged") return [];
  return [pick<object>([
    [{ code: "inconsistent_total", message: "total_client is below the platform price plus delivery" }, 5],
    [{ code: "recent_duplicate", message: "same phone and product in the last 10 minutes" }, 3],
    [{ code: "unknown_city", message: "city not delivered", field: "city" }, 1],
  ])];
}

async function createDatabase(): Promise<{ url: string; dir: string }> {
  const dir = mkdtempSync(join(tmpdir(), "cod-bench-admin-"));
  const url = `file:${join(dir, "bench.sqlite")}`;
  const client = createClient({ url });
  const migrations = join(root, "prisma", "migrations");
  for (const name of readdirSync(migrations, { withFileTypes: true }).filter((d) => d.isDirectory()).map((d) => d.name).sort()) {
    await client.executeMultiple(readFileSync(join(migrations, name, "migration.sql"), "utf8"));
  }
  client.close();
  return { url, dir };
}

function linkRow(shop: string, i: number, createdAt: Date): Prisma.OrderLinkCreateManyInput {
  const state = pick(STATES);
  const orderId = String(5_600_000_000_000 + i);
  const phone = `06${String(10_000_000 + Math.floor(random() * 89_999_999)).padStart(8, "0")}`;
  const posted = state === "created" || state === "damaged";
  const payload = webhookOrder({ id: Number(orderId), name: `#${1001 + i}`, phone, createdAt: createdAt.toISOString() });
  return {
    shop,
    orderId,
    orderName: `#${1001 + i}`,
    payload: JSON.stringify(payload),
    payloadAt: createdAt,
    state,
    reason: state === "held" ? "Held: see findings" : null,
    findings: JSON.stringify(findingsFor(state)),
    anomalies: JSON.stringify(anomaliesFor(state)),
    leadJson: state === "skipped" ? null : JSON.stringify({ customer_name: "Salma Bennani", customer_phone: phone, city: 101, address: "12 Rue Ibn Battouta", total_client: "229.00", external_ref: `shopify:${orderId}`, items: [{ sku: "ARG-OIL-100", quantity: 1 }] }),
    leadRef: posted ? `ATB-${100000 + i}` : null,
    externalRef: `shopify:${orderId}`,
    phone,
    cityId: 101,
    totalClient: "229.00",
    confirmationStatus: posted ? pick(CONFIRMATIONS) : null,
    shippingStatus: posted ? pick(SHIPPINGS) : null,
    statusFinal: posted && random() < 0.5,
    postedAt: posted ? createdAt : null,
    postCount: posted ? 1 : 0,
    createdAt,
    updatedAt: new Date(createdAt.getTime() + Math.floor(random() * 3 * 86_400_000)),
  };
}

async function seedLinks(db: ReturnType<typeof createPrismaClient>) {
  const now = Date.now();
  const span = 180 * 86_400_000;
  const batch = 1000;
  const started = performance.now();
  for (const [shop, count, offset] of [
    [SHOP, ORDERS, 0],
    [OTHER, Math.round(ORDERS / 10), 10_000_000],
  ] as const) {
    for (let start = 0; start < count; start += batch) {
      const data: Prisma.OrderLinkCreateManyInput[] = [];
      for (let i = start; i < Math.min(count, start + batch); i++) {
        // Oldest first, a few orders a minute, as a busy shop receives them.
        data.push(linkRow(shop, offset + i, new Date(now - span + Math.floor((i / count) * span))));
      }
      await db.orderLink.createMany({ data });
    }
  }
  return performance.now() - started;
}

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];

async function time(name: string, run: () => Promise<unknown>) {
  for (let i = 0; i < 2; i++) await run();
  const samples: number[] = [];
  let rows = 0;
  for (let i = 0; i < RUNS; i++) {
    const start = performance.now();
    const result = await run();
    samples.push(performance.now() - start);
    rows = (result as { rows?: unknown[] }).rows?.length ?? (result as { groups?: unknown[] }).groups?.length ?? rows;
  }
  samples.sort((a, b) => a - b);
  const p50 = percentile(samples, 50);
  const p95 = percentile(samples, 95);
  console.log(`${name.padEnd(40)} p50 ${p50.toFixed(1).padStart(6)} ms   p95 ${p95.toFixed(1).padStart(6)} ms   (${rows} rows)${p95 > 200 ? "   OVER 200 ms" : ""}`);
  return p95;
}

const { url, dir } = await createDatabase();
const db = createPrismaClient(url);
try {
  console.log(`seeding ${ORDERS} order links (+${Math.round(ORDERS / 10)} for another shop)...`);
  const seedMs = await seedLinks(db);
  console.log(`seeded in ${(seedMs / 1000).toFixed(1)} s\n`);

  // What the Orders loader runs for a URL: parse its parameters, one page, the failed count.
  const ordersLoader = (search: string) => {
    const request = parseOrdersSearch(new URLSearchParams(search));
    return Promise.all([queryOrders(db, SHOP, request), countFailedOrders(db, SHOP)]).then(([page]) => page);
  };
  const sample = await db.orderLink.findFirstOrThrow({ where: { shop: SHOP, leadRef: { not: null } }, orderBy: { createdAt: "asc" }, skip: Math.floor(ORDERS * 0.4) });
  // A cursor deep in the list: page 600 or so, reached by following "next".
  const deep = await queryOrders(db, SHOP, { ...parseOrdersSearch(new URLSearchParams()), limit: 50 });
  let cursor = deep.nextCursor;
  for (let i = 0; i < 20 && cursor; i++) cursor = (await queryOrders(db, SHOP, { ...parseOrdersSearch(new URLSearchParams()), after: cursor })).nextCursor;

  const results = [
    await time("orders: first page", () => ordersLoader("")),
    await time("orders: state=held", () => ordersLoader("state=held")),
    await time("orders: search phone", () => ordersLoader(`q=${encodeURIComponent(sample.phone!)}`)),
    await time("orders: search lead ref", () => ordersLoader(`q=${sample.leadRef}`)),
    await time("orders: search order name", () => ordersLoader(`q=${encodeURIComponent(sample.orderName)}`)),
    await time("orders: later cursor page (21)", () => ordersLoader(`after=${cursor}`)),
    await time("orders: confirmation=confirmed", () => ordersLoader("confirmation=confirmed")),
    await time("orders: shipping=returned+state", () => ordersLoader("state=created&shipping=returned")),
    await time("orders: issue=sku", () => ordersLoader("issue=sku")),
    await time("orders: state=failed (rare)", () => ordersLoader("state=failed")),
    await time("orders: state=held,invalid,failed", () => ordersLoader("state=held,invalid,failed")),
    await time("orders: confirmation=no_answer_3 (none)", () => ordersLoader("confirmation=no_answer_3")),
    await time("orders: search order-name prefix", () => ordersLoader("q=%2310")),
    await time("orders: issue=phone, last 30 days", () => ordersLoader(`issue=phone&from=${new Date(Date.now() - 30 * 86_400_000).toISOString().slice(0, 10)}`)),
    await time("anomalies: groups", () => loadAnomalyGroups(db, SHOP)),
  ];
  console.log(`\nworst p95 ${Math.max(...results).toFixed(1)} ms (target < 200 ms)`);
} finally {
  await db.$disconnect();
  if (!values.keep) rmSync(dir, { recursive: true, force: true });
  else console.log(`database kept at ${url}`);
}
