/**
 * Retries, 429 waits and the POST outcome-unknown rule, with a scripted fetch and a
 * fake clock: every wait is asserted, none is real (timeouts are 50 ms).
 */
import { describe, expect, it } from "vitest";
import {
  ConnectionError,
  InternalServerError,
  OutcomeUnknownError,
  RateLimitError,
  SellerApiError,
  TimeoutError,
} from "../../app/seller-api/index";
import { lead, meAnswer, setup } from "./helpers/client-setup";
import { json, networkError, type Step } from "./helpers/scripted-fetch";

/** A limiter that never waits, so `clock.sleeps` holds only the client's own waits. */
const unpaced = { limiter: { acquire: async () => undefined, penalize: () => undefined } };
const cities = json(200, { data: [{ id: 101, name: "Casablanca", delivery_fee: "20.00" }] });
const created = json(201, { data: { ref: "ATB-1" } });

async function caught(promise: Promise<unknown>): Promise<SellerApiError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  if (!(error instanceof SellerApiError)) throw new Error(`expected a SellerApiError, got ${String(error)}`);
  return error;
}

describe("GET retries: 5xx, connection errors, timeouts", () => {
  it("GIVEN two 500s THEN the third attempt succeeds after full-jitter exponential backoff", async () => {
    const { client, clock, calls } = setup(
      [meAnswer(), json(500, { error: { code: "internal_error" } }), json(503, {}), cities],
      unpaced,
    );
    await expect(client.cities()).resolves.toHaveLength(1);
    // random() = 0.5: half of 500 ms, then half of 1000 ms.
    expect(clock.sleeps).toEqual([250, 500]);
    expect(calls.slice(1).map((c) => [c.status, c.attempt])).toEqual([
      [500, 1],
      [503, 2],
      [200, 3],
    ]);
  });

  it("caps the backoff at maxDelayMs and uses the whole range of the jitter", async () => {
    const steps = [meAnswer(), ...Array.from({ length: 5 }, () => json(500, {})), cities];
    const { client, clock } = setup(steps, {
      ...unpaced,
      random: () => 0.999,
      retry: { maxAttempts: 6, baseDelayMs: 1000, maxDelayMs: 3000 },
    });
    await client.cities();
    expect(clock.sleeps).toEqual([999, 1998, 2997, 2997, 2997]);
  });

  it("GIVEN 500s on every attempt THEN InternalServerError, retriable, with the time of the last call", async () => {
    const { client, clock, requests } = setup([
      meAnswer(),
      json(500, {}),
      json(500, {}),
      json(500, { error: { code: "internal_error", message: "boom" } }),
    ]);
    const error = await caught(client.cities());
    expect(error).toBeInstanceOf(InternalServerError);
    expect(error).toMatchObject({ status: 500, code: "internal_error", retriable: true });
    expect(error.requestTime.getTime()).toBe(clock.now());
    expect(requests).toHaveLength(4);
  });

  it("GIVEN a 503 stating Retry-After THEN the stated delay is waited instead of the jitter", async () => {
    const { client, clock } = setup([meAnswer(), json(503, {}, { "Retry-After": "4" }), cities], unpaced);
    await client.cities();
    expect(clock.sleeps).toEqual([4000]);
  });

  it.each(["ECONNRESET", "ECONNREFUSED", "UND_ERR_SOCKET"])("GIVEN a %s on a GET THEN it is retried", async (code) => {
    const { client, calls } = setup([meAnswer(), { throws: networkError(code) }, cities]);
    await expect(client.cities()).resolves.toHaveLength(1);
    expect(calls[1]).toMatchObject({ status: null, error: code, attempt: 1 });
  });

  it("GIVEN connection errors on every attempt THEN ConnectionError with the reason", async () => {
    const fail: Step = { throws: networkError("ECONNRESET") };
    const { client } = setup([meAnswer(), fail, fail, fail]);
    const error = await caught(client.cities());
    expect(error).toBeInstanceOf(ConnectionError);
    expect(error).toMatchObject({ reason: "ECONNRESET", retriable: true, status: undefined });
  });

  it("GIVEN a hanging GET THEN it times out and is retried; always hanging -> TimeoutError", async () => {
    const ok = setup([meAnswer(), { hang: true }, cities]);
    await expect(ok.client.cities()).resolves.toHaveLength(1);
    expect(ok.calls[1]).toMatchObject({ status: null, error: "timeout" });

    const bad = setup([meAnswer(), { hang: true }, { hang: true }], { retry: { maxAttempts: 2 } });
    const error = await caught(bad.client.cities());
    expect(error).toBeInstanceOf(TimeoutError);
    expect(error.message).toContain("no answer within 50 ms");
  });

  it("GIVEN a 4xx THEN it is not retried", async () => {
    const { client, requests } = setup([meAnswer(), json(401, { error: { code: "unauthorized" } })]);
    await expect(client.cities()).rejects.toMatchObject({ status: 401 });
    expect(requests).toHaveLength(2);
  });
});

