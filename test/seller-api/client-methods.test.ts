/** The resource methods, the rate they pace at, and the onCall log, with a scripted fetch. */
import { describe, expect, it } from "vitest";
import {
  createSellerApiClient,
  InvalidInputError,
  InvalidLeadInputError,
  UnexpectedResponseError,
} from "../../app/seller-api/index";
import { lead, meAnswer, setup, TEST_KEY } from "./helpers/client-setup";
import { json } from "./helpers/scripted-fetch";

const product = {
  id: 1001,
  sku: "ARG-OIL-50",
  name: "Huile d'argan 50 ml",
  platform_price: "45.00",
  in_stock: true,
  private: false,
  variants: [],
  warehouse: "CASA-1",
};

describe("requests", () => {
  it("sends the key as a Bearer token, JSON body and the right paths under the base URL", async () => {
    const { client, requests } = setup([meAnswer(), json(201, { data: { ref: "ATB-1" } })]);
    await client.createLead(lead);
    expect(requests[0]).toMatchObject({ method: "GET", url: "http://127.0.0.1:9/api/v1/me" });
    expect(requests[1]).toMatchObject({ method: "POST", path: "/api/v1/leads", body: lead });
    expect(requests[1].headers).toMatchObject({
      authorization: `Bearer ${TEST_KEY}`,
      "content-type": "application/json",
    });
  });

  it("GIVEN an invalid lead THEN InvalidLeadInputError names the field and no call is made", async () => {
    const { client, requests } = setup([]);
    const error = await client.createLead({ ...lead, customer_phone: "0512345678" }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(InvalidLeadInputError);
    expect(error).toMatchObject({ field: "customer_phone", status: undefined, retriable: false });
    expect(requests).toHaveLength(0);
  });

  it.each([{ limit: 0 }, { limit: 101 }, { limit: 2.5 }, { since: "15/01/2025" }, { status: "" }])(
    "GIVEN list parameters %j THEN InvalidInputError and no call",
    (params) => {
      const { client, requests } = setup([]);
      expect(() => client.listLeads(params)).toThrow(InvalidInputError);
      expect(requests).toHaveLength(0);
    },
  );

  it("passes status, since (a Date as its UTC day) and limit to GET /v1/leads", async () => {
    const { client, requests } = setup([meAnswer(), json(200, { data: [], next_before: null })]);
    for await (const _ of client.listLeads({
      status: "confirmed",
      since: new Date(Date.UTC(2025, 0, 2, 23)),
      limit: 20,
    }))
      void _;
    expect(requests[1].path).toBe("/api/v1/leads?limit=20&status=confirmed&since=2025-01-02");
  });

  it("refuses a base URL that is not http(s) and a key with spaces, without echoing the key", () => {
    expect(() => createSellerApiClient({ baseUrl: "ftp://x", apiKey: TEST_KEY })).toThrow(/baseUrl/);
    const error = (() => {
      try {
        createSellerApiClient({ baseUrl: "http://127.0.0.1:9", apiKey: "cod_secret value" });
      } catch (e) {
        return e as Error;
      }
    })();
    expect(error?.message).toMatch(/apiKey/);
    expect(error?.message).not.toContain("secret");
  });
});

describe("responses", () => {
  it("me() returns the account and keeps unknown fields in raw", async () => {
    const { client } = setup([meAnswer(30, { plan: "gold" })]);
    const account = await client.me();
    expect(account).toMatchObject({
      account: "ACC-1001",
      lead_prefix: "ATB",
      api_version: "1.3",
      rate_limit_per_minute: 30,
    });
    expect(account.raw.plan).toBe("gold");
  });

  it("products() keeps prices as strings and unknown fields in raw", async () => {
    const { client } = setup([meAnswer(), json(200, { data: [product] })]);
    const [p] = await client.products();
    expect(p.platform_price).toBe("45.00");
    expect(typeof p.platform_price).toBe("string");
    expect(p.raw.warehouse).toBe("CASA-1");
  });

  it("GIVEN a price sent as a float THEN UnexpectedResponseError names the field, not the value", async () => {
    const { client } = setup([meAnswer(), json(200, { data: [{ ...product, platform_price: 45.5 }] })]);
    const error = await client.products().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(UnexpectedResponseError);
    expect((error as UnexpectedResponseError).issues).toEqual(["0.platform_price: Expected string, received number"]);
  });

  it("GIVEN an amount with one decimal THEN it is refused", async () => {
    const { client } = setup([meAnswer(), json(200, { data: [{ id: 1, name: "Rabat", delivery_fee: "25.0" }] })]);
    await expect(client.cities()).rejects.toBeInstanceOf(UnexpectedResponseError);
  });

  it("getLead() returns the detail, with unknown statuses kept verbatim and nulls as null", async () => {
    const detail = {
      ref: "ATB-7",
      confirmation_status: "reported",
      shipping_status: "pending",
      tracking_number: null,
      seller_profit: "-12.50",
      carrier: "X",
    };
    const { client, requests } = setup([meAnswer(), json(200, { data: detail })]);
    const got = await client.getLead("ATB-7");
    expect(got).toMatchObject({
      ref: "ATB-7",
      confirmation_status: "reported",
      tracking_number: null,
      seller_profit: "-12.50",
      total_client: null,
    });
    expect(got?.raw.carrier).toBe("X");
    expect(got && "damaged" in got).toBe(false);
    expect(requests[1].path).toBe("/api/v1/leads/ATB-7");
  });

  it("getLead() returns null on 404 and encodes the ref", async () => {
    const { client, requests } = setup([meAnswer(), json(404, { error: { code: "not_found" } })]);
    await expect(client.getLead("RIF 1/2")).resolves.toBeNull();
    expect(requests[1].path).toBe("/api/v1/leads/RIF%201%2F2");
  });

  it("lists damaged leads with their anomalies", async () => {
    const row = {
      id: 4,
      ref: "ATB-4",
      confirmation_status: "new",
      shipping_status: "pending",
      total_client: null,
      damaged: true,
      anomalies: ["unknown_city"],
    };
    const { client } = setup([meAnswer(), json(200, { data: [row], next_before: null })]);
    const leads = [];
    for await (const l of client.listLeads()) leads.push(l);
    expect(leads[0]).toMatchObject({ total_client: null, damaged: true, anomalies: [{ code: "unknown_city" }] });
  });
});

describe("rate limit from GET /v1/me", () => {
  it("paces calls at the rate read from me(), whatever it is", async () => {
    for (const rate of [2, 30]) {
      const { client, calls } = setup([meAnswer(rate), ...Array.from({ length: 3 }, () => json(200, { data: [] }))]);
      for (let i = 0; i < 3; i++) await client.cities();
      const starts = calls.map((c) => c.at.getTime());
      const gap = 60_000 / rate;
      expect(starts.slice(1).map((t, i) => t - starts[i])).toEqual([gap, gap, gap]);
    }
  });

  it("getRateLimitPerMinute() reads me() once, then again after rateRefreshMs", async () => {
    const { client, clock, requests } = setup([meAnswer(10), meAnswer(20)], { rateRefreshMs: 60_000 });
    await expect(client.getRateLimitPerMinute()).resolves.toBe(10);
    await expect(client.getRateLimitPerMinute()).resolves.toBe(10);
    expect(requests).toHaveLength(1);
    clock.advance(60_000);
    await expect(client.getRateLimitPerMinute()).resolves.toBe(20);
    expect(requests).toHaveLength(2);
  });

  it("concurrent first calls share a single me()", async () => {
    const { client, requests } = setup([meAnswer(600), json(200, { data: [] }), json(200, { data: [] })]);
    await Promise.all([client.cities(), client.cities()]);
    expect(requests.filter((r) => r.path.endsWith("/v1/me"))).toHaveLength(1);
  });

  describe("a limiter that shares the key's limit between processes", () => {
    /** `initial`: what another process shared before this one started. */
    function sharingLimiter() {
      const store = new Map<string, { perMinute: number; readAt: number }>();
      const shared: { key: string; perMinute: number; readAt: number }[] = [];
      return {
        shared,
        store,
        initial: undefined as { perMinute: number; readAt: number } | undefined,
        acquire: async () => undefined,
        penalize: async () => undefined,
        async sharedRate(key: string) {
          return store.get(key) ?? this.initial;
        },
        shareRate: async (key: string, perMinute: number, readAt: number) => {
          shared.push({ key, perMinute, readAt });
          store.set(key, { perMinute, readAt });
        },
        async claimRateRead(key: string, seenReadAt: number, nowMs: number) {
          const seen = store.get(key) ?? this.initial;
          if (seen?.readAt !== seenReadAt) return false;
          store.set(key, { perMinute: seen.perMinute, readAt: nowMs });
          return true;
        },
      };
    }

    it("WHEN several processes find the shared read stale at once THEN one calls GET /v1/me and the others go on with the last value", async () => {
      const limiter = sharingLimiter();
      const first = setup([meAnswer(120)], { limiter, rateRefreshMs: 60_000 });
      const second = setup([meAnswer(240)], { limiter, rateRefreshMs: 60_000 });
      limiter.initial = { perMinute: 90, readAt: first.clock.now() - 61_000 };
      const rates = await Promise.all([first.client.getRateLimitPerMinute(), second.client.getRateLimitPerMinute()]);
      expect(first.requests.length + second.requests.length).toBe(1);
      expect(rates).toEqual([120, 90]);
      expect(limiter.store.get(first.client.keyFingerprint)?.perMinute).toBe(120);
      // The other keeps the last value until its next refresh, without asking again.
      await expect(second.client.getRateLimitPerMinute()).resolves.toBe(90);
      expect(first.requests.length + second.requests.length).toBe(1);
    });

    it("takes another process's fresh read instead of calling GET /v1/me, and stops trusting it after rateRefreshMs", async () => {
      const limiter = sharingLimiter();
      const { client, clock, requests } = setup([meAnswer(120)], { limiter, rateRefreshMs: 60_000 });
      limiter.initial = { perMinute: 90, readAt: clock.now() - 59_000 };
      await expect(client.getRateLimitPerMinute()).resolves.toBe(90);
      expect(requests).toHaveLength(0);
      // The shared read was made 59 s ago: 1 s later it is stale here too.
      clock.advance(1_000);
      await expect(client.getRateLimitPerMinute()).resolves.toBe(120);
      expect(requests.map((r) => r.path.replace(/^.*\/v1/, "/v1"))).toEqual(["/v1/me"]);
      expect(limiter.shared).toEqual([{ key: client.keyFingerprint, perMinute: 120, readAt: clock.now() }]);
    });

    it("reads GET /v1/me itself when the shared read is stale or missing, and shares what it read", async () => {
      const limiter = sharingLimiter();
      const { client, clock, requests } = setup([meAnswer(45)], { limiter, rateRefreshMs: 60_000 });
      limiter.initial = { perMinute: 10, readAt: clock.now() - 60_000 };
      await expect(client.getRateLimitPerMinute()).resolves.toBe(45);
      expect(requests).toHaveLength(1);
      expect(limiter.store.get(client.keyFingerprint)).toEqual({ perMinute: 45, readAt: clock.now() });
    });

    it("after a 429 asks GET /v1/me again, whatever another process read (the limit may have changed)", async () => {
      const limiter = sharingLimiter();
      const { client, requests } = setup(
        [meAnswer(600), json(429, {}, { "Retry-After": "1" }), meAnswer(60), json(200, { data: [] })],
        { limiter, rateRefreshMs: 60_000 },
      );
      await client.cities();
      expect(requests.map((r) => r.path.replace(/^.*\/v1/, "/v1"))).toEqual([
        "/v1/me",
        "/v1/cities",
        "/v1/me",
        "/v1/cities",
      ]);
      expect(limiter.shared.map((s) => s.perMinute)).toEqual([600, 60]);
    });
  });

  it("uses the limiter under the key's fingerprint, never the key", async () => {
    const keys: string[] = [];
    const limiter = {
      acquire: async (key: string) => void keys.push(key),
      penalize: (key: string) => void keys.push(key),
    };
    const { client } = setup([meAnswer(), json(429, {}, { "Retry-After": "1" }), meAnswer(), json(200, { data: [] })], {
      limiter,
    });
    await client.cities();
    expect(new Set(keys)).toEqual(new Set([client.keyFingerprint]));
    expect(client.keyFingerprint).not.toContain(TEST_KEY);
  });
});

describe("onCall", () => {
  it("gets one record per HTTP attempt with method, path, status, duration, time, version, attempt", async () => {
    const { client, calls } = setup([meAnswer(), json(500, {}), json(200, { data: [] })]);
    await client.cities();
    expect(calls).toHaveLength(3);
    expect(calls[1]).toEqual({
      method: "GET",
      path: "/v1/cities",
      status: 500,
      durationMs: 0,
      at: calls[1].at,
      apiVersion: "1.3",
      attempt: 1,
    });
    expect(calls[2]).toMatchObject({ status: 200, attempt: 2 });
    expect(calls[2].at.getTime()).toBeGreaterThan(calls[1].at.getTime());
  });

  it("includes the query string in the path", async () => {
    const { client, calls } = setup([meAnswer(), json(200, { data: [] })]);
    for await (const _ of client.listLeads({ limit: 5 })) void _;
    expect(calls[1].path).toBe("/v1/leads?limit=5");
  });

  it("GIVEN an onCall that throws or rejects THEN calls still succeed", async () => {
    const throwing = setup([meAnswer(), json(200, { data: [] })], {
      onCall: () => {
        throw new Error("log down");
      },
    });
    await expect(throwing.client.cities()).resolves.toEqual([]);
    const rejecting = setup([meAnswer(), json(200, { data: [] })], {
      onCall: () => Promise.reject(new Error("log down")),
    });
    await expect(rejecting.client.cities()).resolves.toEqual([]);
  });
});
