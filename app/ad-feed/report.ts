/**
 * What the merchant reads of the feed, pure: per week, the orders placed (what
 * Shopify's checkout told the ads as purchases) beside the outcomes the feed
 * told each platform and those it did not tell (too late, no consent, refused),
 * and the period's gap in one sentence's numbers.
 */
import { weekOf } from "../analytics/days";
import {
  AD_PLATFORMS,
  FEED_STAGES,
  type AdPlatform,
  type CountedStage,
  type FeedStage,
} from "../ad-platforms/conversion";

/** One count of the feed's rows: a day, a platform, a stage, a state. */
export interface FeedCount {
  day: string;
  platform: AdPlatform;
  stage: FeedStage;
  state: string;
  count: number;
}

export const NOT_SENT_STATES = ["too_late", "no_consent", "refused"] as const;
export type NotSentState = (typeof NOT_SENT_STATES)[number];

export interface FeedWeek {
  /** Monday of the week. */
  week: string;
  /** Orders placed: the purchases the ads were told of at checkout. */
  placed: number;
  /** Orders that reached the counted stage this week (recorded for the feed). */
  reached: number;
  /** Events accepted, per platform and stage. */
  sent: Record<AdPlatform, Record<FeedStage, number>>;
  notSent: Record<NotSentState, number>;
  /** Waiting to be sent. */
  pending: number;
}

export interface FeedGap {
  placed: number;
  reached: number;
  sent: Record<AdPlatform, number>;
}

const perStage = () => Object.fromEntries(FEED_STAGES.map((s) => [s, 0])) as Record<FeedStage, number>;

/** Weeks of the period with their orders placed (the Analytics weeks) and the feed's counts. */
export function feedWeeks(
  placedByWeek: readonly { week: string; orders: number }[],
  counts: readonly FeedCount[],
  counted: CountedStage,
): FeedWeek[] {
  const weeks = new Map<string, FeedWeek>(
    placedByWeek.map((w) => [
      w.week,
      {
        week: w.week,
        placed: w.orders,
        reached: 0,
        sent: { meta: perStage(), tiktok: perStage() },
        notSent: { too_late: 0, no_consent: 0, refused: 0 },
        pending: 0,
      },
    ]),
  );
  // Each order reaching the stage has one row per platform connected then: the most rows of one platform.
  const reachedByDay = new Map<string, Record<AdPlatform, number>>();
  for (const c of counts) {
    const week = weeks.get(weekOf(c.day));
    if (!week) continue;
    if (c.state === "sent") week.sent[c.platform][c.stage] += c.count;
    else if ((NOT_SENT_STATES as readonly string[]).includes(c.state)) week.notSent[c.state as NotSentState] += c.count;
    else if (c.state === "pending") week.pending += c.count;
    if (c.stage === counted && c.state !== "cancelled") {
      const byPlatform = reachedByDay.get(c.day) ?? { meta: 0, tiktok: 0 };
      byPlatform[c.platform] += c.count;
      reachedByDay.set(c.day, byPlatform);
    }
  }
  for (const [day, byPlatform] of reachedByDay)
    weeks.get(weekOf(day))!.reached += Math.max(...AD_PLATFORMS.map((p) => byPlatform[p]));
  return [...weeks.values()];
}

export function feedGap(weeks: readonly FeedWeek[], counted: CountedStage): FeedGap {
  const gap: FeedGap = { placed: 0, reached: 0, sent: { meta: 0, tiktok: 0 } };
  for (const w of weeks) {
    gap.placed += w.placed;
    gap.reached += w.reached;
    for (const p of AD_PLATFORMS) gap.sent[p] += w.sent[p][counted];
  }
  return gap;
}
