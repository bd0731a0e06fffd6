/**
 * What the storefront pixel tells the app (POST /api/pixel/<token>): an
 * order's consent and click ids, kept in AdClick for the feed to read when the
 * order reaches its outcome. The token in the URL names the shop (the pixel's
 * settings carry it; a browser can read it, so it proves nothing more): each
 * shop is rate-limited, nothing is kept while its feed is off, a signal counts
 * only for the checkout it names (decide.ts), and a refusal is never turned into
 * consent by a later message.
 */
import type { Prisma } from "@prisma/client";
import type { Db } from "../db.server";
import { sqlOf, statement } from "../db/sql";
import { checkSignal, orderIdOf } from "./pixel-signal";
import { RateBuckets } from "./rate-limit";

/** A shop's storefront: bursts of checkouts, not a stream (per process). */
const perShop = new RateBuckets({ capacity: 120, perSecond: 2 });
/** One checkout sends once; a few repeats are tolerated. */
const perOrder = new RateBuckets({ capacity: 5, perSecond: 0.05 });

const FEED_OF_TOKEN = statement(`SELECT "shop", "enabled" FROM "AdFeed" WHERE "pixelToken" = ?`);
const KEEP = statement(
  `INSERT INTO "AdClick" ("shop", "orderId", "checkoutToken", "marketing", "fbp", "fbc", "ttclid", "ttp", "pageUrl", "receivedAt")
   VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
   ON CONFLICT ("shop", "orderId") DO UPDATE SET
     "checkoutToken" = COALESCE(EXCLUDED."checkoutToken", "AdClick"."checkoutToken"),
     "marketing" = EXCLUDED."marketing",
     "fbp" = CASE WHEN EXCLUDED."marketing" THEN COALESCE(EXCLUDED."fbp", "AdClick"."fbp") END,
     "fbc" = CASE WHEN EXCLUDED."marketing" THEN COALESCE(EXCLUDED."fbc", "AdClick"."fbc") END,
     "ttclid" = CASE WHEN EXCLUDED."marketing" THEN COALESCE(EXCLUDED."ttclid", "AdClick"."ttclid") END,
     "ttp" = CASE WHEN EXCLUDED."marketing" THEN COALESCE(EXCLUDED."ttp", "AdClick"."ttp") END,
     "pageUrl" = CASE WHEN EXCLUDED."marketing" THEN COALESCE(EXCLUDED."pageUrl", "AdClick"."pageUrl") END,
     "receivedAt" = EXCLUDED."receivedAt"
   WHERE "AdClick"."marketing" = TRUE`,
);

export type PixelAnswer = { status: 204 } | { status: 400; error: string } | { status: 404 } | { status: 429 };

const TOKEN = /^[a-z0-9]{20,40}$/;

/** Receives one pixel message for the shop its token names. */
export async function receivePixelSignal(
  db: Db,
  token: string,
  body: string,
  nowMs = Date.now(),
): Promise<PixelAnswer> {
  if (!TOKEN.test(token)) return { status: 404 };
  if (!perShop.take(token, nowMs)) return { status: 429 };
  const sql = sqlOf(db);
  const [feed] = await sql.all(FEED_OF_TOKEN, [token]);
  if (!feed) return { status: 404 };
  const checked = checkSignal(body);
  if (!checked.ok) return { status: 400, error: checked.why };
  // Nothing is collected for a feed that is off.
  if (feed.enabled !== true) return { status: 204 };
  const signal = checked.signal;
  const orderId = orderIdOf(signal);
  if (!perOrder.take(`${token}:${orderId}`, nowMs)) return { status: 429 };
  await sql.run(KEEP, [
    String(feed.shop),
    orderId,
    signal.checkoutToken ?? null,
    signal.marketing,
    signal.fbp ?? null,
    signal.fbc ?? null,
    signal.ttclid ?? null,
    signal.ttp ?? null,
    signal.pageUrl ?? null,
    new Date(nowMs),
  ]);
  return { status: 204 };
}

/**
 * customers/redact: the feed's data of these orders goes: their click ids and
 * consent, and their outcomes waiting to be told (never sent now). What was sent
 * keeps only its stage, platform and time: the feed stores no customer data.
 */
export async function eraseCustomerFeedData(
  tx: Prisma.TransactionClient,
  shop: string,
  orders: { orderIds: string[]; linkIds: string[] },
): Promise<void> {
  if (orders.orderIds.length > 0) await tx.adClick.deleteMany({ where: { shop, orderId: { in: orders.orderIds } } });
  if (orders.linkIds.length > 0)
    await tx.adEvent.updateMany({
      where: { shop, linkId: { in: orders.linkIds }, state: "pending" },
      data: { state: "erased" },
    });
}

/** shop/redact: everything the feed holds for the shop. */
export async function eraseShopFeedData(tx: Prisma.TransactionClient, shop: string): Promise<void> {
  await tx.adClick.deleteMany({ where: { shop } });
  await tx.adEvent.deleteMany({ where: { shop } });
  await tx.adFeed.deleteMany({ where: { shop } });
}
