/**
 * Sixty days of the demo shop's past orders, already settled (delivered, paid,
 * returned, cancelled on the call, held...), so Home and Analytics show a
 * shop's real-looking figures on first open. Written before the app starts,
 * then counted by the analytics rebuild; the 36 orders the demo sends go
 * through the pipeline on top of them; one returning customer's bad record
 * (refused, returned, fake) holds her new order. Every lead is final, so the status sync
 * never asks the sandbox about these references. Deterministic (fixed seed).
 *
 * Cash: the platform pays a delivered parcel 3 to 9 days after delivery, so the
 * last days' parcels are still owed, and a few older ones were never paid (the
 * overdue alert and the "Payment overdue" trigger). Each delivery, payment and
 * return is on the order's timeline, where the rebuild reads its day.
 */
import type { Prisma, PrismaClient } from "@prisma/client";
import { totalCentsOf } from "../../../app/models/order-amount";
import { rebuildRollups } from "../../../app/analytics/rollups.server";
import { rebuildCustomerRecords } from "../../../app/customers/records.server";
import { rebuildCashLedger } from "../../../app/analytics/cash-rebuild.server";
import { webhookOrder } from "../lib/order-payloads";
import { insertLinksAsTheyStand } from "../../../app/models/link-moves.server";

const DAY = 86_400_000;

// Cities of the sandbox's seed (id, name), the big ones first and most often.
const CITIES: [number, string, number][] = [
  [101, "Casablanca", 30],
  [102, "Rabat", 12],
  [103, "Salé", 8],
  [106, "Mohammedia", 5],
  [104, "Témara", 5],
  [105, "Kénitra", 5],
  [110, "Berrechid", 3],
  [112, "El Jadida", 4],
  [111, "Settat", 2],
  [107, "Bouskoura", 3],
];
// Catalogue products of the sandbox's seed: id, SKU, shop price.
const PRODUCTS: [number, string, string, number][] = [
  [1002, "ARG-OIL-100", "149.00", 20],
  [1001, "ARG-OIL-50", "89.00", 10],
  [1003, "AMLOU-250", "79.00", 8],
  [1022, "PERFUME-OUD-100", "299.00", 6],
  [1011, "HAIR-DRYER-2200", "249.00", 5],
  [1015, "BABOUCHE-CLS", "179.00", 6],
  [1014, "DJELLABA-M", "449.00", 3],
  [1016, "TAJINE-30", "129.00", 4],
];
// What became of them: state, confirmation, shipping, weight.
const OUTCOMES: [string, string | null, string | null, number][] = [
  ["created", "confirmed", "paid", 30],
  ["created", "confirmed", "delivered", 22],
  ["created", "confirmed", "returned", 14],
  ["created", "confirmed", "canceled", 2],
  ["created", "canceled", "pending", 9],
  ["created", "no_answer_3", "pending", 6],
  ["created", "fake", "pending", 2],
  ["created", "duplicate", "pending", 1],
  ["damaged", "confirmed", "delivered", 2],
  ["held", null, null, 3],
  ["invalid", null, null, 1],
  ["cancelled", null, null, 2],
  ["skipped", null, null, 3],
];

