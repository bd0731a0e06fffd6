/**
 * The demo's conversion feed. Meta's and TikTok's stand-ins (ads-stand-in/) on
 * loopback, knowing the demo shop's dataset and pixel with tokens made for the
 * run; the shop's feed connected as Settings connects it (each token verified
 * with its stand-in, then sealed under the app's key), switched on (delivered
 * counts, refusals and returns told too, orders with no consent signal told
 * from customer data: the demo's orders come as webhooks and never pass a
 * storefront checkout) with the storefront pixel added in the Shopify stand-in.
 * Then what the stand-ins accepted, by order, for the summary and the lines
 * that follow it.
 */
import { randomBytes } from "node:crypto";
import type { PrismaClient } from "@prisma/client";
import {
  adStandInControl,
  startMetaStandIn,
  startTikTokStandIn,
  type RunningStandIn,
} from "../../../ads-stand-in/index";
import { createMetaClient, createTikTokClient, type AdPlatform } from "../../../app/ad-platforms";
import { connectPlatform, saveFeedSettings, type AdFeedView } from "../../../app/ad-feed/connection.server";
import { createSecretBox } from "../../../app/crypto/secret-box.server";
import { adFeedJobFor } from "../../../app/models/job-kinds";
import { ACCESS_TOKEN, openToken } from "../../../app/models/session-tokens.server";
import { standInAdmin } from "../lib/stand-in-admin";
import type { AdEventSummary, OrderSummary } from "./summary";

export const DEMO_DATASET = "718204659301274";
const DEMO_DATASET_NAME = "Atlas Beauty COD";
export const DEMO_PIXEL = "CATLASB3AUTY0DEMO001";

/** As Settings saves them: the demo's orders reach no checkout, so they are told from customer data. */
const DEMO_FEED_FORM = {
  enabled: "true",
  stage: "delivered",
  naming: "custom",
  negativeOutcomes: "true",
  withoutConsentSignal: "true",
} as const;

export interface AdStandIns {
  meta: RunningStandIn;
  tiktok: RunningStandIn;
  /** The tokens each stand-in accepts for the demo's dataset and pixel (made for the run, never printed). */
  tokens: Record<AdPlatform, string>;
  close(): Promise<void>;
}

export async function startAdStandIns(ports: { meta: number; tiktok: number }): Promise<AdStandIns> {
  const meta = await startMetaStandIn({ port: ports.meta });
  const tiktok = await startTikTokStandIn({ port: ports.tiktok }).catch(async (error: unknown) => {
    await meta.close();
    throw error;
  });
  const tokens = {
    meta: `EAAG${randomBytes(24).toString("base64url")}`,
    tiktok: randomBytes(20).toString("hex"),
  };
  await adStandInControl(meta.url).credentials({ id: DEMO_DATASET, token: tokens.meta, name: DEMO_DATASET_NAME });
  await adStandInControl(tiktok.url).credentials({ id: DEMO_PIXEL, token: tokens.tiktok });
  return { meta, tiktok, tokens, close: async () => void (await Promise.all([meta.close(), tiktok.close()])) };
}

export interface ConnectFeedOptions {
  shop: string;
  /** The app's ENCRYPTION_KEY. */
  encryptionKey: string;
  standIns: Pick<AdStandIns, "meta" | "tiktok" | "tokens">;
  /** The Shopify Admin stand-in, where the storefront pixel is added with the shop's offline token. */
  shopifyAdminUrl: string;
  appUrl: string;
}

/**
 * Connects both platforms and switches the feed on, as a merchant does in
 * Settings, once the app has installed the shop; the feed as Settings shows it.
 */
