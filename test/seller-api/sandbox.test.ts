/** The client against the sandbox over loopback: every method, pagination, 404, revoked key, 429, faults. */
import { describe, expect, it } from "vitest";
import {
  AuthenticationError,
  InternalServerError,
  OutcomeUnknownError,
  TimeoutError,
  type LeadInput,
} from "../../app/seller-api/index";
import { useSandbox } from "./helpers/sandbox-harness";

const h = useSandbox();

const leadFor = (i: number): LeadInput => ({
  customer_name: `Client ${i}`,
  customer_phone: `06${String(10_000_000 + i).slice(-8)}`,
  city: "Casablanca",
  address: `${i} rue Ibn Batouta`,
  total_client: "120.00",
  items: [{ sku: "ARG-OIL-50", quantity: 1 }],
  external_ref: `#${1000 + i}`,
});

describe("every method against the sandbox", () => {
  it("me(), products(), cities()", async () => {
    const { client, calls } = h.client(h.keys[0].key);
    await expect(client.me()).resolves.toMatchObject({
      account: "ACC-1001",
      lead_prefix: "ATB",
      api_version: "1.3",
      rate_limit_per_minute: 60,
    });
    const products = await client.products();
    expect(products.find((p) => p.sku === "ARG-OIL-50")).toMatchObject({
      id: 1001,
      platform_price: "45.00",
      in_stock: true,
    });
    const cities = await client.cities();
    expect(cities.find((c) => c.name === "Casablanca")).toMatchObject({ id: 101, delivery_fee: "20.00" });
    expect(calls.map((c) => [c.path, c.status, c.apiVersion])).toEqual([
      ["/v1/me", 200, "1.3"],
      ["/v1/products", 200, "1.3"],
      ["/v1/cities", 200, "1.3"],
    ]);
  });

  it("createLead() -> created, then getLead() reads it back", async () => {
    const { client } = h.client(h.keys[0].key);
    const result = await client.createLead(leadFor(1));
    expect(result).toMatchObject({ kind: "created", ref: expect.stringMatching(/^ATB-\d+$/) });
    const ref = result.kind === "created" ? result.ref : "";
    await expect(client.getLead(ref)).resolves.toMatchObject({
      ref,
      confirmation_status: "new",
      shipping_status: "pending",
      tracking_number: null,
    });
  });

  it("createLead() -> damaged, with the sandbox's anomaly codes", async () => {
    const { client } = h.client(h.keys[0].key);
    const first = await client.createLead({
      ...leadFor(2),
      city: "Atlantis",
      items: [{ sku: "NO-SUCH-SKU", quantity: 1 }],
    });
    expect(first.kind).toBe("damaged");
    expect(first.kind === "damaged" && first.anomalies.map((a) => a.code).sort()).toEqual([
      "unknown_city",
      "unknown_sku",
    ]);
    expect(first.ref).toMatch(/^ATB-/);

    await client.createLead(leadFor(3));
    const duplicate = await client.createLead(leadFor(3));
    expect(duplicate).toMatchObject({
      kind: "damaged",
      anomalies: [expect.objectContaining({ code: "recent_duplicate" })],
    });
  });

  it("getLead() on another seller's ref answers null; its owner reads it", async () => {
    const rif = h.client(h.keys[1].key).client;
    const created = await rif.createLead(leadFor(4));
    const ref = created.ref as string;
    expect(ref).toMatch(/^RIF-/);
    await expect(h.client(h.keys[0].key).client.getLead(ref)).resolves.toBeNull();
    await expect(rif.getLead(ref)).resolves.toMatchObject({ ref });
  });

  it("a revoked key gets AuthenticationError (401 unauthorized), without the key in the message", async () => {
    const { client } = h.client(h.keys[0].key);
    await client.me();
    await h.control.revoke(h.keys[0].id);
    const error = await client.cities().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AuthenticationError);
    expect(error).toMatchObject({ status: 401, code: "unauthorized", retriable: false });
    expect(String((error as Error).stack)).not.toContain(h.keys[0].key);
    // Another key of the same seller is unaffected.
    const other = await h.control.createKey({ account: "ACC-1001", name: "second integration" });
    await expect(h.client(other.key).client.me()).resolves.toMatchObject({ account: "ACC-1001" });
  });
});

describe("pagination", () => {
  it("walks 250 leads newest first: no gaps, no repeats, stops at the end", async () => {
    await h.control.config({ rate_limit_per_minute: 10_000 });
    const { client, calls } = h.client(h.keys[0].key);
    const created: string[] = [];
    for (let i = 0; i < 250; i++) {
      const result = await client.createLead(leadFor(100 + i));
      expect(result.kind).toBe("created");
      created.push(result.ref as string);
    }
    calls.length = 0;

    const sizes: number[] = [];
    const ids: number[] = [];
    const refs: string[] = [];
    for await (const page of client.listLeads({ limit: 100 }).pages()) {
      sizes.push(page.leads.length);
      for (const l of page.leads) {
        ids.push(l.id);
        refs.push(l.ref);
      }
    }
    expect(sizes).toEqual([100, 100, 50]);
    expect(new Set(refs).size).toBe(250);
    expect([...refs].sort()).toEqual([...created].sort());
    expect(ids).toEqual([...ids].sort((a, b) => b - a)); // newest first
    expect(calls.filter((c) => c.path.startsWith("/v1/leads"))).toHaveLength(3);

    // The lead iterator walks the same leads with the default page size.
    const all: string[] = [];
    for await (const l of client.listLeads()) all.push(l.ref);
    expect(all).toEqual(refs);
    // 250 leads created, then read page by page: minutes on a loaded machine.
  }, 180_000);

  it("filters by status", async () => {
    const { client } = h.client(h.keys[0].key);
    const a = await client.createLead(leadFor(1));
    await client.createLead(leadFor(2));
    await h.control.advance(a.ref as string, { confirmation_status: "confirmed" });
    const confirmed: string[] = [];
    for await (const l of client.listLeads({ status: "confirmed" })) confirmed.push(l.ref);
    expect(confirmed).toEqual([a.ref]);
  });
});