describe("429: wait the stated delay, never retry at once", () => {
  const limited = (headers: Record<string, string>, body: unknown = { error: { code: "rate_limited" } }): Step =>
    json(429, body, headers);

  const MINUTE_START = Date.UTC(2025, 0, 15, 10, 0, 0); // the fake clock's start
  const after = (ms: number) => (refusedAt: number) => refusedAt + ms;
  const at = (absolute: number) => () => absolute;

  it.each<[string, Step, (refusedAt: number) => number]>([
    [
      "Retry-After seconds (sandbox)",
      limited({ "Retry-After": "17" }, { error: { code: "rate_limited", retry_after: 17 } }),
      after(17_000),
    ],
    [
      "Retry-After HTTP-date",
      limited({ "Retry-After": new Date(MINUTE_START + 42_000).toUTCString() }),
      at(MINUTE_START + 42_000),
    ],
    ["delay in the body only", limited({}, { error: { code: "rate_limited", retry_after: 9 } }), after(9_000)],
    ["delay in a flat body only", limited({}, { code: "rate_limited", retry_after: 8 }), after(8_000)],
    ["milliseconds header", limited({ "Retry-After-Ms": "2500" }), after(2_500)],
    ["milliseconds in the body", limited({}, { error: { retry_after_ms: 1500 } }), after(1_500)],
    ["no delay at all -> the next minute", limited({}), at(MINUTE_START + 60_000)],
  ])("GIVEN a 429 with %s THEN nothing is sent before the delay ends", async (_label, answer, earliest) => {
    const { client, calls, clock } = setup([meAnswer(), answer, meAnswer(), cities]);
    await expect(client.cities()).resolves.toHaveLength(1);
    const [, refused, reread, retried] = calls;
    expect(refused.status).toBe(429);
    expect(reread.path).toBe("/v1/me"); // the rate is re-read after every 429
    expect(retried).toMatchObject({ path: "/v1/cities", status: 200 });
    const expected = earliest(refused.at.getTime());
    expect(reread.at.getTime()).toBeGreaterThanOrEqual(expected);
    // ... and the client slept that wait itself rather than in many small steps.
    expect(clock.sleeps).toContain(expected - refused.at.getTime());
  });

  it("GIVEN a shared limiter that ignores penalties THEN the client still waits the stated delay itself", async () => {
    const { client, calls, clock } = setup(
      [meAnswer(), json(429, {}, { "Retry-After": "20" }), meAnswer(), cities],
      unpaced,
    );
    await client.cities();
    expect(calls[2].at.getTime() - calls[1].at.getTime()).toBe(20_000);
    expect(clock.sleeps).toEqual([20_000]);
  });

  it("does not count 429 waits as failed attempts", async () => {
    const answer = json(429, {}, { "Retry-After": "1" });
    const { client } = setup([meAnswer(), answer, meAnswer(), answer, meAnswer(), cities], {
      retry: { maxAttempts: 1 },
    });
    await expect(client.cities()).resolves.toHaveLength(1);
  });

  it("GIVEN a 429 on POST THEN the lead is sent again after the wait (nothing was created)", async () => {
    const { client, requests } = setup([meAnswer(), json(429, {}, { "Retry-After": "3" }), meAnswer(), created]);
    await expect(client.createLead(lead)).resolves.toMatchObject({ kind: "created", ref: "ATB-1" });
    expect(requests.filter((r) => r.method === "POST")).toHaveLength(2);
  });

  it("GIVEN a stated delay beyond maxRateLimitWaitMs THEN RateLimitError at once, with the delay", async () => {
    const { client, clock } = setup([meAnswer(), json(429, {}, { "Retry-After": "600" })], {
      ...unpaced,
      retry: { maxRateLimitWaitMs: 120_000 },
    });
    const error = await caught(client.cities());
    expect(error).toBeInstanceOf(RateLimitError);
    expect(error).toMatchObject({ status: 429, retryAfterMs: 600_000, retriable: true });
    expect(clock.sleeps).toEqual([]);
  });

  it("GIVEN more 429s than maxRateLimitWaits THEN RateLimitError", async () => {
    const answer = json(429, {}, { "Retry-After": "1" });
    const { client } = setup([meAnswer(), answer, meAnswer(), answer, meAnswer(), answer], {
      retry: { maxRateLimitWaits: 2 },
    });
    await expect(client.cities()).rejects.toBeInstanceOf(RateLimitError);
  });

  it("GIVEN a 429 THEN other calls sharing the limiter also hold back until the delay ends", async () => {
    const { client, calls } = setup([
      meAnswer(60),
      json(429, {}, { "Retry-After": "30" }),
      meAnswer(60),
      cities,
      cities,
    ]);
    await client.cities();
    await client.cities();
    const refusedAt = calls[1].at.getTime();
    for (const c of calls.slice(2)) expect(c.at.getTime()).toBeGreaterThanOrEqual(refusedAt + 30_000);
  });
});

