import { describe, expect, it } from "vitest";
import { type ErrorBody, type MeBody, useSandbox, validLead, uniquePhone } from "./helpers";

const sb = useSandbox();

function expectUnauthorized(res: { status: number; headers: Headers; body: unknown }, key?: string) {
  expect(res.status).toBe(401);
  expect((res.body as ErrorBody).error.code).toBe("unauthorized");
  expect(res.headers.get("x-api-version")).toBe("1.3");
  if (key) expect(JSON.stringify(res.body)).not.toContain(key);
}

describe("authentication", () => {
  it("GIVEN a seeded key WHEN it calls /v1/me by Authorization: Bearer THEN the key's account answers", async () => {
    const res = await sb.call<MeBody>("GET", "/v1/me");
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({
      account: "ACC-1001",
      name: "Atlas Beauty SARL",
      lead_prefix: "ATB",
      api_version: "1.3",
    });
  });

  it("accepts the key in X-Api-Key as well", async () => {
    const res = await sb.call<MeBody>("GET", "/v1/me", { key: sb.keys[1].key, via: "x-api-key" });
    expect(res.status).toBe(200);
    expect(res.body.data.account).toBe("ACC-1002");
  });

  it("answers 401 unauthorized when no key is sent", async () => {
    expectUnauthorized(await sb.call("GET", "/v1/me", { key: null }));
  });

  it("answers 401 for a mistyped key (one character changed)", async () => {
    const key = sb.keys[0].key;
    const typo = key.slice(0, -1) + (key.endsWith("A") ? "B" : "A");
    expectUnauthorized(await sb.call("GET", "/v1/me", { key: typo }), typo);
    expectUnauthorized(await sb.call("GET", "/v1/me", { key: typo, via: "x-api-key" }), typo);
  });

  it("answers 401 for a key without the cod_ prefix and for a malformed Authorization header", async () => {
    expectUnauthorized(await sb.call("GET", "/v1/me", { key: sb.keys[0].key.slice(4) }));
    expectUnauthorized(
      await sb.call("GET", "/v1/me", { key: null, headers: { Authorization: `Basic ${sb.keys[0].key}` } }),
    );
    expectUnauthorized(await sb.call("GET", "/v1/me", { key: null, headers: { Authorization: "Bearer" } }));
  });

  it("GIVEN a revoked key THEN it answers 401 on every endpoint, and never comes back", async () => {
    const { id, key } = await sb.control.createKey({ account: "ACC-1001", name: "zapier" });
    expect((await sb.call("GET", "/v1/me", { key })).status).toBe(200);

    await sb.control.revoke(id);
    expectUnauthorized(await sb.call("GET", "/v1/me", { key }), key);
    expectUnauthorized(await sb.call("GET", "/v1/leads", { key }), key);
    expectUnauthorized(await sb.createLead(validLead(), key), key);

    // Revoking again, a day later, or after minting more keys changes nothing.
    await sb.control.revoke(id);
    await sb.control.clock(86_400);
    await sb.control.createKey({ account: "ACC-1001", name: "another" });
    expectUnauthorized(await sb.call("GET", "/v1/me", { key }), key);
    expect((await sb.control.getKey(id)).revoked_at).not.toBeNull();
  });

  it("revoking one key leaves the seller's other keys working", async () => {
    const a = await sb.control.createKey({ account: "ACC-1001", name: "a" });
    const b = await sb.control.createKey({ account: "ACC-1001", name: "b" });
    await sb.control.revoke(a.id);
    expect((await sb.call("GET", "/v1/me", { key: b.key })).status).toBe(200);
    expect((await sb.call("GET", "/v1/me", { key: sb.keys[0].key })).status).toBe(200);
  });

  it("a reset mints new keys: the old ones answer 401", async () => {
    const old = sb.keys[0].key;
    const { keys } = await sb.control.reset();
    sb.keys = keys;
    expect(keys[0].key).not.toBe(old);
    expectUnauthorized(await sb.call("GET", "/v1/me", { key: old }));
  });
});

