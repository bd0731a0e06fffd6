/**
 * The transport's details a caller relies on: headers and URLs sent, what each error and
 * onCall record carries, the version refusal and when it lifts, 429 bounds, answers that
 * are empty, too deep or too long, and a fetch that ignores its abort signal.
 */
import { describe, expect, it } from "vitest";
import {
  ConnectionError,
  OutcomeUnknownError,
  RateLimitError,
  SellerApiError,
  TimeoutError,
  UnsupportedApiVersionError,
} from "../../app/seller-api/index";
import { createRedactor } from "../../app/seller-api/redact";
import { createTransport, DEFAULT_RETRY } from "../../app/seller-api/transport";
import { createFakeClock } from "./helpers/fake-clock";
import { lead, meAnswer, setup, TEST_KEY } from "./helpers/client-setup";
import { json, networkError } from "./helpers/scripted-fetch";

async function caught(promise: Promise<unknown>): Promise<SellerApiError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  if (!(error instanceof SellerApiError)) throw new Error(`expected a SellerApiError, got ${String(error)}`);
  return error;
}

describe("requests", () => {
  it("joins the base URL without its trailing slashes", async () => {
    const { client, requests } = setup([meAnswer()], { baseUrl: "http://127.0.0.1:9/api//" });
    await client.me();
    expect(requests[0].url).toBe("http://127.0.0.1:9/api/v1/me");
  });

  it("asks for JSON, and declares a JSON body only when it sends one", async () => {
    const { client, requests } = setup([meAnswer(), json(201, { data: { ref: "ATB-1" } })]);
    await client.createLead(lead);
    expect(requests[0].headers).toEqual({ authorization: `Bearer ${TEST_KEY}`, accept: "application/json" });
    expect(requests[1].headers).toEqual({
      authorization: `Bearer ${TEST_KEY}`,
      accept: "application/json",
      "content-type": "application/json",
    });
  });
});

describe("answers", () => {
  it.each<[string, Record<string, string>, string | null]>([
    ["X-Request-Id", { "X-Request-Id": "req-1" }, "req-1"],
    ["Request-Id", { "Request-Id": "req-2" }, "req-2"],
    ["both, X-Request-Id first", { "X-Request-Id": "req-1", "Request-Id": "req-2" }, "req-1"],
    ["none", {}, null],
  ])("reads the request id from %s", async (_label, headers, requestId) => {
    const { client } = setup([meAnswer(), json(400, { error: { code: "bad" } }, headers)]);
    expect(await caught(client.cities())).toMatchObject({ status: 400, requestId });
  });

  it("treats a 300 answer as an error, not as data", async () => {
    const { client } = setup([meAnswer(), json(300, { data: [] })]);
    expect(await caught(client.cities())).toMatchObject({ status: 300 });
  });

  it("keeps an empty error body as null", async () => {
    const { client } = setup([meAnswer(), { status: 400, body: "   ", headers: { "X-Api-Version": "1.3" } }]);
    expect(await caught(client.cities())).toMatchObject({ status: 400, body: null });
  });

  it("does not parse an answer nested deeper than any real one", async () => {
    const deep = `${"[".repeat(100)}${"]".repeat(100)}`;
    const { client } = setup([
      meAnswer(),
      { status: 200, body: `{"data":[],"x":${deep}}`, headers: { "X-Api-Version": "1.3" } },
    ]);
    expect(await caught(client.cities())).toMatchObject({ code: "unexpected_response", status: 200 });
  });
});

