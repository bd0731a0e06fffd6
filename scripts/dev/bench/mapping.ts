/**
 * `npm run bench -- mapping [--seconds 2] [--orders 5000]`: orders per second through
 * mapOrderToLead on a realistic mix, and city matches per second, on one core.
 *
 * The mix: mostly clean COD orders, plus misspelt, Arabic and district city names,
 * unknown cities, landlines and foreign numbers, multi-line and bundle orders, unknown
 * SKUs, card-paid orders and recent leads to compare against. Target: 20,000 orders/s,
 * with the customer hold's decision on each order that would be sent (its history read
 * from memory here: the post-lead job reads it from the database, one indexed read).
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { parseArgs } from "node:util";
import {
  buildMatchingContext,
  type CatalogueProduct,
  type City,
  mapOrderToLead,
  matchCity,
  type RecentLead,
  type ShopLineItem,
  type ShopOrder,
  type SkuMappingRule,
} from "../../../app/leads";
import { cityIndexFor } from "../../../app/leads/city-match";
import { customerHold, type CustomerHistory } from "../../../app/customers/risk";
import { DELIVERY_OUTCOMES } from "../../../app/customers/outcome";

const { values } = parseArgs({
  options: { seconds: { type: "string", default: "2" }, orders: { type: "string", default: "5000" } },
});
const seconds = Number(values.seconds);
const orderCount = Number(values.orders);

const root = join(import.meta.dirname, "..", "..", "..");
const seed = (file: string) => JSON.parse(readFileSync(join(root, "sandbox", "seed", file), "utf8"));
const cities: City[] = seed("cities.json");
const catalogue: CatalogueProduct[] = (seed("products.json") as (CatalogueProduct & { private_to: string | null })[])
  .filter((p) => p.private_to === null || p.private_to === "ACC-1001")
  .map(({ private_to, ...p }) => ({ ...p, private: private_to !== null }));

// Deterministic PRNG so two runs bench the same orders.
let state = 42;
const random = () => (state = (state * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
const pick = <T>(list: readonly T[]): T => list[Math.floor(random() * list.length)];

const CLEAN_CITIES = cities
  .map((c) => c.name)
  .concat(["Casa", "Fes", "Marrakesh", "Tangier", "Meknes", "Kenitra", "Sale"]);
const ARABIC_CITIES = ["الدار البيضاء", "مراكش", "فاس", "طنجة", "الرباط", "أكادير", "وجدة", "العيون"];
const DISTRICTS = [
  "Maarif",
  "Hay Hassani",
  "Gueliz",
  "Sidi Moumen",
  "Bni Makada",
  "Casablanca Ain Sebaa",
  "Hay Riad Rabat",
];
// One random typo (dropped, doubled, swapped or wrong letter) in a city name: nearly every
// misspelling is new, so the fuzzy matcher's memo does not flatter the numbers.
function misspell(name: string): string {
  const i = 1 + Math.floor(random() * (name.length - 2));
  const kind = Math.floor(random() * 4);
  if (kind === 0) return name.slice(0, i) + name.slice(i + 1);
  if (kind === 1) return name.slice(0, i) + name[i] + name.slice(i);
  if (kind === 2) return name.slice(0, i - 1) + name[i] + name[i - 1] + name.slice(i + 1);
  return name.slice(0, i) + pick([..."aeiounrst"]) + name.slice(i + 1);
}
const LONG_NAMES = cities.map((c) => c.name).filter((n) => n.length >= 6);
const UNKNOWN = ["Bouknadel", "Sebt Gzoula", "Ouled Frej", "Tza", "Hay Salam"];
const skus = catalogue.flatMap((p) => [p.sku, ...p.variants.map((v) => v.sku ?? p.sku)]);
const mobile = () => `06${String(Math.floor(random() * 1e8)).padStart(8, "0")}`;
const PHONE_FORMS = [
  (n: string) => n,
  (n: string) => `+212 ${n.slice(1, 2)} ${n.slice(2, 4)} ${n.slice(4, 6)} ${n.slice(6, 8)} ${n.slice(8)}`,
  (n: string) => `00212${n.slice(1)}`,
  (n: string) => n.replace(/(\d\d)(?=\d)/g, "$1."),
];

function lineItem(id: number, sku: string | undefined, quantity = 1): ShopLineItem {
  return {
    id: String(id),
    variantId: String(900 + id),
    sku,
    name: `Produit ${sku ?? id}`,
    quantity,
    requiresShipping: true,
    giftCard: false,
  };
}

function makeOrder(i: number): ShopOrder {
  const roll = random();
  const city =
    roll < 0.7
      ? pick(CLEAN_CITIES)
      : roll < 0.78
        ? misspell(pick(LONG_NAMES))
        : roll < 0.85
          ? pick(ARABIC_CITIES)
          : roll < 0.93
            ? pick(DISTRICTS)
            : roll < 0.96
              ? pick(UNKNOWN)
              : "";
  const phoneRoll = random();
  const phone =
    phoneRoll < 0.95
      ? pick(PHONE_FORMS)(mobile())
      : phoneRoll < 0.97
        ? "0522123456"
        : phoneRoll < 0.99
          ? "+33612345678"
          : "";
  const lines = [lineItem(1, pick(skus), 1 + Math.floor(random() * 2))];
  if (random() < 0.25) lines.push(lineItem(2, pick(skus)));
  if (random() < 0.05) lines.push(lineItem(3, "PACK-DUO"));
  if (random() < 0.03) lines.push(lineItem(4, "UNKNOWN-SKU"));
  const paid = random() < 0.03;
  return {
    id: String(5_550_000_000_000 + i),
    name: `#${1000 + i}`,
    currency: "MAD",
    currentTotal: { amount: `${150 + Math.floor(random() * 400)}.00`, currencyCode: "MAD" },
    financialStatus: paid ? "paid" : "pending",
    paymentGatewayNames: [paid ? "shopify_payments" : pick(["Cash on Delivery (COD)", "Paiement à la livraison"])],
    test: false,
    shippingAddress: {
      firstName: "Client",
      lastName: String(i),
      address1: `${i} Rue ${pick(["Ibnou Sina", "Al Massira", "de Fès", "Hassan II"])}`,
      city: city || undefined,
      address2: city ? undefined : pick(["Casablanca", "Imm 3", "Tanger"]),
      phone,
    },
    lineItems: lines,
    tags: [],
  };
}

const skuMappings: SkuMappingRule[] = [
  {
    sourceKind: "sku",
    sourceKey: "PACK-DUO",
    targets: [
      { sku: "ARG-OIL-50", quantity: 2 },
      { sku: "AMLOU-250", quantity: 1 },
    ],
  },
];
const orders = Array.from({ length: orderCount }, (_, i) => makeOrder(i));
const recentByPhone = new Map<string, RecentLead[]>();
const prepared = buildMatchingContext({
  catalogue,
  cities,
  skuMappings,
  cityAliases: [],
  catalogueFetchedAt: new Date("2026-03-10T11:30:00Z"),
  citiesFetchedAt: new Date("2026-03-10T11:30:00Z"),
});
const now = new Date("2026-03-10T12:00:00Z");
const context = { ...prepared, now, recentLeads: (phone: string) => recentByPhone.get(phone) ?? [] };

/** Calls `perItem` over `count` items again and again for the configured time; `beforePass` runs untimed. */
function run(label: string, perItem: (i: number) => void, count: number, beforePass: () => void = () => {}): number {
  for (let i = 0; i < Math.min(count, 2000); i++) perItem(i); // warm-up
  let done = 0;
  let elapsed = 0;
  while (elapsed < seconds * 1000) {
    beforePass();
    const start = performance.now();
    for (let i = 0; i < count; i++) perItem(i);
    elapsed += performance.now() - start;
    done += count;
  }
  const rate = done / (elapsed / 1000);
  console.log(
    `${label.padEnd(44)} ${Math.round(rate).toLocaleString("en-US").padStart(10)} /s  (${done.toLocaleString("en-US")} calls)`,
  );
  return rate;
}