describe("POST /v1/leads is never re-sent blindly", () => {
  it.each(["ECONNRESET", "UND_ERR_SOCKET", "EPIPE"])(
    "GIVEN a %s after sending THEN OutcomeUnknownError and exactly one POST",
    async (code) => {
      const { client, requests, calls } = setup([meAnswer(), { throws: networkError(code) }, created]);
      const error = await caught(client.createLead(lead));
      expect(error).toBeInstanceOf(OutcomeUnknownError);
      expect(error).toMatchObject({ reason: "connection", retriable: false, method: "POST", path: "/v1/leads" });
      expect(requests.filter((r) => r.method === "POST")).toHaveLength(1);
      expect(calls.at(-1)).toMatchObject({ method: "POST", status: null, error: code });
    },
  );

  it("GIVEN a timeout THEN OutcomeUnknownError with reason timeout", async () => {
    const { client, requests } = setup([meAnswer(), { hang: true }, created]);
    const error = await caught(client.createLead(lead));
    expect(error).toMatchObject({ reason: "timeout" });
    expect(error).toBeInstanceOf(OutcomeUnknownError);
    expect(requests.filter((r) => r.method === "POST")).toHaveLength(1);
  });

  it("GIVEN an error without any code THEN the outcome is unknown too (assume it was sent)", async () => {
    const { client } = setup([meAnswer(), { throws: new TypeError("fetch failed") }]);
    await expect(client.createLead(lead)).rejects.toBeInstanceOf(OutcomeUnknownError);
  });

  it.each(["ECONNREFUSED", "ENOTFOUND", "EAI_AGAIN"])(
    "GIVEN %s (nothing sent) THEN the POST is retried",
    async (code) => {
      const { client, requests } = setup([meAnswer(), { throws: networkError(code) }, created]);
      await expect(client.createLead(lead)).resolves.toMatchObject({ kind: "created" });
      expect(requests.filter((r) => r.method === "POST")).toHaveLength(2);
    },
  );

  it("GIVEN a refused connection on every attempt THEN ConnectionError, not OutcomeUnknown", async () => {
    const refused: Step = { throws: networkError("ECONNREFUSED") };
    const { client } = setup([meAnswer(), refused, refused, refused]);
    const error = await caught(client.createLead(lead));
    expect(error).toBeInstanceOf(ConnectionError);
    expect(error).not.toBeInstanceOf(OutcomeUnknownError);
  });

  it("GIVEN a 500 THEN InternalServerError at once (retriable for the pipeline, not re-sent here)", async () => {
    const { client, requests } = setup([meAnswer(), json(500, {}), created]);
    const error = await caught(client.createLead(lead));
    expect(error).toBeInstanceOf(InternalServerError);
    expect(error.retriable).toBe(true);
    expect(requests.filter((r) => r.method === "POST")).toHaveLength(1);
  });
});
