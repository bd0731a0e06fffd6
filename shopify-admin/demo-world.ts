/**
 * The demo shop's world, generated from a fixed seed: the catalogue of seed/catalogue.json
 * (SKUs the platform knows, SKUs that need a mapping, a variant without SKU, a bundle, an
 * archived product) and 60 days of past orders (COD and card, ten cities with their local
 * spellings, some cancelled or refunded, older ones fulfilled with tracking), each with
 * its fulfillment orders. Same seed and `now`, same world.
 */
import { readFileSync } from "node:fs";
import {
  fulfillmentOrderRecord,
  orderRecord,
  variantRecord,
  type OrderRecord,
  type ProductRecord,
  type ProductVariantRecord,
} from "./records";
import type { ShopWorld } from "./store";

interface SeedVariant {
  id: number;
  title: string;
  sku: string | null;
  price: string;
  weight: number;
}
interface SeedProduct {
  id: number;
  title: string;
  productType: string;
  status: string;
  tags?: string[];
  bundle?: { sku: string; quantity: number }[];
  variants: SeedVariant[];
}
interface SeedCity {
  city: string;
  spellings: string[];
  province: string;
  zip: string;
  weight: number;
}
interface Seed {
  products: SeedProduct[];
  matches: string[];
  cities: SeedCity[];
}

export const DEMO_SEED = 20260718;
export const DEMO_DAYS = 60;
export const DEMO_ORDER_COUNT = 360;
/** Order ids start here; the order number (#1001...) follows the same sequence. */
const FIRST_ORDER_ID = 6_100_000_001;

const seedData = (): Seed =>
  JSON.parse(readFileSync(new URL("./seed/catalogue.json", import.meta.url), "utf8")) as Seed;

/** mulberry32: small, fast and the same everywhere. */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function weighted<T extends { weight: number }>(items: readonly T[], random: () => number): T {
  const total = items.reduce((sum, i) => sum + i.weight, 0);
  let x = random() * total;
  for (const item of items) {
    x -= item.weight;
    if (x < 0) return item;
  }
  return items[items.length - 1];
}

const pick = <T>(items: readonly T[], random: () => number): T => items[Math.floor(random() * items.length)];
const money = (amount: number) => ({ amount: amount.toFixed(2), currencyCode: "MAD" });

export function demoCatalogue(): { products: ProductRecord[]; skusOnPlatform: string[] } {
  const seed = seedData();
  const products = seed.products.map((p): ProductRecord => {
    const variants: ProductVariantRecord[] = p.variants.map((v) =>
      variantRecord({
        id: v.id,
        sku: v.sku,
        title: v.title,
        productId: p.id,
        productTitle: p.title,
        price: v.price,
        productStatus: p.status,
      }),
    );
    return {
      __typename: "Product",
      id: `gid://shopify/Product/${p.id}`,
      title: p.title,
      handle: p.title
        .toLowerCase()
        .normalize("NFD")
        .replace(/[^a-z0-9]+/g, "-")
        .replace(/^-|-$/g, ""),
      status: p.status,
      productType: p.productType,
      tags: p.tags ?? [],
      variants,
      createdAt: "2026-01-15T09:00:00Z",
    };
  });
  return { products, skusOnPlatform: seed.matches };
}

const FIRST_NAMES = [
  "Salma",
  "Youssef",
  "Khadija",
  "Mohamed",
  "Fatima Zahra",
  "Omar",
  "Imane",
  "Hamza",
  "Nadia",
  "Karim",
  "Sanae",
  "Ayoub",
  "Meryem",
  "Anas",
  "Hajar",
  "Mehdi",
];
const LAST_NAMES = [
  "Bennani",
  "El Amrani",
  "Alaoui",
  "Tazi",
  "Berrada",
  "Idrissi",
  "Chraibi",
  "Benjelloun",
  "El Fassi",
  "Ouazzani",
  "Lahlou",
  "Sqalli",
  "Naciri",
  "Haddad",
];
const STREETS = [
  "Rue Ibn Batouta",
  "Bd Mohammed V",
  "Avenue Hassan II",
  "Rue Allal Ben Abdellah",
  "Derb Sidi Bouloukat",
  "Résidence Nour, Imm 3",
  "Hay Riad, Secteur 4",
  "Rue de Fès",
];