export async function connectDemoFeed(db: PrismaClient, options: ConnectFeedOptions): Promise<AdFeedView> {
  const { shop, standIns } = options;
  const secretBox = createSecretBox(options.encryptionKey);
  const session = await db.session.findFirstOrThrow({
    where: { shop, isOnline: false },
    select: { accessToken: true },
  });
  const admin = standInAdmin(
    options.shopifyAdminUrl,
    shop,
    openToken(secretBox, session.accessToken, shop, ACCESS_TOKEN) ?? "",
  );
  const deps = {
    secretBox,
    meta: createMetaClient({ baseUrl: standIns.meta.url }),
    tiktok: createTikTokClient({ baseUrl: standIns.tiktok.url }),
    storeUrl: `https://${shop}/`,
  };
  for (const [platform, id] of [
    ["meta", DEMO_DATASET],
    ["tiktok", DEMO_PIXEL],
  ] as const) {
    const connected = await connectPlatform(db, shop, platform, { id, token: standIns.tokens[platform] }, deps);
    if (!connected.ok)
      throw new Error(
        `the ${platform} stand-in refused the demo's token: ${connected.platformMessage ?? connected.error}`,
      );
  }
  const saved = await saveFeedSettings(db, shop, DEMO_FEED_FORM, { admin, appUrl: options.appUrl });
  if (!saved.ok) throw new Error(`the demo's feed settings were refused: ${saved.error}`);
  if (saved.pixelFailure) throw new Error(`the storefront pixel was not added: ${saved.pixelFailure.kind}`);
  return saved.view;
}

const EVENT_ID = /^cod-(\d+)-[a-z]+$/;

/** The events the stand-ins kept (test events aside), by order id, Meta's first, in the order they came. */
export async function readAcceptedEvents(
  standIns: Pick<AdStandIns, "meta" | "tiktok">,
): Promise<Map<string, AdEventSummary[]>> {
  const byOrder = new Map<string, AdEventSummary[]>();
  for (const platform of ["meta", "tiktok"] as const) {
    const { events } = await adStandInControl(standIns[platform].url).received();
    for (const e of events) {
      const orderId = EVENT_ID.exec(e.eventId)?.[1];
      if (e.test || !orderId) continue;
      byOrder.set(orderId, [...(byOrder.get(orderId) ?? []), { platform, event: e.eventName }]);
    }
  }
  return byOrder;
}

export type LinkStatuses = Map<string, Pick<OrderSummary, "confirmation_status" | "shipping_status">>;

/** The orders' platform statuses as the app holds them now, by order id. */
async function readLinkStatuses(db: PrismaClient, shop: string, orderIds: readonly string[]): Promise<LinkStatuses> {
  const links = await db.orderLink.findMany({
    where: { shop, orderId: { in: [...orderIds] } },
    select: { orderId: true, confirmationStatus: true, shippingStatus: true },
  });
  return new Map(
    links.map((l) => [l.orderId, { confirmation_status: l.confirmationStatus, shipping_status: l.shippingStatus }]),
  );
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * The outcomes the app has seen are all told: no lead event waiting for its
 * handlers, no outcome waiting to be sent, the feed's job not due or running.
 */
async function feedSettled(db: PrismaClient, shop: string): Promise<boolean> {
  const [events, outcomes, jobs] = await Promise.all([
    db.pendingLeadEvent.count({ where: { shop } }),
    db.adEvent.count({ where: { shop, state: "pending" } }),
    db.job.count({ where: { key: adFeedJobFor(shop).key, state: { in: ["pending", "running", "failed"] } } }),
  ]);
  return events + outcomes + jobs === 0;
}

/**
 * The accepted events and the orders' statuses, read so that they match: the
 * feed settled, the events read, then the statuses, the feed settled again and
 * the events unchanged (a status sync in between starts it over). `settled` is
 * false when the deadline came first.
 */
export async function settledFeedSnapshot(
  db: PrismaClient,
  shop: string,
  standIns: Pick<AdStandIns, "meta" | "tiktok">,
  orderIds: readonly string[],
  deadlineMs: number,
): Promise<{ events: Map<string, AdEventSummary[]>; statuses: LinkStatuses; settled: boolean }> {
  const untilSettled = async () => {
    while (!(await feedSettled(db, shop)) && Date.now() < deadlineMs) await sleep(300);
  };
  const count = (events: Map<string, AdEventSummary[]>) => [...events.values()].reduce((n, e) => n + e.length, 0);
  for (;;) {
    await untilSettled();
    const events = await readAcceptedEvents(standIns);
    const statuses = await readLinkStatuses(db, shop, orderIds);
    await untilSettled();
    const again = await readAcceptedEvents(standIns);
    const settled = count(again) === count(events) && (await feedSettled(db, shop));
    if (settled || Date.now() >= deadlineMs) return { events: again, statuses, settled };
  }
}
