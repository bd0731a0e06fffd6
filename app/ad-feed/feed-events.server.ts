/**
 * The conversion feed's lead-events handler (registered in
 * app/sync/lead-events.server.ts): an order that reaches an outcome the shop's
 * feed tells becomes one AdEvent row per connected platform, pending, and the
 * shop's feed job is woken. The rows' key (shop, link, stage, platform) makes
 * each outcome counted once whatever repeats (a status seen twice, an event
 * told again). Nothing is recorded while the feed is off, nor for an outcome
 * reached before it was switched on. Batches without a reached outcome cost no
 * statement.
 */
import type { Prisma } from "@prisma/client";
import { AD_PLATFORMS, type AdPlatform, type FeedStage } from "../ad-platforms/conversion";
import { DEFAULT_TIME_ZONE, localDay } from "../analytics/days";
import { asDate, asBool, newId, rowsOf, sqlOf, statement, statementsByCount } from "../db/sql";
import { adFeedJobFor } from "../models/job-kinds";
import type { LeadEvent } from "../models/lead-events";
import { wakeJobs } from "../queue/jobs.server";
import { storedStage, wantedStages } from "./feed-settings";
import { newlyReached } from "./stages";

/** Every stage the feed can tell: a batch that reaches none of them is left at once. */
const ANY_STAGE = new Set<FeedStage>(["confirmed", "shipped", "delivered", "refused", "returned"]);

const FEED_ON = statement(
  `SELECT "enabledAt", "stage", "negativeOutcomes",
          ("metaDatasetId" IS NOT NULL AND "metaTokenCipher" IS NOT NULL) AS "meta",
          ("tiktokPixelCode" IS NOT NULL AND "tiktokTokenCipher" IS NOT NULL) AS "tiktok"
     FROM "AdFeed" WHERE "shop" = ? AND "enabled" = TRUE`,
);

const ROWS_PER_INSERT = 100;
const insertEvents = statementsByCount(
  (count) =>
    `INSERT INTO "AdEvent" ("id", "shop", "linkId", "stage", "platform", "state", "occurredAt", "day", "createdAt")
       VALUES ${rowsOf(`(?, ?, ?, ?, ?, 'pending', ?, ?, ?)`, count)} ON CONFLICT ("shop", "linkId", "stage", "platform") DO NOTHING`,
);

export async function adFeedHandler(tx: Prisma.TransactionClient, shop: string, events: LeadEvent[]): Promise<void> {
  const reaching = events.filter((e) => newlyReached(e.before, e.after, ANY_STAGE).length > 0);
  if (reaching.length === 0) return;
  const sql = sqlOf(tx);
  const [feed] = await sql.all(FEED_ON, [shop]);
  if (!feed) return;
  const platforms = AD_PLATFORMS.filter((p) => asBool(feed[p]));
  if (platforms.length === 0) return;
  const enabledAt = asDate(feed.enabledAt)?.getTime() ?? 0;
  const wanted = wantedStages({ stage: storedStage(feed.stage), negativeOutcomes: asBool(feed.negativeOutcomes) });
  const now = new Date();
  const rows: unknown[][] = [];
  for (const event of reaching) {
    if (event.at.getTime() < enabledAt) continue;
    for (const stage of newlyReached(event.before, event.after, wanted))
      for (const platform of platforms as AdPlatform[])
        rows.push([newId(), shop, event.linkId, stage, platform, event.at, localDay(DEFAULT_TIME_ZONE, event.at), now]);
  }
  if (rows.length === 0) return;
  for (let i = 0; i < rows.length; i += ROWS_PER_INSERT) {
    const page = rows.slice(i, i + ROWS_PER_INSERT);
    await sql.run(insertEvents(page.length), page.flat());
  }
  await wakeJobs(sql, [adFeedJobFor(shop)]);
}
