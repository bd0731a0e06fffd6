/** The TikTok stand-in refuses what the Events API refuses, with its return codes, and deduplicates event_ids. */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { adStandInControl, startTikTokStandIn, type RunningStandIn } from "../../ads-stand-in/index";
import { toTikTokEvent } from "../../app/ad-platforms/index";
import { conversion, PIXEL, TIKTOK_TOKEN } from "../ad-platforms/helpers";

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

const event = () => toTikTokEvent(conversion(), "CODDelivered") as unknown as Record<string, unknown>;
async function post(body: Record<string, unknown>, token: string | null = TIKTOK_TOKEN) {
  const res = await fetch(`${tiktok.url}/open_api/v1.3/event/track/`, {
    method: "POST",
    headers: { "content-type": "application/json", ...(token ? { "access-token": token } : {}) },
    body: JSON.stringify(body),
  });
  return { status: res.status, body: (await res.json()) as { code: number; message: string; request_id: string } };
}
const track = (data: unknown[]) => ({ event_source: "web", event_source_id: PIXEL, data });

describe("TikTok stand-in", () => {
  it("GIVEN a valid event WHEN tracked THEN code 0 with a request id", async () => {
    const { status, body } = await post(track([event()]));
    expect(status).toBe(200);
    expect(body).toMatchObject({ code: 0, message: "OK", request_id: expect.stringMatching(/^[a-f0-9]{24}$/) });
  });

  it("GIVEN a phone in clear, an old event or a missing page WHEN tracked THEN 40002 naming the field", async () => {
    const clear = event();
    (clear.user as Record<string, unknown>).phone = ["+212612345678"];
    expect((await post(track([clear]))).body).toMatchObject({
      code: 40002,
      message: "data[0].user.phone[0]: must be SHA-256 hashed (64 lower-case hex characters)",
    });
    const old = { ...event(), event_time: Math.floor(Date.now() / 1000) - 8 * 86400 };
    expect((await post(track([event(), old]))).body.message).toBe("data[1].event_time: more than 7 days old.");
    const { page: _page, ...noPage } = event();
    expect((await post(track([noPage]))).body.message).toBe("data[0].page: Required");
    expect((await control.received()).events).toHaveLength(0);
  });

  it("GIVEN 1,001 events or another event source WHEN tracked THEN refused whole", async () => {
    expect((await post(track(Array.from({ length: 1001 }, event)))).body.message).toBe(
      "data: holds at most 1,000 events",
    );
    expect((await post({ ...track([event()]), event_source: "app" })).body.message).toBe(
      "event_source: must be web for a pixel",
    );
  });

  it("GIVEN no token, an unknown token or a pixel the token does not reach WHEN tracked THEN 40104, 40105 and 40001", async () => {
    expect((await post(track([event()]), null)).body.code).toBe(40104);
    expect((await post(track([event()]), "nope-0000000000")).body.code).toBe(40105);
    expect((await post({ ...track([event()]), event_source_id: "COTHER0000000000000" })).body.code).toBe(40001);
  });

  it("GIVEN the same event twice WHEN tracked THEN kept once and counted as a duplicate", async () => {
    await post(track([event(), event()]));
    const received = await control.received(PIXEL);
    expect(received.events).toHaveLength(1);
    expect(received.duplicates).toBe(1);
  });

  it("GIVEN an answer_lost fault WHEN an event is tracked THEN the connection is cut, the event kept, and the same event sent again counts as a duplicate", async () => {
    await control.fault({ kind: "answer_lost" });
    await expect(post(track([event()]))).rejects.toThrow();
    expect((await control.received(PIXEL)).events).toHaveLength(1);
    expect((await post(track([event()]))).body.code).toBe(0);
    const received = await control.received(PIXEL);
    expect(received.events).toHaveLength(1);
    expect(received.duplicates).toBe(1);
  });
});
