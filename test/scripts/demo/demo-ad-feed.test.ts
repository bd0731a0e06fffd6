/**
 * The demo's ad stand-ins on their own: they accept the app's clients with the
 * tokens made for the run and refuse others, and what they kept reads back by
 * order for the summary (TikTok's token check, a test event, left out).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  createMetaClient,
  createTikTokClient,
  eventIdFor,
  hashCustomer,
  toMetaEvent,
  toTikTokEvent,
  VERIFY_TEST_EVENT_CODE,
  type Conversion,
  type FeedStage,
} from "../../../app/ad-platforms";
import {
  DEMO_DATASET,
  DEMO_PIXEL,
  readAcceptedEvents,
  startAdStandIns,
  type AdStandIns,
} from "../../../scripts/dev/demo/ad-feed";

let ads: AdStandIns;
beforeAll(async () => {
  ads = await startAdStandIns({ meta: 0, tiktok: 0 });
});
afterAll(() => ads?.close());

const conversion = (orderId: string, stage: FeedStage): Conversion => ({
  eventId: eventIdFor(orderId, stage),
  stage,
  eventTime: Math.floor(Date.now() / 1000) - 60,
  customer: hashCustomer({ phone: "+212661234501", email: "salma.bennani@example.ma", countryCode: "MA" }),
  browser: {},
  clicks: {},
  pageUrl: "https://atlas-beauty.myshopify.com/",
  value: 229,
  currency: "MAD",
  orderId: "#1001",
  items: [{ id: "ARG-OIL-100", quantity: 1, price: 229 }],
});

describe("the demo's Meta and TikTok stand-ins", () => {
  it("GIVEN the run's tokens WHEN the app's clients verify and send THEN the events read back by order, test events left out; another token is refused", async () => {
    const meta = createMetaClient({ baseUrl: ads.meta.url });
    const tiktok = createTikTokClient({ baseUrl: ads.tiktok.url });
    expect(await meta.verifyDataset(DEMO_DATASET, ads.tokens.meta)).toMatchObject({ name: "Atlas Beauty COD" });
    await tiktok.verifyPixel(
      DEMO_PIXEL,
      ads.tokens.tiktok,
      VERIFY_TEST_EVENT_CODE,
      "https://atlas-beauty.myshopify.com/",
    );
    await expect(meta.verifyDataset(DEMO_DATASET, `${ads.tokens.meta}x`)).rejects.toThrow(/Invalid OAuth access token/);
    await expect(
      tiktok.verifyPixel(DEMO_PIXEL, ads.tokens.tiktok.slice(1), VERIFY_TEST_EVENT_CODE, "https://example.com/"),
    ).rejects.toThrow(/invalid or has been revoked/);

    await meta.sendEvents(DEMO_DATASET, ads.tokens.meta, [
      toMetaEvent(conversion("6180000001001", "delivered"), "CODDelivered"),
      toMetaEvent(conversion("6180000001002", "refused"), "CODRefused"),
    ]);
    await tiktok.sendEvents(DEMO_PIXEL, ads.tokens.tiktok, [
      toTikTokEvent(conversion("6180000001001", "delivered"), "CODDelivered"),
    ]);

    expect(Object.fromEntries(await readAcceptedEvents(ads))).toEqual({
      "6180000001001": [
        { platform: "meta", event: "CODDelivered" },
        { platform: "tiktok", event: "CODDelivered" },
      ],
      "6180000001002": [{ platform: "meta", event: "CODRefused" }],
    });
  });

  it("GIVEN two runs THEN each has tokens of its own, never the other's", async () => {
    const other = await startAdStandIns({ meta: 0, tiktok: 0 });
    try {
      expect(other.tokens.meta).not.toBe(ads.tokens.meta);
      expect(other.tokens.tiktok).not.toBe(ads.tokens.tiktok);
      await expect(
        createMetaClient({ baseUrl: other.meta.url }).verifyDataset(DEMO_DATASET, ads.tokens.meta),
      ).rejects.toThrow(/Invalid OAuth access token/);
    } finally {
      await other.close();
    }
  });
});