describe("an answer longer than the cap", () => {
  function transport(fetch: typeof globalThis.fetch, maxResponseBytes?: number) {
    const clock = createFakeClock();
    return createTransport({
      baseUrl: "http://127.0.0.1:9",
      apiKey: TEST_KEY,
      fetch,
      timeoutMs: 1_000,
      retry: DEFAULT_RETRY,
      limiter: { acquire: async () => undefined, penalize: async () => undefined },
      limiterKey: "k",
      redactor: createRedactor(TEST_KEY),
      now: clock.now,
      sleep: clock.sleep,
      random: () => 0.5,
      rateFor: async () => undefined,
      onRateLimited: () => undefined,
      ...(maxResponseBytes === undefined ? {} : { maxResponseBytes }),
    });
  }
  const answer = (bytes: number) => async () => new Response("x".repeat(bytes), { status: 200 });

  it("fails a GET at once, naming the cap, and reads one within it", async () => {
    let calls = 0;
    const counted = (bytes: number) => async () => (calls++, answer(bytes)());
    const error = await caught(transport(counted(101), 100).send({ method: "GET", path: "/v1/cities" }));
    expect(error).toBeInstanceOf(ConnectionError);
    expect(error).toMatchObject({
      code: "response_too_large",
      message: "GET /v1/cities: answer longer than 100 bytes, not read",
    });
    expect(calls).toBe(1);
    await expect(transport(answer(100), 100).send({ method: "GET", path: "/v1/cities" })).resolves.toMatchObject({
      body: "x".repeat(100),
    });
  });

  it("caps at 5 MB unless told otherwise", async () => {
    const error = await caught(transport(answer(5 * 1024 * 1024 + 1)).send({ method: "GET", path: "/v1/cities" }));
    expect(error).toMatchObject({
      code: "response_too_large",
      message: `GET /v1/cities: answer longer than ${5 * 1024 * 1024} bytes, not read`,
    });
  });

  it("calls the outcome of a POST unknown", async () => {
    const error = await caught(transport(answer(101), 100).send({ method: "POST", path: "/v1/leads", body: lead }));
    expect(error).toBeInstanceOf(OutcomeUnknownError);
    expect(error).toMatchObject({ reason: "unreadable_response", code: "outcome_unknown" });
  });
});

describe("failures: what the error and the onCall record carry", () => {
  it("a refused connection: ConnectionError with its code, message and a scrubbed cause", async () => {
    const refused = { throws: networkError("ECONNREFUSED") };
    const { client, calls } = setup([meAnswer(), refused, refused, refused]);
    const error = await caught(client.cities());
    expect(error).toBeInstanceOf(ConnectionError);
    expect(error).toMatchObject({
      code: "connection_error",
      message: "GET /v1/cities: connection failed (ECONNREFUSED) (attempt 3)",
    });
    expect(error.cause).toMatchObject({ message: "TypeError: fetch failed", code: "ECONNREFUSED" });
    expect(calls.at(-1)).toEqual({
      method: "GET",
      path: "/v1/cities",
      status: null,
      durationMs: 0,
      at: calls.at(-1)?.at,
      apiVersion: null,
      attempt: 3,
      error: "ECONNREFUSED",
    });
  });

  it("a hanging GET: TimeoutError with its code", async () => {
    const { client } = setup([meAnswer(), { hang: true }, { hang: true }, { hang: true }]);
    const error = await caught(client.cities());
    expect(error).toBeInstanceOf(TimeoutError);
    expect(error).toMatchObject({ code: "timeout", message: "GET /v1/cities: no answer within 50 ms (attempt 3)" });
  });

  it("a POST cut off: OutcomeUnknownError with its code and message", async () => {
    const { client } = setup([meAnswer(), { throws: networkError("ECONNRESET") }]);
    const error = await caught(client.createLead(lead));
    expect(error).toMatchObject({
      code: "outcome_unknown",
      reason: "connection",
      message:
        "POST /v1/leads: connection failed (ECONNRESET) after the request may have reached the platform; not re-sent",
    });
  });

  it("a body cut after the headers: the record keeps the version and status", async () => {
    const clock = createFakeClock();
    const calls: unknown[] = [];
    const { client } = setup([], {
      now: clock.now,
      sleep: clock.sleep,
      onCall: (r) => void calls.push(r),
      fetch: async (input) => {
        if (String(input).endsWith("/v1/me"))
          return new Response(JSON.stringify(meAnswerBody), { status: 200, headers: { "X-Api-Version": "1.3" } });
        const body = new ReadableStream<Uint8Array>({
          start(controller) {
            controller.enqueue(new TextEncoder().encode('{"data":['));
            controller.error(Object.assign(new Error("socket hang up"), { code: "ECONNRESET" }));
          },
        });
        return new Response(body, { status: 200, headers: { "X-Api-Version": "1.3" } });
      },
    });
    await caught(client.cities());
    expect(calls[1]).toMatchObject({ status: 200, apiVersion: "1.3", error: "ECONNRESET", durationMs: 0 });
  });

  it("a fetch that ignores its abort signal still times out", async () => {
    const { client } = setup([], {
      fetch: async (input) =>
        String(input).endsWith("/v1/me")
          ? new Response(JSON.stringify(meAnswerBody), { status: 200, headers: { "X-Api-Version": "1.3" } })
          : new Promise<Response>(() => undefined),
    });
    const error = await caught(client.cities());
    expect(error).toBeInstanceOf(TimeoutError);
    expect(error.cause).toMatchObject({ message: "AbortError: aborted", code: "timeout" });
  });
});