export async function seedDemoHistory(
  db: PrismaClient,
  shop: string,
  options: { days?: number; now?: Date } = {},
): Promise<number> {
  const days = options.days ?? 60;
  const now = (options.now ?? new Date()).getTime();
  let seed = 60;
  const random = () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const pick = <T extends unknown[]>(items: T[]): T => {
    let r = random() * items.reduce((s, item) => s + (item[item.length - 1] as number), 0);
    for (const item of items) if ((r -= item[item.length - 1] as number) < 0) return item;
    return items[items.length - 1];
  };

  const rows: Prisma.OrderLinkCreateManyInput[] = [];
  const timeline: Prisma.TimelineEventCreateManyInput[] = [];
  for (let day = days; day >= 1; day--) {
    // A shop growing a little: about 6 orders a day two months ago, 12 lately.
    const count = Math.round(6 + (6 * (days - day)) / days + random() * 4);
    for (let i = 0; i < count; i++) {
      const n = rows.length;
      const createdAt = new Date(now - day * DAY + Math.floor(random() * DAY * 0.9));
      const [cityId, city] = pick(CITIES);
      const [productId, sku, price] = pick(PRODUCTS);
      const quantity = random() < 0.15 ? 2 : 1;
      const [state, confirmationStatus, pickedShipping] = pick(OUTCOMES);
      const orderId = String(5_900_000_000_000 + n);
      const phone = `06${String(20_000_000 + Math.floor(random() * 79_999_999))}`;
      const payload = webhookOrder({
        id: Number(orderId),
        name: `#H${1001 + n}`,
        phone,
        city,
        createdAt: createdAt.toISOString(),
        items: [{ sku, price, quantity, title: sku }],
      });
      const total = String((payload.current_total_price as string | undefined) ?? price);
      const sent = state === "created" || state === "damaged";
      const delivered = pickedShipping === "delivered" || pickedShipping === "paid";
      // Settled 1 to 4 days after the order, and before now.
      const settledAt = new Date(Math.min(createdAt.getTime() + (1 + Math.floor(random() * 4)) * DAY, now - 3_600_000));
      // Delivered: paid 3 to 9 days later, unless that is still to come, or for one parcel in twelve, never.
      const paidAt =
        delivered && random() >= 1 / 12 ? new Date(settledAt.getTime() + (3 + Math.floor(random() * 7)) * DAY) : null;
      const shippingStatus = delivered ? (paidAt && paidAt.getTime() < now ? "paid" : "delivered") : pickedShipping;
      const id = `hist${String(n).padStart(5, "0")}`;
      const mark = (status: string, at: Date) =>
        timeline.push({
          shop,
          linkId: id,
          kind: "status_changed",
          message: `Lead HIST-${100000 + n}: shipping → ${status}`,
          data: JSON.stringify({ shippingStatus: status }),
          at,
        });
      if (sent && (delivered || shippingStatus === "returned")) mark(delivered ? "delivered" : "returned", settledAt);
      if (shippingStatus === "paid") mark("paid", paidAt!);
      rows.push({
        id,
        shop,
        orderId,
        orderName: `#H${1001 + n}`,
        payload: JSON.stringify(payload),
        payloadAt: createdAt,
        state,
        reason: sent ? null : state === "held" ? "Held: the city was not recognised" : null,
        leadRef: sent ? `HIST-${100000 + n}` : null,
        externalRef: `shopify:${orderId}`,
        phone,
        cityId: state === "held" ? null : cityId,
        totalClient: total,
        totalCents: totalCentsOf(total),
        productKeys: JSON.stringify([`product:${productId}`]),
        leadJson: sent ? leadOf(payload, cityId, total, [{ sku, quantity }]) : null,
        confirmationStatus,
        shippingStatus,
        // The platform's fees and product cost taken: about a third of the order stays with the seller.
        sellerProfit: delivered ? (Math.round(Number(total) * 34) / 100).toFixed(2) : null,
        statusFinal: sent,
        statusCheckedAt: sent ? (shippingStatus === "paid" ? paidAt : delivered ? settledAt : createdAt) : null,
        postedAt: sent ? createdAt : null,
        postCount: sent ? 1 : 0,
        createdAt,
        updatedAt: shippingStatus === "paid" ? paidAt! : settledAt,
      });
    }
  }
  rows.push(...returningCustomerHistory(shop, now, rows.length));
  await insertLinksAsTheyStand(db, rows);
  await db.timelineEvent.createMany({ data: timeline });
  await rebuildRollups(db, shop);
  await rebuildCustomerRecords(db, shop);
  await rebuildCashLedger(db, shop, { now: new Date(now) });
  return rows.length;
}

/**
 * The lead the app sent for a past order, as it keeps it (leadJson): the customer, the city, the
 * amount and the platform's items, which the delivery odds' fit and evaluation price.
 */
function leadOf(
  payload: ReturnType<typeof webhookOrder>,
  cityId: number,
  totalClient: string,
  items: { sku: string; quantity: number }[],
): string {
  const address = payload.shipping_address as {
    first_name?: string;
    last_name?: string;
    address1?: string;
    phone?: string;
  };
  return JSON.stringify({
    customer_name: [address.first_name, address.last_name].filter(Boolean).join(" "),
    customer_phone: address.phone,
    city: cityId,
    address: address.address1,
    total_client: totalClient,
    items,
    external_ref: `shopify:${String(payload.id)}`,
  });
}

/**
 * The phone of a returning customer of the built-in orders (#1037, typed "+212 6 61 23 45 37"
 * there): her last three orders were refused on the call, returned and faked, so the
 * customer hold (on in the demo) keeps her new order back.
 */
export const RETURNING_CUSTOMER_PHONE = "0661234537";

function returningCustomerHistory(shop: string, now: number, first: number): Prisma.OrderLinkCreateManyInput[] {
  const past: [number, string, string][] = [
    [41, "canceled", "pending"],
    [26, "confirmed", "returned"],
    [12, "fake", "pending"],
  ];
  return past.map(([daysAgo, confirmationStatus, shippingStatus], i) => {
    const n = first + i;
    const createdAt = new Date(now - daysAgo * DAY);
    const orderId = String(5_900_000_000_000 + n);
    const payload = webhookOrder({
      id: Number(orderId),
      name: `#H${1001 + n}`,
      phone: RETURNING_CUSTOMER_PHONE,
      city: "Casablanca",
      createdAt: createdAt.toISOString(),
      items: [{ sku: "ARG-OIL-100", price: "149.00", quantity: 1, title: "ARG-OIL-100" }],
    });
    return {
      shop,
      orderId,
      orderName: `#H${1001 + n}`,
      payload: JSON.stringify(payload),
      payloadAt: createdAt,
      state: "created",
      leadRef: `HIST-${100000 + n}`,
      externalRef: `shopify:${orderId}`,
      phone: RETURNING_CUSTOMER_PHONE,
      cityId: 101,
      totalClient: String((payload.current_total_price as string | undefined) ?? "149.00"),
      totalCents: totalCentsOf(String((payload.current_total_price as string | undefined) ?? "149.00")),
      productKeys: JSON.stringify(["product:1002"]),
      leadJson: leadOf(payload, 101, String((payload.current_total_price as string | undefined) ?? "149.00"), [
        { sku: "ARG-OIL-100", quantity: 1 },
      ]),
      confirmationStatus,
      shippingStatus,
      statusFinal: true,
      statusCheckedAt: new Date(createdAt.getTime() + 3 * DAY),
      postedAt: createdAt,
      postCount: 1,
      createdAt,
      updatedAt: new Date(createdAt.getTime() + 3 * DAY),
    };
  });
}
