/**
 * The feed's figures for Analytics (one GROUP BY over the period's days, read
 * from the (shop, day, platform, stage, state) index alone) and its recent
 * history for Activity (the last sends, the refusals, the outcomes not told).
 * Every query is scoped to the shop.
 */
import type { Db } from "../db.server";
import { asNumber, asDate, asString, sqlOf, statement } from "../db/sql";
import type { AdPlatform, CountedStage, FeedStage } from "../ad-platforms/conversion";
import { DEFAULT_TIME_ZONE } from "../analytics/days";
import { localTime } from "../time-zone";
import { storedStage } from "./feed-settings";
import { feedGap, feedWeeks, type FeedCount, type FeedGap, type FeedWeek } from "./report";

const COUNTS = statement(
  `SELECT "day", "platform", "stage", "state", COUNT(*) AS "count" FROM "AdEvent"
    WHERE "shop" = ? AND "day" >= ? AND "day" <= ?
    GROUP BY "day", "platform", "stage", "state"`,
);

export interface AdFeedReport {
  /** The feed was set up (a platform connected at some point, or events recorded). */
  configured: boolean;
  enabled: boolean;
  stage: CountedStage;
  weeks: FeedWeek[];
  gap: FeedGap;
}

export async function loadAdFeedReport(
  db: Db,
  shop: string,
  period: { from: string; to: string },
  placedByWeek: readonly { week: string; orders: number }[],
): Promise<AdFeedReport | null> {
  const feed = await db.adFeed.findUnique({ where: { shop }, select: { enabled: true, stage: true } });
  if (!feed) return null;
  const stage = storedStage(feed.stage);
  const counts: FeedCount[] = (await sqlOf(db).all(COUNTS, [shop, period.from, period.to])).map((r) => ({
    day: String(r.day),
    platform: String(r.platform) as AdPlatform,
    stage: String(r.stage) as FeedStage,
    state: String(r.state),
    count: asNumber(r.count),
  }));
  const weeks = feedWeeks(placedByWeek, counts, stage);
  return { configured: true, enabled: feed.enabled, stage, weeks, gap: feedGap(weeks, stage) };
}

export interface FeedActivityRow {
  linkId: string;
  orderName: string;
  platform: AdPlatform;
  stage: FeedStage;
  state: string;
  /** When the outcome was sent, or recorded as not sent. */
  atLocal: string;
  customerDataOnly: boolean;
  /** The platform's message for a refusal. */
  detail: string | null;
}

export interface FeedActivity {
  sent: FeedActivityRow[];
  notSent: FeedActivityRow[];
  /** Outcomes waiting to be told. */
  pending: number;
  /** A platform refused the saved token (nothing goes to it until a new one is saved). */
  tokenRefused: AdPlatform[];
}

export const FEED_ACTIVITY_SHOWN = 20;

const LAST_SENT = statement(
  `SELECT e."linkId", l."orderName", e."platform", e."stage", e."state", e."sentAt" AS "at", e."customerDataOnly", e."detail"
     FROM "AdEvent" e LEFT JOIN "OrderLink" l ON l."id" = e."linkId" AND l."shop" = e."shop"
    WHERE e."shop" = ? AND e."state" = 'sent'
    ORDER BY e."sentAt" DESC LIMIT ?`,
);
const LAST_NOT_SENT = statement(
  `SELECT e."linkId", l."orderName", e."platform", e."stage", e."state", e."occurredAt" AS "at", e."customerDataOnly", e."detail"
     FROM "AdEvent" e LEFT JOIN "OrderLink" l ON l."id" = e."linkId" AND l."shop" = e."shop"
    WHERE e."shop" = ? AND e."state" IN ('too_late', 'no_consent', 'refused')
    ORDER BY e."occurredAt" DESC LIMIT ?`,
);
const PENDING = statement(`SELECT COUNT(*) AS "count" FROM "AdEvent" WHERE "shop" = ? AND "state" = 'pending'`);

function activityRow(r: Record<string, unknown>): FeedActivityRow {
  return {
    linkId: String(r.linkId),
    orderName: asString(r.orderName) ?? "",
    platform: String(r.platform) as AdPlatform,
    stage: String(r.stage) as FeedStage,
    state: String(r.state),
    atLocal: localTime(asDate(r.at) ?? new Date(0), DEFAULT_TIME_ZONE),
    customerDataOnly: r.customerDataOnly === true,
    detail: asString(r.detail),
  };
}

export async function loadFeedActivity(db: Db, shop: string): Promise<FeedActivity | null> {
  const feed = await db.adFeed.findUnique({
    where: { shop },
    select: { metaRefusedAt: true, tiktokRefusedAt: true, metaTokenCipher: true, tiktokTokenCipher: true },
  });
  if (!feed) return null;
  const sql = sqlOf(db);
  const [sent, notSent, [pending]] = await Promise.all([
    sql.all(LAST_SENT, [shop, FEED_ACTIVITY_SHOWN]),
    sql.all(LAST_NOT_SENT, [shop, FEED_ACTIVITY_SHOWN]),
    sql.all(PENDING, [shop]),
  ]);
  return {
    sent: sent.map(activityRow),
    notSent: notSent.map(activityRow),
    pending: asNumber(pending?.count),
    tokenRefused: [
      ...(feed.metaRefusedAt && feed.metaTokenCipher ? (["meta"] as const) : []),
      ...(feed.tiktokRefusedAt && feed.tiktokTokenCipher ? (["tiktok"] as const) : []),
    ],
  };
}
