/**
 * A simulated COD shop for the delivery-odds tests and evaluation: a year of
 * orders from customers, cities and products whose delivery chances follow
 * published figures, written in the evaluation command's file formats. Nothing
 * in it is the model's own form: customers carry a hidden propensity (the model
 * sees only their past outcomes), a tenth of them refuse by habit, dear orders
 * are refused more past twice the usual amount, and "abuse" bursts order several
 * times to accept one. Deterministic for a seed.
 *
 * Sources (docs/decisions/0023-delivery-odds.md):
 * - Delivered share of sent COD orders: 65-80 % with good confirmation, 30-40 %
 *   with weak (MyLeadDone, myleaddone.com/blog/how-to-confirm-cod-orders-morocco);
 *   Cashod: 88-92 % confirmed when called within 15 minutes, under 35 % after 24 h
 *   (cashod.ma/blog/augmenter-taux-confirmation-cod). `confirmation: "good"` aims
 *   at 68 %, `"weak"` at 38 %.
 * - Cities: COD return rates from 18 % (best city) to 35 % (worst) around 26 %
 *   (Shipway ShipNotes FY25, India): a spread of about 0.9 in log-odds, here
 *   tied to the delivery fee (far cities cost more and deliver worse) plus noise.
 * - Amount: Shipway reports RTO rising with order value; CODRocket calls a failed
 *   delivery the costliest COD event (codrocket.com/blog/fraud-prevention-cod-ecommerce).
 * - Repeat orders: "COD abuse" places several orders to accept one (thoughtsbyakhil
 *   on Indian sales); GoKwik cut RTO 20 % by stopping the riskiest 3 % of COD orders,
 *   so risk is concentrated in few customers.
 * - Failures: the sandbox's autopilot shares (13 of 38 failed orders returned at
 *   the door, the rest stopped on the call: cancelled, unreachable, fake, wrong number).
 * - Money: the seed's platform prices and delivery fees (20-45 MAD); a retail price
 *   1.8 to 2.6 times the platform's; a parcel refused pays its fee out and back
 *   (Fynd: Rs 100 out and Rs 100 back on an RTO).
 */
import { readFileSync } from "node:fs";
import type { EvalOrder } from "../../ops/odds/evaluate";
import type { SettledOutcome } from "../../../app/odds/fit";

export interface WorldOptions {
  seed?: number;
  days?: number;
  ordersPerDay?: number;
  confirmation?: "good" | "weak";
  /** First day of the simulated year. */
  start?: Date;
}

interface SeedCity {
  id: number;
  name: string;
  delivery_fee: string;
}
interface SeedProduct {
  id: number;
  sku: string;
  platform_price: string;
}

const DAY = 86_400_000;
/** Returning customers are drawn from the latest this many, the latest most often. */
const RECENT_CUSTOMERS = 3000;
const HOUR = 3_600_000;

/** mulberry32, as the sandbox's autopilot. */
function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const sigmoid = (z: number) => 1 / (1 + Math.exp(-z));
const cents = (decimal: string) => Math.round(Number(decimal) * 100);

function normal(random: () => number): number {
  const u = Math.max(random(), 1e-12);
  return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * random());
}

function weighted<T>(random: () => number, items: readonly T[], weight: (item: T) => number): T {
  const total = items.reduce((s, i) => s + weight(i), 0);
  let r = random() * total;
  for (const item of items) if ((r -= weight(item)) < 0) return item;
  return items[items.length - 1];
}

interface Customer {
  phone: string;
  /** Hidden propensity to accept the parcel (log-odds). */
  propensity: number;
  /** Types short addresses. */
  sloppy: boolean;
  cityIndex: number;
}

/** An order of the world, with its lines as the orders file writes them. */
export type WorldOrder = EvalOrder & { items: { product: string; quantity: number; price: string }[] };

export interface World {
  orders: WorldOrder[];
  /** The delivery fees by city id (as /v1/cities gives them). */
  cities: { id: number; name: string; feeCents: number }[];
}

/** What the world is built from, shared by every order. */
interface Shape {
  cities: { id: number; name: string; feeCents: number; effect: number; weight: number }[];
  products: { key: string; costCents: number; priceCents: number; effect: number; weight: number }[];
}

function shapeOf(random: () => number): Shape {
  const cities = (JSON.parse(readFileSync("sandbox/seed/cities.json", "utf8")) as SeedCity[]).map((c, i) => {
    const feeCents = cents(c.delivery_fee);
    return {
      id: c.id,
      name: c.name,
      feeCents,
      // Far (dearer) cities deliver worse: about +0.35 for a 20 MAD city, -0.45 for a 45 MAD one.
      effect: -0.032 * (feeCents / 100 - 31) + 0.15 * normal(random),
      // Big cities first: the seed lists Casablanca, Rabat... first.
      weight: 1 / (1 + i) ** 0.9,
    };
  });
  const products = (JSON.parse(readFileSync("sandbox/seed/products.json", "utf8")) as SeedProduct[]).map((p, i) => {
    const costCents = cents(p.platform_price);
    return {
      key: `product:${p.id}`,
      costCents,
      priceCents: Math.round((costCents * (1.8 + 0.8 * random())) / 1000) * 1000 - 100,
      effect: 0.3 * normal(random),
      weight: 1 / (1 + i) ** 0.5,
    };
  });
  return { cities, products };
}

interface Draft {
  order: Omit<WorldOrder, "outcome" | "settledAt">;
  logit: number;
  customer: Customer;
}