function phoneOf(random: () => number): { e164: string; local: string } {
  const prefix = random() < 0.7 ? "6" : "7";
  let digits = "";
  for (let i = 0; i < 8; i++) digits += Math.floor(random() * 10);
  return {
    e164: `+212${prefix}${digits}`,
    local: `0${prefix}${digits.slice(0, 2)} ${digits.slice(2, 4)} ${digits.slice(4, 6)} ${digits.slice(6)}`,
  };
}

export interface DemoWorldOptions {
  /** the world's "now" (ms): orders are spread over the DEMO_DAYS before it */
  nowMs: number;
  seed?: number;
  orders?: number;
  /** The first order's number (default 1001): the demo starts its history below the orders it replays. */
  firstOrderNumber?: number;
}

/** The demo world: catalogue plus orders, oldest first. */
export function demoWorld(options: DemoWorldOptions): ShopWorld {
  const random = seededRandom(options.seed ?? DEMO_SEED);
  const seed = seedData();
  const { products } = demoCatalogue();
  const cities = seed.cities;
  const weightOf = new Map<string, number>(
    seed.products.flatMap((p) => p.variants.map((v) => [`gid://shopify/ProductVariant/${v.id}`, v.weight] as const)),
  );
  const sellable = products
    .filter((p) => p.status === "ACTIVE")
    .flatMap((p) => p.variants.map((v) => ({ v, p, weight: weightOf.get(v.id) ?? 0 })))
    .filter((x) => x.weight > 0);
  const count = options.orders ?? DEMO_ORDER_COUNT;
  const span = DEMO_DAYS * 24 * 3600 * 1000;
  const times = Array.from({ length: count }, () => options.nowMs - span + Math.floor(random() * span)).sort(
    (a, b) => a - b,
  );

  const orders = times.map((createdMs, i): OrderRecord => {
    const id = FIRST_ORDER_ID + i;
    const ageDays = (options.nowMs - createdMs) / 86_400_000;
    const cod = random() < 0.75;
    const city = weighted(cities, random);
    const cityText = pick(city.spellings, random);
    const first = pick(FIRST_NAMES, random);
    const last = pick(LAST_NAMES, random);
    const phone = phoneOf(random);
    const lineCount = random() < 0.7 ? 1 : random() < 0.7 ? 2 : 3;
    const chosen = new Map<string, { v: ProductVariantRecord; p: ProductRecord; quantity: number }>();
    while (chosen.size < lineCount) {
      const { v, p } = weighted(sellable, random);
      chosen.set(v.id, { v, p, quantity: random() < 0.8 ? 1 : 2 });
    }
    const lines = [...chosen.values()];
    const subtotal = lines.reduce((sum, l) => sum + Number(l.v.price) * l.quantity, 0);
    const total = subtotal + (subtotal >= 500 ? 0 : 30);

    const cancelled = random() < 0.06;
    const refunded = !cod && !cancelled && random() < 0.15;
    const fulfilled = !cancelled && ageDays > 12 && random() < 0.6;
    let financial = cod ? "PENDING" : "PAID";
    if (cod && fulfilled && random() < 0.85) financial = "PAID";
    if (refunded) financial = random() < 0.5 ? "REFUNDED" : "PARTIALLY_REFUNDED";
    if (cancelled) financial = cod ? "VOIDED" : "REFUNDED";

    const created = new Date(createdMs).toISOString().replace(/\.\d{3}Z$/, "Z");
    const address = {
      firstName: first,
      lastName: last,
      name: `${first} ${last}`,
      address1: `${1 + Math.floor(random() * 120)} ${pick(STREETS, random)}`,
      address2: random() < 0.3 ? `Appt ${1 + Math.floor(random() * 20)}` : null,
      city: cityText,
      province: city.province,
      zip: city.zip,
      countryCodeV2: "MA",
      phone: random() < 0.5 ? phone.e164 : phone.local,
    };
    const order = orderRecord({
      id,
      name: `#${(options.firstOrderNumber ?? 1001) + i}`,
      displayFinancialStatus: financial,
      canMarkAsPaid: !cancelled && financial === "PENDING",
      lines: lines.map((l) => ({
        sku: l.v.sku,
        quantity: l.quantity,
        title: l.p.title,
        variantId: l.v.id,
        productId: l.p.id,
        price: l.v.price,
      })),
      tags: cod ? ["COD"] : [],
      fields: {
        createdAt: created,
        updatedAt: created,
        processedAt: created,
        phone: random() < 0.6 ? phone.e164 : null,
        email:
          random() < 0.4
            ? `${first.split(" ")[0].toLowerCase()}.${last.replace(/\s/g, "").toLowerCase()}@example.ma`
            : null,
        note: random() < 0.1 ? "Appeler avant de livrer" : null,
        paymentGatewayNames: cod ? ["Cash on Delivery (COD)"] : ["shopify_payments"],
        test: i % 97 === 50,
        currentTotalPriceSet: { shopMoney: money(total), presentmentMoney: money(total) },
        totalPriceSet: { shopMoney: money(total), presentmentMoney: money(total) },
        totalOutstandingSet: {
          shopMoney: money(financial === "PENDING" ? total : 0),
          presentmentMoney: money(financial === "PENDING" ? total : 0),
        },
        customer: {
          __typename: "Customer",
          id: `gid://shopify/Customer/${7_100_000_000 + i}`,
          firstName: first,
          lastName: last,
          defaultPhoneNumber: { phoneNumber: phone.e164 },
          defaultEmailAddress: null,
        },
        shippingAddress: address,
        billingAddress: address,
      },
    });
    for (const [index, line] of order.lineItems.entries()) {
      line.originalUnitPriceSet = {
        shopMoney: money(Number(lines[index].v.price)),
        presentmentMoney: money(Number(lines[index].v.price)),
      };
      line.variantTitle = lines[index].v.title === "Default Title" ? null : lines[index].v.title;
    }
    const foLines = order.lineItems.map((li) => ({ sku: li.sku as string | null, quantity: li.quantity as number }));
    if (cancelled) {
      const at = new Date(createdMs + 3 * 3600 * 1000).toISOString().replace(/\.\d{3}Z$/, "Z");
      order.cancelledAt = at;
      order.updatedAt = at;
      order.canMarkAsPaid = false;
      order.cancelReason = random() < 0.5 ? "CUSTOMER" : "DECLINED";
      order.fulfillmentOrders = [
        fulfillmentOrderRecord({ status: "CLOSED", actions: [], lines: foLines.map((l) => ({ ...l, remaining: 0 })) }),
      ];
    } else if (fulfilled) {
      const fo = fulfillmentOrderRecord({
        status: "CLOSED",
        actions: [],
        lines: foLines.map((l) => ({ ...l, remaining: 0 })),
      });
      order.fulfillmentOrders = [fo];
      const at = new Date(createdMs + 26 * 3600 * 1000).toISOString().replace(/\.\d{3}Z$/, "Z");
      order.fulfillments = [
        {
          __typename: "Fulfillment",
          id: `gid://shopify/Fulfillment/${8_100_000_000 + i}`,
          status: "SUCCESS",
          createdAt: at,
          trackingInfo: [{ number: `CTM${String(100000 + i)}MA`, company: "Amana", url: null }],
          notifyCustomer: false,
          fulfillmentOrderIds: [fo.id],
          lineItems: fo.lineItems.map((li) => ({ fulfillmentOrderLineItemId: li.id, quantity: li.totalQuantity })),
        },
      ];
      order.displayFulfillmentStatus = "FULFILLED";
      order.updatedAt = at;
    } else {
      order.fulfillmentOrders = [fulfillmentOrderRecord({ lines: foLines })];
    }
    return order;
  });
  return { products, orders };
}