describe("rate limit at 5 per minute", () => {
  it("paces its calls so the sandbox never answers 429, using the rate from GET /v1/me", async () => {
    await h.control.config({ rate_limit_per_minute: 5 });
    const { client, calls } = h.client(h.keys[0].key);
    for (let i = 0; i < 11; i++) await client.cities();
    expect(calls.map((c) => c.status)).toEqual(Array(12).fill(200)); // me + 11
    // 12 calls at 5 per minute span at least 11 intervals of 12 s, all slept on the fake clock.
    expect(calls[11].at.getTime() - calls[0].at.getTime()).toBeGreaterThanOrEqual(11 * 12_000);
    await expect(client.getRateLimitPerMinute()).resolves.toBe(5);
  });

  it("waits out a 429 caused by another user of the key, then re-reads the rate and succeeds", async () => {
    await h.control.config({ rate_limit_per_minute: 5 });
    const key = h.keys[0].key;
    const { client, calls } = h.client(key);
    await client.me();
    // Another process spends the rest of this minute's budget on the same key.
    for (let i = 0; i < 4; i++) await fetch(`${h.url}/v1/me`, { headers: { Authorization: `Bearer ${key}` } });

    await expect(client.cities()).resolves.not.toHaveLength(0);
    const limited = calls.filter((c) => c.status === 429);
    expect(limited).toHaveLength(1);
    const after = calls.slice(calls.indexOf(limited[0]) + 1);
    expect(after.map((c) => [c.path, c.status])).toEqual([
      ["/v1/me", 200],
      ["/v1/cities", 200],
    ]);
    // On the sandbox's own log: one 429, and nothing sent again before the window that
    // started with the client's first call (the anchor) had ended.
    const log = (await h.control.getKey(h.keys[0].id)).calls;
    expect(log.map((c) => c.status)).toEqual([200, 200, 200, 200, 200, 429, 200, 200]);
    const anchor = Date.parse(log[0].at);
    expect(Date.parse(log[6].at)).toBeGreaterThanOrEqual(anchor + 60_000);
    expect(h.sleeps.some((ms) => ms > 30_000)).toBe(true); // the wait was slept (on the fake clock), not spun
  });
});

describe("faults", () => {
  it("retries GETs through injected 500s and throws InternalServerError when they persist", async () => {
    const { client, calls } = h.client(h.keys[0].key, { retry: { maxAttempts: 3 } });
    await client.me();
    await h.control.config({ fault: { error_rate: 1 } });
    const error = await client.cities().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(InternalServerError);
    expect(error).toMatchObject({ status: 500, code: "internal_error", retriable: true });
    expect((error as InternalServerError).message).toContain("Injected server incident");
    expect(calls.slice(1).map((c) => [c.status, c.attempt])).toEqual([
      [500, 1],
      [500, 2],
      [500, 3],
    ]);
    expect((error as InternalServerError).requestTime).toEqual(calls[3].at);
  });

  it("recovers when the incident ends between attempts", async () => {
    const statuses: (number | null)[] = [];
    const { client } = h.client(h.keys[0].key, {
      onCall: (r) => void statuses.push(r.status),
      // The incident ends during the backoff that follows the first 500.
      sleep: async (ms) => {
        if (statuses.includes(500)) await h.control.config({ fault: { error_rate: 0 } });
        await h.sleep(ms);
      },
    });
    await client.me();
    await h.control.config({ fault: { error_rate: 1 } });
    await expect(client.products()).resolves.not.toHaveLength(0);
    expect(statuses).toEqual([200, 500, 200]);
  });

  it("does not re-send a POST answered 500", async () => {
    const { client, calls } = h.client(h.keys[0].key);
    await client.me();
    await h.control.config({ fault: { error_rate: 1 } });
    await expect(client.createLead(leadFor(1))).rejects.toBeInstanceOf(InternalServerError);
    expect(calls.filter((c) => c.method === "POST")).toHaveLength(1);
  });

  it("times out on a hanging sandbox: GET -> TimeoutError, POST -> OutcomeUnknownError", async () => {
    const { client } = h.client(h.keys[0].key, { timeoutMs: 150, retry: { maxAttempts: 2 } });
    await client.me();
    await h.control.config({ fault: { hang_rate: 1 } });
    await expect(client.cities()).rejects.toBeInstanceOf(TimeoutError);
    await expect(client.createLead(leadFor(1))).rejects.toBeInstanceOf(OutcomeUnknownError);
    await h.control.config({ fault: { hang_rate: 0 } });
  });
});