const meAnswerBody = {
  data: {
    account: "ACC-1001",
    name: "Atlas Beauty SARL",
    lead_prefix: "ATB",
    api_version: "1.3",
    rate_limit_per_minute: 60,
  },
};

describe("an unsupported version", () => {
  const created = (version: string) => json(201, { data: { ref: "ATB-1" } }, { "X-Api-Version": version });

  it("refuses the next POST unsent, saying which version and request", async () => {
    const { client, clock, requests } = setup([meAnswer(), created("2.0")]);
    await client.createLead(lead);
    const error = await caught(client.createLead(lead));
    expect(error).toBeInstanceOf(UnsupportedApiVersionError);
    expect(error).toMatchObject({
      code: "unsupported_api_version",
      apiVersion: "2.0",
      method: "POST",
      path: "/v1/leads",
      requestTime: new Date(clock.now()),
    });
    expect(requests).toHaveLength(2);
  });

  it("lifts the refusal once a GET is answered with a supported version, not by a GET without one", async () => {
    const { client, requests } = setup([
      meAnswer(),
      created("2.0"),
      { status: 200, body: { data: [] } },
      json(200, { data: [] }),
      created("1.3"),
    ]);
    await client.createLead(lead);
    await client.cities();
    await expect(client.createLead(lead)).rejects.toBeInstanceOf(UnsupportedApiVersionError);
    await client.cities();
    await expect(client.createLead(lead)).resolves.toMatchObject({ kind: "created" });
    expect(requests.map((r) => r.method)).toEqual(["GET", "POST", "GET", "GET", "POST"]);
  });
});

describe("429 bounds", () => {
  const tooMany = (seconds: number) => json(429, {}, { "Retry-After": String(seconds) });

  it("waits exactly maxRateLimitWaits times, and a delay of exactly maxRateLimitWaitMs", async () => {
    const { client, clock } = setup(
      [meAnswer(), tooMany(2), meAnswer(), tooMany(2), meAnswer(), json(200, { data: [] })],
      {
        retry: { maxRateLimitWaits: 2, maxRateLimitWaitMs: 2_000 },
      },
    );
    await expect(client.cities()).resolves.toEqual([]);
    expect(clock.sleeps.filter((ms) => ms === 2_000)).toHaveLength(2);
  });

  it("tells the limiter when the key may call again", async () => {
    const penalties: [string, number][] = [];
    const limiter = {
      acquire: async () => undefined,
      penalize: async (key: string, until: number) => void penalties.push([key, until]),
    };
    const { client, clock } = setup([meAnswer(), tooMany(7)], { limiter, retry: { maxRateLimitWaits: 0 } });
    const at = clock.now();
    expect(await caught(client.cities())).toBeInstanceOf(RateLimitError);
    expect(penalties).toEqual([[client.keyFingerprint, at + 7_000]]);
  });
});