/** The world's orders before their outcomes: who orders what, where, when. */
function draftOrders(random: () => number, shape: Shape, options: Required<Omit<WorldOptions, "seed">>): Draft[] {
  const customers: Customer[] = [];
  const newCustomer = (): Customer => {
    const refuser = random() < 0.1;
    const customer = {
      phone: `0${6 + (customers.length % 2)}${String(10_000_000 + ((customers.length * 7919) % 89_999_989))}`,
      propensity: 0.9 * normal(random) - (refuser ? 2.6 : 0),
      sloppy: random() < 0.15,
      cityIndex: shape.cities.indexOf(weighted(random, shape.cities, (c) => c.weight)),
    };
    customers.push(customer);
    return customer;
  };
  const drafts: Draft[] = [];
  const start = options.start.getTime();
  const amounts: number[] = [];
  for (let day = 0; day < options.days; day++) {
    const count = Math.round(options.ordersPerDay * (0.7 + 0.6 * random()));
    for (let i = 0; i < count; i++) {
      // Three orders in ten come from customers who ordered before, most often lately.
      const recent = Math.min(customers.length, RECENT_CUSTOMERS);
      const customer =
        customers.length > 50 && random() < 0.3
          ? customers[customers.length - 1 - Math.floor(recent * random() ** 2)]
          : newCustomer();
      const city = shape.cities[customer.cityIndex];
      const lines = random() < 0.2 ? 2 : 1;
      const items = [];
      for (let l = 0; l < lines; l++) {
        const product = weighted(random, shape.products, (p) => p.weight);
        const quantity = random() < 0.12 ? 2 : random() < 0.03 ? 3 + Math.floor(random() * 3) : 1;
        items.push({ product, quantity });
      }
      const placedAt = start + day * DAY + Math.floor(random() * DAY);
      const amountCents = items.reduce((s, i) => s + i.product.priceCents * i.quantity, 0);
      amounts.push(amountCents);
      const address =
        customer.sloppy && random() < 0.8
          ? "centre"
          : `Rue ${1 + Math.floor(random() * 80)}, quartier ${1 + Math.floor(random() * 30)}`;
      const burst = random() < 0.04 ? 1 + Math.floor(random() * 2) : 0;
      for (let b = 0; b <= burst; b++) {
        drafts.push({
          order: {
            id: `W${drafts.length + 1}`,
            placedAt: placedAt + b * Math.floor(random() * 6 * HOUR),
            phoneKey: customer.phone,
            cityId: city.id,
            productKeys: [...new Set(items.map((i) => i.product.key))].sort(),
            amountCents,
            quantity: items.reduce((s, i) => s + i.quantity, 0),
            addressIncomplete: address === "centre",
            address,
            platformCostCents: items.reduce((s, i) => s + i.product.costCents * i.quantity, 0),
            items: items.map((i) => ({
              product: i.product.key,
              quantity: i.quantity,
              price: (i.product.costCents / 100).toFixed(2),
            })),
            deliveryFeeCents: city.feeCents,
          },
          // Of a burst, the customer accepts one parcel at most.
          logit:
            customer.propensity +
            city.effect +
            items.reduce((s, i) => s + i.product.effect, 0) / items.length -
            0.15 * Math.log(items.reduce((s, i) => s + i.quantity, 0)) -
            (address === "centre" ? 0.6 : 0) -
            (b > 0 ? 1.8 : 0),
          customer,
        });
      }
    }
  }
  amounts.sort((a, b) => a - b);
  const median = amounts[amounts.length >> 1];
  for (const draft of drafts) {
    const ratio = draft.order.amountCents! / median;
    // Refused more as the amount grows, and sharply past twice the usual.
    draft.logit -= 0.3 * Math.log(ratio) + (ratio > 2 ? 0.6 : 0);
  }
  return drafts.sort((a, b) => a.order.placedAt - b.order.placedAt);
}

/** The intercept that gives the target delivered share over these orders. */
function interceptFor(drafts: readonly Draft[], target: number): number {
  let lo = -6;
  let hi = 6;
  for (let i = 0; i < 50; i++) {
    const mid = (lo + hi) / 2;
    const share = drafts.reduce((s, d) => s + sigmoid(mid + d.logit), 0) / drafts.length;
    if (share < target) lo = mid;
    else hi = mid;
  }
  return (lo + hi) / 2;
}

const TARGET = { good: 0.68, weak: 0.38 } as const;

export function simulateWorld(options: WorldOptions = {}): World {
  const full = {
    days: options.days ?? 365,
    ordersPerDay: options.ordersPerDay ?? 80,
    confirmation: options.confirmation ?? "good",
    start: options.start ?? new Date("2025-01-01T00:00:00Z"),
  };
  const random = prng(options.seed ?? 2026);
  const shape = shapeOf(random);
  const drafts = draftOrders(random, shape, full);
  const intercept = interceptFor(drafts, TARGET[full.confirmation]);
  const orders: WorldOrder[] = drafts.map((d) => {
    const delivered = random() < sigmoid(intercept + d.logit);
    let outcome: SettledOutcome = "delivered";
    let delay = 2 + 4 * random();
    if (!delivered) {
      const r = random();
      // Of failures: 35 % returned at the door, 8 % wrong numbers, the rest stopped on the call.
      outcome = r < 0.35 ? "returned" : r < 0.43 ? "wrong_number" : r < 0.8 ? "refused" : "cancelled";
      delay = outcome === "returned" ? 3 + 5 * random() : 2 * random();
    }
    return { ...d.order, outcome, settledAt: d.order.placedAt + Math.round(delay * DAY) };
  });
  return { orders, cities: shape.cities.map(({ id, name, feeCents }) => ({ id, name, feeCents })) };
}
