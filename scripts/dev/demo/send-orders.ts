/**
 * Sends the payloads as signed webhooks, one after another, and prints a
 * progress line as each order's link settles (and when a later delivery, such
 * as orders/cancelled, changes it). Resolves with the last snapshot once every
 * order has settled or the deadline has passed.
 */
import type { PrismaClient } from "@prisma/client";
import { orderIdOf, orderNameOf, type OrderDelivery } from "../lib/order-files";
import { deliverWebhook } from "../lib/webhook-signing";
import { bodyWithSendingTime, withSendingTime } from "./fresh-dates";
import { readProgress, type ProgressSnapshot, type SentOrder } from "./order-progress";
import { progressLine } from "./summary";

export interface SendOrdersOptions {
  db: PrismaClient;
  shop: string;
  appUrl: string;
  secret: string;
  deliveries: readonly OrderDelivery[];
  /** Stamp the payloads' dates with the sending time (the built-in set). */
  stampDates: boolean;
  deadlineMs: number;
  log(line: string): void;
  /** Runs before each webhook with the payload sent (the demo's Shopify stand-in records the order first). */
  beforeDelivery?(topic: string, payload: Record<string, unknown>): void;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export async function sendOrders(options: SendOrdersOptions): Promise<ProgressSnapshot> {
  const { db, shop, log } = options;
  const total = new Set(options.deliveries.map((d) => orderIdOf(d.payload))).size;
  const indent = " ".repeat(String(total).length * 2 + 3);
  const sent: SentOrder[] = [];
  const reported = new Map<string, { state: string; cancelled: boolean }>();
  let settledCount = 0;

  const report = (snapshot: ProgressSnapshot) => {
    for (const order of snapshot.orders) {
      if (!order.settled || !order.summary) continue;
      const s = order.summary;
      const before = reported.get(s.order_id);
      const now = { state: s.state, cancelled: order.cancelled };
      if (!before) log(progressLine(++settledCount, total, s));
      else if (before.state !== now.state) log(`${indent} ${s.order_name} ${now.state} (was ${before.state})`);
      else if (now.cancelled && !before.cancelled) {
        log(
          `${indent} ${s.order_name} cancelled in Shopify after its lead ${s.lead_ref ?? ""} was sent: marked, lead kept`,
        );
      }
      reported.set(s.order_id, now);
    }
    return snapshot;
  };
  // One read at a time, so progress lines never go back to an older snapshot.
  let last: Promise<ProgressSnapshot> = Promise.resolve({ orders: [], allSettled: true });
  const poll = () => (last = last.catch(() => undefined).then(() => readProgress(db, shop, sent).then(report)));
  const waitUntilSettled = async () => {
    let snapshot = await poll();
    while (!snapshot.allSettled && Date.now() < options.deadlineMs) {
      await sleep(300);
      snapshot = await poll();
    }
    return snapshot;
  };

  let sending = true;
  const ticker = (async () => {
    while (sending) {
      await poll().catch(() => undefined);
      await sleep(400);
    }
  })();
  try {
    for (const delivery of options.deliveries) {
      if (delivery.waitForSettled) await waitUntilSettled();
      // The file's bytes are sent (a parse and stringify would round ids beyond 2^53); the parsed view is for reading.
      const now = new Date();
      const payload = options.stampDates ? withSendingTime(delivery.payload, now) : delivery.payload;
      const body = options.stampDates ? bodyWithSendingTime(delivery.body, delivery.payload, now) : delivery.body;
      options.beforeDelivery?.(delivery.topic, payload);
      const orderId = orderIdOf(delivery.payload);
      if (delivery.webhookLost) {
        // In Shopify, its webhook lost: only the reconciliation brings it in.
        if (!sent.some((s) => s.orderId === orderId))
          sent.push({ orderId, orderName: orderNameOf(delivery.payload), status: 200 });
        log(
          `${indent} ${orderNameOf(delivery.payload)} placed in Shopify, its ${delivery.topic} webhook lost on purpose: the reconciliation will take it in`,
        );
        continue;
      }
      const answer = await deliverWebhook(options.appUrl, {
        topic: delivery.topic,
        shop,
        secret: options.secret,
        body,
      });
      if (!sent.some((s) => s.orderId === orderId))
        sent.push({ orderId, orderName: orderNameOf(delivery.payload), status: answer.status });
      if (answer.status < 200 || answer.status > 299)
        log(`${delivery.source}: ${delivery.topic} answered ${answer.status} ${answer.detail ?? ""}`.trimEnd());
    }
    await waitUntilSettled();
  } finally {
    sending = false;
    await ticker;
  }
  // The summary is a settled snapshot: an order's own write-back can bring a held order back in for a moment.
  return waitUntilSettled();
}
