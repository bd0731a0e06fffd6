/** TikTok's Events API client against the stand-in: accepted events, return codes, retries, the token kept out. */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { adStandInControl, startTikTokStandIn, type RunningStandIn } from "../../ads-stand-in/index";
import {
  AdAuthError,
  AdRateLimitError,
  AdRefusedError,
  AdTransientError,
  createTikTokClient,
  sha256Hex,
  toTikTokEvent,
  type AdPlatformError,
} from "../../app/ad-platforms/index";
import { conversion, noWait, PIXEL, TIKTOK_TOKEN } from "./helpers";

let tiktok: RunningStandIn;
let control: ReturnType<typeof adStandInControl>;
beforeAll(async () => {
  tiktok = await startTikTokStandIn();
  control = adStandInControl(tiktok.url);
});
afterAll(() => tiktok.close());
beforeEach(async () => {
  await control.reset();
  await control.credentials({ id: PIXEL, token: TIKTOK_TOKEN });
});

const client = () => createTikTokClient({ baseUrl: tiktok.url, retry: noWait });
const caught = (promise: Promise<unknown>) =>
  promise.then(
    () => {
      throw new Error("expected a failure");
    },
    (e: unknown) => e as AdPlatformError,
  );

describe("TikTok's Events API client", () => {
  it("GIVEN a delivered order WHEN sent THEN TikTok receives it with the E.164 phone hashed and the click ids as they are", async () => {
    await client().sendEvents(PIXEL, TIKTOK_TOKEN, [toTikTokEvent(conversion(), "CODDelivered")]);
    const [event] = (await control.received()).events;
    expect(event).toMatchObject({ target: PIXEL, eventName: "CODDelivered", eventId: "cod-6180000001001-delivered" });
    expect(event.body).toMatchObject({
      user: {
        phone: [sha256Hex("+212612345678")],
        email: [sha256Hex("fatima@example.ma")],
        ttclid: "E.C.P.abc123",
        ttp: "2SbQ2l2iKsBJmV",
        ip: "105.66.12.34",
      },
      properties: { currency: "MAD", value: 249, order_id: "#1001" },
      page: { url: "https://atlas-beauty.ma/checkouts/cn/abc/thank-you" },
    });
  });

  it("GIVEN TikTok's return codes WHEN answered THEN each becomes the error the feed acts on", async () => {
    const send = () => client().sendEvents(PIXEL, TIKTOK_TOKEN, [toTikTokEvent(conversion(), "CODDelivered")]);
    await control.fault({ kind: "rate_limit" });
    expect(await caught(send())).toBeInstanceOf(AdRateLimitError);
    await control.fault({ kind: "invalid_token" });
    expect(await caught(send())).toMatchObject({ code: 40105 });
    await control.fault({ kind: "server_error", times: 2 });
    expect(await caught(send())).toBeInstanceOf(AdTransientError);
    const refused = await caught(
      client().sendEvents(PIXEL, TIKTOK_TOKEN, [toTikTokEvent(conversion({ currency: "XYZ" }), "CODDelivered")]),
    );
    expect(refused).toBeInstanceOf(AdRefusedError);
    expect(refused).toMatchObject({
      code: 40002,
      message: "data[0].properties.currency: is not a supported ISO 4217 currency",
    });
  });

  it("GIVEN a wrong token or another pixel's WHEN sent THEN an AdAuthError that never quotes the token", async () => {
    const wrong = "tt-wrong-0123456789abcdef";
    const error = await caught(client().sendEvents(PIXEL, wrong, [toTikTokEvent(conversion(), "CODDelivered")]));
    expect(error).toBeInstanceOf(AdAuthError);
    expect(JSON.stringify({ ...error, message: error.message, stack: error.stack })).not.toContain(wrong);
    await control.credentials({ id: "COTHERPIXEL123456789", token: "tt-other-0123456789abcdef" });
    expect(
      await caught(
        client().sendEvents(PIXEL, "tt-other-0123456789abcdef", [toTikTokEvent(conversion(), "CODDelivered")]),
      ),
    ).toMatchObject({ code: 40001 });
  });

  it("GIVEN a token WHEN verified THEN one test event reaches the pixel and is not counted as a conversion", async () => {
    await client().verifyPixel(PIXEL, TIKTOK_TOKEN, "TEST123", "https://atlas-beauty.ma/");
    const [event] = (await control.received()).events;
    expect(event).toMatchObject({ test: true, eventName: "CODFeedCheck" });
  });
});