describe("keys", () => {
  it("look like cod_ followed by at least 32 URL-safe characters, and are all different", async () => {
    const created = await sb.control.createKey({ account: "ACC-1002", name: "n8n", store: "rif-market.myshopify.com" });
    const all = [...sb.keys.map((k) => k.key), created.key];
    for (const key of all) expect(key).toMatch(/^cod_[A-Za-z0-9_-]{32,}$/);
    expect(new Set(all).size).toBe(all.length);
  });

  it("are never shown again after minting: not in the key record, the call log or the leads", async () => {
    const key = sb.keys[0].key;
    await sb.createLead(validLead());
    const everything = JSON.stringify([
      await sb.control.getKey(sb.keys[0].id),
      await sb.control.leads(),
      await sb.control.config(),
    ]);
    expect(everything).not.toContain(key);
    expect(everything).not.toContain(key.slice(4));
  });

  it("seeded keys are attached to their seller's store", async () => {
    expect(sb.keys.map((k) => [k.account, k.store])).toEqual([
      ["ACC-1001", "atlas-beauty.myshopify.com"],
      ["ACC-1002", "rif-market.myshopify.com"],
    ]);
  });
});

describe("the seller comes from the key only", () => {
  it("ignores an account passed as a query parameter", async () => {
    const res = await sb.call<MeBody>("GET", "/v1/me?account=ACC-1002&seller=ACC-1002");
    expect(res.body.data.account).toBe("ACC-1001");
  });

  it("ignores account / seller fields in a lead body", async () => {
    const res = await sb.createLead(validLead({ account: "ACC-1002", seller: "ACC-1002", seller_id: 2 }));
    expect(res.status).toBe(201);
    expect(res.body.data.ref).toMatch(/^ATB-\d+$/);
    expect((await sb.control.leads("ACC-1002")).length).toBe(0);
    expect((await sb.control.leads("ACC-1001")).map((l) => l.ref)).toEqual([res.body.data.ref]);
  });
});

describe("/v1/me", () => {
  it("reports rate_limit_per_minute as currently configured, and no customer data", async () => {
    expect((await sb.call<MeBody>("GET", "/v1/me")).body.data.rate_limit_per_minute).toBe(60);
    await sb.createLead(validLead({ customer_phone: uniquePhone() }));
    await sb.control.config({ rate_limit_per_minute: 120 });
    const res = await sb.call<MeBody>("GET", "/v1/me");
    expect(res.body.data.rate_limit_per_minute).toBe(120);
    expect(JSON.stringify(res.body)).not.toMatch(/Fatima|06\d{8}/);
  });
});

describe("call log and last use", () => {
  it("records method, path, status and time of every call of the key, and its last use", async () => {
    const { id } = sb.keys[0];
    expect((await sb.control.getKey(id)).last_used_at).toBeNull();
    await sb.call("GET", "/v1/me");
    await sb.control.clock(5);
    await sb.call("GET", "/v1/leads?limit=0");
    await sb.control.clock(5);
    await sb.call("GET", "/v1/leads/ATB-999999");

    const info = await sb.control.getKey(id);
    expect(info).toMatchObject({
      id,
      account: "ACC-1001",
      name: "Shopify store atlas-beauty",
      store: "atlas-beauty.myshopify.com",
    });
    expect(info.calls.map((c) => [c.method, c.path, c.status])).toEqual([
      ["GET", "/v1/me", 200],
      ["GET", "/v1/leads?limit=0", 422],
      ["GET", "/v1/leads/ATB-999999", 404],
    ]);
    expect(Date.parse(info.calls[1].at) - Date.parse(info.calls[0].at)).toBe(5000);
    expect(info.last_used_at).toBe(info.calls[2].at);
  });

  it("keeps each key's log apart, and logs calls still made with a revoked key", async () => {
    const other = await sb.control.createKey({ account: "ACC-1001", name: "other" });
    await sb.call("GET", "/v1/cities", { key: other.key });
    await sb.control.revoke(other.id);
    await sb.call("GET", "/v1/me", { key: other.key });
    expect((await sb.control.getKey(other.id)).calls.map((c) => [c.path, c.status])).toEqual([
      ["/v1/cities", 200],
      ["/v1/me", 401],
    ]);
    expect((await sb.control.getKey(sb.keys[0].id)).calls).toEqual([]);
  });
});
