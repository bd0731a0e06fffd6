/**
 * The Meta stand-in refuses what Meta refuses (field types, hashing shape, the
 * 7-day window, batch size, token) with Graph's error shape, and deduplicates
 * an event_id within 48 hours as Meta does.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { adStandInControl, startMetaStandIn, type RunningStandIn } from "../../ads-stand-in/index";
import { toMetaEvent } from "../../app/ad-platforms/index";
import { conversion, DATASET, META_TOKEN } from "../ad-platforms/helpers";

let meta: RunningStandIn;
let control: ReturnType<typeof adStandInControl>;
beforeAll(async () => {
  meta = await startMetaStandIn();
  control = adStandInControl(meta.url);
});
afterAll(() => meta.close());
beforeEach(async () => {
  await control.reset();
  await control.credentials({ id: DATASET, token: META_TOKEN });
});

const event = () => toMetaEvent(conversion(), "CODDelivered") as unknown as Record<string, unknown>;
async function post(data: unknown, token: string | null = META_TOKEN) {
  const res = await fetch(`${meta.url}/v25.0/${DATASET}/events`, {
    method: "POST",
    headers: { "content-type": "application/json", ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: JSON.stringify({ data }),
  });
  return {
    status: res.status,
    body: (await res.json()) as { error?: Record<string, unknown>; events_received?: number },
  };
}

describe("Meta stand-in", () => {
  it("GIVEN a valid event WHEN posted THEN Graph's success answer", async () => {
    const { status, body } = await post([event()]);
    expect(status).toBe(200);
    expect(body).toMatchObject({ events_received: 1, messages: [] });
  });

  it("GIVEN an email sent in clear WHEN posted THEN code 100 naming the field", async () => {
    const e = event();
    (e.user_data as Record<string, unknown>).em = ["fatima@example.ma"];
    const { status, body } = await post([event(), e]);
    expect(status).toBe(400);
    expect(body.error).toMatchObject({ code: 100, type: "OAuthException", is_transient: false });
    expect(body.error!.error_user_msg).toBe(
      "data[1].user_data.em[0]: must be a SHA-256 hash (64 lower-case hex characters) of the normalised value",
    );
  });

  it("GIVEN event_time in milliseconds, a misspelt field or a website event without its user agent WHEN posted THEN refused", async () => {
    expect((await post([{ ...event(), event_time: Date.now() }])).body.error!.error_user_title).toBe(
      "Event Timestamp In The Future",
    );
    expect((await post([{ ...event(), eventName: "x" }])).body.error!.error_user_msg).toMatch(/Unrecognized key/);
    const e = event();
    delete (e.user_data as Record<string, unknown>).client_user_agent;
    expect((await post([e])).body.error!.error_user_msg).toMatch(/website events require client_user_agent/);
  });

  it("GIVEN more than 1,000 events WHEN posted THEN the request is refused whole", async () => {
    const { body } = await post(Array.from({ length: 1001 }, event));
    expect(body.error!.error_user_msg).toBe("data: holds at most 1,000 events");
    expect((await control.received()).events).toHaveLength(0);
  });

  it("GIVEN no token or an unknown one WHEN posted THEN Graph's codes 104 and 190", async () => {
    expect((await post([event()], null)).body.error!.code).toBe(104);
    expect((await post([event()], "EAAGunknown00000000")).body.error!.code).toBe(190);
  });

  it("GIVEN the same event_id WHEN seen again within 48 hours THEN kept once; after 48 hours THEN kept again", async () => {
    await post([event()]);
    await post([event()]);
    expect((await control.received()).events).toHaveLength(1);
    await control.clock(49 * 3600);
    const later = { ...event(), event_time: Math.floor(Date.now() / 1000) + 49 * 3600 - 60 };
    await post([later]);
    const received = await control.received();
    expect(received.events).toHaveLength(2);
    expect(received.duplicates).toBe(1);
  });

  it("GIVEN an answer_lost fault WHEN an event is posted THEN the connection is cut, the event kept, and the same event sent again counts as a duplicate", async () => {
    await control.fault({ kind: "answer_lost" });
    await expect(post([event()])).rejects.toThrow();
    expect((await control.received()).events).toHaveLength(1);
    expect((await post([event()])).status).toBe(200);
    const received = await control.received();
    expect(received.events).toHaveLength(1);
    expect(received.duplicates).toBe(1);
  });
});
