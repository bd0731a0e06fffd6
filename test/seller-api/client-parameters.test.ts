/** What the client accepts and refuses before any call: its options and each method's parameters. */
import { describe, expect, it } from "vitest";
import { createSellerApiClient, InvalidInputError } from "../../app/seller-api/index";
import { meAnswer, setup, TEST_KEY } from "./helpers/client-setup";
import { json } from "./helpers/scripted-fetch";

function thrown(f: () => unknown): Error | undefined {
  try {
    f();
  } catch (error) {
    return error as Error;
  }
  return undefined;
}

describe("client options", () => {
  it.each(["http://127.0.0.1:9", "https://platform.example/api"])("accepts the base URL %s", (baseUrl) => {
    expect(thrown(() => createSellerApiClient({ baseUrl, apiKey: TEST_KEY }))).toBeUndefined();
  });

  it.each(["not a url", "/v1", "ftp://platform.example", "file:///etc"])("refuses the base URL %j", (baseUrl) => {
    const error = thrown(() => createSellerApiClient({ baseUrl, apiKey: TEST_KEY }));
    expect(error).toBeInstanceOf(TypeError);
    expect(error?.message).toBe("baseUrl must be an absolute http(s) URL");
  });

  it.each<[string, unknown]>([
    ["empty", ""],
    ["with a leading space", ` ${TEST_KEY}`],
    ["with a trailing space", `${TEST_KEY} `],
    ["with a non-ASCII letter", `${TEST_KEY}é`],
    ["not a string", 42],
  ])("refuses a key %s, without echoing it", (_label, apiKey) => {
    const error = thrown(() => createSellerApiClient({ baseUrl: "http://127.0.0.1:9", apiKey: apiKey as string }));
    expect(error).toBeInstanceOf(TypeError);
    expect(error?.message).toBe("apiKey must be a non-empty string of printable characters without spaces");
  });
});

describe("listLeads parameters", () => {
  it.each([{ limit: 1 }, { limit: 100 }, { since: "2025-01-15" }, { status: "new" }, {}])(
    "accepts %j",
    async (params) => {
      const { client, requests } = setup([meAnswer(), json(200, { data: [], next_before: null })]);
      for await (const _ of client.listLeads(params)) void _;
      expect(requests).toHaveLength(2);
    },
  );

  it.each<[unknown, string, string]>([
    [{ since: "2025-01-15x" }, "since", "since must be a date YYYY-MM-DD"],
    [{ since: "x2025-01-15" }, "since", "since must be a date YYYY-MM-DD"],
    [{ since: new Date("not a date") }, "since", "since must be a valid date"],
    [{ status: 5 }, "status", "status must be a non-empty string"],
    [{ status: "  " }, "status", "status must be a non-empty string"],
    [{ limit: 0 }, "limit", "limit must be an integer from 1 to 100"],
  ])("refuses %j, naming the field", (params, field, message) => {
    const { client, clock, requests } = setup([]);
    const error = thrown(() => client.listLeads(params as never));
    expect(error).toBeInstanceOf(InvalidInputError);
    expect(error).toMatchObject({ field, message, code: "invalid_parameter", requestTime: new Date(clock.now()) });
    expect(requests).toHaveLength(0);
  });
});

describe("getLead parameters", () => {
  it.each(["", "   "])("refuses the ref %j before any call", async (ref) => {
    const { client, requests } = setup([]);
    const error = await client.getLead(ref).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(InvalidInputError);
    expect(error).toMatchObject({ field: "ref", code: "invalid_parameter", message: "ref must be a non-empty string" });
    expect(requests).toHaveLength(0);
  });
});
