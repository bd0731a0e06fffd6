/**
 * Meta's Conversions API client against the stand-in (a real loopback server):
 * events accepted, the errors it names (a refused token, a rate limit, a
 * failure for now, an event too old), retries, and the token never in a message.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { adStandInControl, startMetaStandIn, type RunningStandIn } from "../../ads-stand-in/index";
import {
  AdAuthError,
  AdRateLimitError,
  AdRefusedError,
  AdTransientError,
  createMetaClient,
  toMetaEvent,
  type AdPlatformError,
} from "../../app/ad-platforms/index";
import { conversion, DATASET, META_TOKEN, noWait } from "./helpers";

let meta: RunningStandIn;
let control: ReturnType<typeof adStandInControl>;
beforeAll(async () => {
  meta = await startMetaStandIn();
  control = adStandInControl(meta.url);
});
afterAll(() => meta.close());
beforeEach(async () => {
  await control.reset();
  await control.credentials({ id: DATASET, token: META_TOKEN, name: "Atlas Beauty COD" });
});

const client = () => createMetaClient({ baseUrl: meta.url, retry: noWait });
const caught = (promise: Promise<unknown>) =>
  promise.then(
    () => {
      throw new Error("expected a failure");
    },
    (e: unknown) => e as AdPlatformError,
  );

describe("Meta's Conversions API client", () => {
  it("GIVEN a delivered order WHEN sent THEN Meta receives one website event with hashed customer data and the click ids", async () => {
    const result = await client().sendEvents(DATASET, META_TOKEN, [toMetaEvent(conversion(), "CODDelivered")]);
    expect(result.eventsReceived).toBe(1);
    const [event] = (await control.received()).events;
    expect(event).toMatchObject({
      target: DATASET,
      eventName: "CODDelivered",
      eventId: "cod-6180000001001-delivered",
      test: false,
    });
    expect(event.body).toMatchObject({
      action_source: "website",
      event_source_url: "https://atlas-beauty.ma/checkouts/cn/abc/thank-you",
      user_data: {
        client_user_agent: expect.stringContaining("Mozilla"),
        client_ip_address: "105.66.12.34",
        fbp: "fb.1.1596403881668.1116446470",
        fbc: "fb.1.1596403881668.IwAR2xyz",
        em: [expect.stringMatching(/^[a-f0-9]{64}$/)],
        ph: [expect.stringMatching(/^[a-f0-9]{64}$/)],
      },
      custom_data: { currency: "MAD", value: 249, contents: [{ id: "ARGAN-50", quantity: 1, item_price: 249 }] },
    });
  });

  it("GIVEN an order a form app created (no browser) WHEN sent THEN it is an `other` event matched on customer data alone", async () => {
    await client().sendEvents(DATASET, META_TOKEN, [
      toMetaEvent(conversion({ browser: {}, clicks: {} }), "CODDelivered"),
    ]);
    const [event] = (await control.received()).events;
    expect(event.body.action_source).toBe("other");
    expect(event.body).not.toHaveProperty("event_source_url");
    expect(event.body.user_data).not.toHaveProperty("client_user_agent");
  });

  it("GIVEN the same event sent twice WHEN received THEN Meta keeps it once (same event_id)", async () => {
    const event = toMetaEvent(conversion(), "CODDelivered");
    await client().sendEvents(DATASET, META_TOKEN, [event]);
    await client().sendEvents(DATASET, META_TOKEN, [event]);
    const received = await control.received();
    expect(received.events).toHaveLength(1);
    expect(received.duplicates).toBe(1);
  });

  it("GIVEN an event more than 7 days old in a batch WHEN sent THEN the whole batch is refused with Meta's message", async () => {
    const old = conversion({ eventId: "cod-1-delivered", eventTime: Math.floor(Date.now() / 1000) - 8 * 86400 });
    const error = await caught(
      client().sendEvents(DATASET, META_TOKEN, [
        toMetaEvent(conversion(), "CODDelivered"),
        toMetaEvent(old, "CODDelivered"),
      ]),
    );
    expect(error).toBeInstanceOf(AdRefusedError);
    expect(error).toMatchObject({ code: 100, subcode: 2804003 });
    expect(error.message).toMatch(/^Event Timestamp Too Old: .*within 7 days/);
    expect((await control.received()).events).toHaveLength(0);
  });

  it("GIVEN a refused token WHEN sent THEN an AdAuthError whose message and fields never hold the token", async () => {
    const wrong = "EAAGwrongtoken0123456789";
    const error = await caught(client().sendEvents(DATASET, wrong, [toMetaEvent(conversion(), "CODDelivered")]));
    expect(error).toBeInstanceOf(AdAuthError);
    expect(error.code).toBe(190);
    expect(JSON.stringify({ ...error, message: error.message, stack: error.stack })).not.toContain(wrong);
  });

  it("GIVEN the application's rate limit WHEN sent THEN an AdRateLimitError with the stated wait", async () => {
    await control.fault({ kind: "rate_limit", retryAfterSeconds: 7 });
    const error = await caught(client().sendEvents(DATASET, META_TOKEN, [toMetaEvent(conversion(), "CODDelivered")]));
    expect(error).toBeInstanceOf(AdRateLimitError);
    expect((error as AdRateLimitError).retryAfterMs).toBe(7000);
  });

  it("GIVEN one transient failure WHEN sent THEN it is retried and accepted; two in a row give an AdTransientError", async () => {
    await control.fault({ kind: "server_error" });
    expect(
      (await client().sendEvents(DATASET, META_TOKEN, [toMetaEvent(conversion(), "CODDelivered")])).eventsReceived,
    ).toBe(1);
    await control.fault({ kind: "drop", times: 2 });
    const error = await caught(
      client().sendEvents(DATASET, META_TOKEN, [
        toMetaEvent(conversion({ eventId: "cod-2-delivered" }), "CODDelivered"),
      ]),
    );
    expect(error).toBeInstanceOf(AdTransientError);
  });

  it("GIVEN a token WHEN its dataset is verified THEN the dataset's name; another dataset is refused with Meta's words", async () => {
    expect(await client().verifyDataset(DATASET, META_TOKEN)).toEqual({ id: DATASET, name: "Atlas Beauty COD" });
    const error = await caught(client().verifyDataset("999999999", META_TOKEN));
    expect(error).toBeInstanceOf(AdRefusedError);
    expect(error.message).toContain("does not exist, cannot be loaded due to missing permissions");
  });

  it("GIVEN too many events for one request WHEN sent THEN nothing leaves the app", async () => {
    const events = Array.from({ length: 1001 }, (_, i) =>
      toMetaEvent(conversion({ eventId: `e${i}` }), "CODDelivered"),
    );
    await expect(client().sendEvents(DATASET, META_TOKEN, events)).rejects.toThrow(RangeError);
    expect((await control.received()).requests).toHaveLength(0);
  });
});