// The fuzzy matcher memoises per key; forget between passes so every pass pays for its misspellings.
const cold = () => cityIndexFor(cities, prepared.cityAliases).fuzzyMemo.clear();

const decisions = { send: 0, hold: 0, skip: 0 };
for (const order of orders) {
  const result = mapOrderToLead(order, context);
  decisions[result.decision]++;
  if (result.phone && result.lead) {
    recentByPhone.set(result.phone, [
      { phone: result.phone, productKeys: result.productKeys, createdAt: now, orderId: `x${order.id}` },
    ]);
  }
}
console.log(`mix of ${orderCount} orders: ${decisions.send} send, ${decisions.hold} hold, ${decisions.skip} skip`);

// Customer histories: about a third of the phones ordered before, with 1 to 6 outcomes over the last
// 120 days; a few phones blocked or trusted. The rule as the merchant would set it.
const DAY = 86_400_000;
const histories = new Map<string, CustomerHistory>();
for (const phone of recentByPhone.keys()) {
  if (random() > 0.33) continue;
  const outcomes = Array.from({ length: 1 + Math.floor(random() * 6) }, () => ({
    outcome: pick(DELIVERY_OUTCOMES),
    at: new Date(now.getTime() - Math.floor(random() * 120) * DAY),
  }));
  const standing = random() < 0.03 ? "blocked" : random() < 0.03 ? "trusted" : null;
  histories.set(phone, { standing, outcomes });
}
const NO_HISTORY: CustomerHistory = { standing: null, outcomes: [] };
const holdRule = { enabled: true, failures: 2, days: 90 };
const held = { count: 0 };
const withRisk = (i: number) => {
  const result = mapOrderToLead(orders[i], context);
  if (
    result.decision === "send" &&
    result.phone &&
    customerHold(histories.get(result.phone) ?? NO_HISTORY, holdRule, now).hold
  )
    held.count++;
};
for (let i = 0; i < orders.length; i++) withRisk(i);
console.log(
  `customer hold (2 failures in 90 days): ${held.count} of the ${decisions.send} orders to send held; ${histories.size} phones with a history`,
);

const mapRate = run("mapOrderToLead (realistic mix)", (i) => mapOrderToLead(orders[i], context), orders.length, cold);
const orderRate = run("mapOrderToLead + customer hold decision", withRisk, orders.length, cold);
run("mapOrderToLead (mix, misspellings memoised)", (i) => mapOrderToLead(orders[i], context), orders.length);
const cityInputs = orders.map((o) => o.shippingAddress?.city ?? "");
run(
  "matchCity (same mix of city fields)",
  (i) => matchCity(cityInputs[i], cities),
  cityInputs.length,
  () => cityIndexFor(cities).fuzzyMemo.clear(),
);
const hard = Array.from({ length: 2000 }, (_, i) => (i % 5 === 4 ? pick(UNKNOWN) : misspell(pick(LONG_NAMES))));
run(
  "matchCity (misspelt/unknown only)",
  (i) => matchCity(hard[i], cities),
  hard.length,
  () => cityIndexFor(cities).fuzzyMemo.clear(),
);

const target = 20_000;
console.log(`mapping alone ${Math.round(mapRate).toLocaleString("en-US")} /s`);
console.log(
  `target ${target.toLocaleString("en-US")} orders/s with the customer hold decision: ${orderRate >= target ? "met" : "NOT met"}`,
);
