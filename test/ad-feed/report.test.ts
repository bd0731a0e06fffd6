/** The Analytics card's weeks: orders placed beside what the feed told, and the gap. */
import { describe, expect, it } from "vitest";
import { feedGap, feedWeeks, type FeedCount } from "../../app/ad-feed/report";

describe("the feed's weeks", () => {
  it("GIVEN the feed's counts by day WHEN folded into weeks THEN sent per platform, not sent, and orders that reached the stage", () => {
    const counts: FeedCount[] = [
      { day: "2026-11-16", platform: "meta", stage: "delivered", state: "sent", count: 5 },
      { day: "2026-11-16", platform: "tiktok", stage: "delivered", state: "sent", count: 4 },
      { day: "2026-11-16", platform: "tiktok", stage: "delivered", state: "no_consent", count: 1 },
      { day: "2026-11-18", platform: "meta", stage: "returned", state: "sent", count: 2 },
      { day: "2026-11-24", platform: "meta", stage: "delivered", state: "too_late", count: 1 },
      { day: "2026-11-24", platform: "meta", stage: "delivered", state: "pending", count: 3 },
      { day: "2026-11-24", platform: "meta", stage: "delivered", state: "cancelled", count: 9 },
    ];
    const weeks = feedWeeks(
      [
        { week: "2026-11-16", orders: 12 },
        { week: "2026-11-23", orders: 7 },
      ],
      counts,
      "delivered",
    );
    expect(weeks[0]).toMatchObject({ placed: 12, reached: 5, notSent: { no_consent: 1, too_late: 0, refused: 0 } });
    expect(weeks[0].sent.meta).toMatchObject({ delivered: 5, returned: 2 });
    expect(weeks[0].sent.tiktok.delivered).toBe(4);
    expect(weeks[1]).toMatchObject({ placed: 7, reached: 4, pending: 3, notSent: { too_late: 1 } });
    expect(feedGap(weeks, "delivered")).toEqual({ placed: 19, reached: 9, sent: { meta: 5, tiktok: 4 } });
  });
});
