import { describe, expect, it } from "vitest";
import { isLoopback } from "../../sandbox/app";
import { SandboxControlError } from "../../sandbox/index";
import { useSandbox, validLead } from "./helpers";

const sb = useSandbox();

describe("control API", () => {
  it("reset answers fresh keys and empties the state", async () => {
    await sb.createLead(validLead());
    await sb.control.config({ rate_limit_per_minute: 5 });
    const { keys } = await sb.control.reset();
    expect(keys.map(({ account, name, store }) => ({ account, name, store }))).toEqual([
      { account: "ACC-1001", name: "Shopify store atlas-beauty", store: "atlas-beauty.myshopify.com" },
      { account: "ACC-1002", name: "Shopify store rif-market", store: "rif-market.myshopify.com" },
    ]);
    for (const k of keys) expect(k.id).toMatch(/^key_[0-9a-f]{12}$/);
    expect(await sb.control.leads()).toEqual([]);
    expect((await sb.control.config()).rate_limit_per_minute).toBe(60);
    sb.keys = keys;
    expect((await sb.createLead(validLead())).body.data.ref).toBe("ATB-100001");
  });

  it("creates keys for known accounts only, with a name", async () => {
    const key = await sb.control.createKey({ account: "ACC-1002", name: "Make", store: "rif-market.myshopify.com" });
    expect(key).toMatchObject({ account: "ACC-1002", name: "Make", store: "rif-market.myshopify.com" });
    expect(await sb.control.getKey(key.id)).toMatchObject({
      id: key.id,
      last_used_at: null,
      calls: [],
      revoked_at: null,
    });
    await expect(sb.control.createKey({ account: "ACC-9999", name: "x" })).rejects.toMatchObject({ status: 404 });
    await expect(sb.control.createKey({ account: "ACC-1001", name: "" })).rejects.toMatchObject({ status: 422 });
    await expect(sb.control.getKey("key_000000000000")).rejects.toMatchObject({ status: 404 });
    await expect(sb.control.revoke("key_000000000000")).rejects.toMatchObject({ status: 404 });
  });

  it("PUT /config answers the whole config and refuses unknown or invalid settings", async () => {
    const config = await sb.control.config({
      duplicate_window_seconds: 60,
      events: { url: "http://127.0.0.1:9/hook", secret: "s" },
    });
    expect(config).toEqual({
      rate_limit_per_minute: 60,
      duplicate_window_seconds: 60,
      fault: { error_rate: 0, latency_ms: 0, hang_rate: 0 },
      events: { url: "http://127.0.0.1:9/hook", secret: "s", max_attempts: 6, retry_base_ms: 1000 },
      autopilot: false,
    });
    const res = await fetch(`${sb.url}/_sandbox/config`, {
      method: "PUT",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ rate_limit_per_minute: 0 }),
    });
    expect(res.status).toBe(422);
    expect(await res.json()).toMatchObject({ error: { code: "validation_error", field: "rate_limit_per_minute" } });
    await expect(sb.control.config({ rate_limt: 5 } as never)).rejects.toMatchObject({ status: 422 });
    expect((await sb.control.config()).rate_limit_per_minute).toBe(60);
  });

  it("GET /leads lists every stored lead with all stored fields, damaged ones included, per account", async () => {
    await sb.createLead(validLead());
    await sb.createLead(validLead({ city: "Atlantis", customer_phone: "0711111111" }));
    await sb.createLead(validLead({ items: [{ sku: "RIF-OLIVE-1L", quantity: 1 }] }), sb.keys[1].key);
    const leads = await sb.control.leads("ACC-1001");
    expect(leads.map((l) => [l.ref, l.damaged])).toEqual([
      ["ATB-100001", false],
      ["ATB-100002", true],
    ]);
    const fields = [
      "ref",
      "account",
      "store",
      "external_ref",
      "customer_name",
      "customer_phone",
      "city_id",
      "address",
      "total_client",
      "items",
      "anomalies",
      "damaged",
      "confirmation_status",
      "shipping_status",
      "tracking_number",
      "seller_profit",
      "created_at",
    ];
    for (const f of fields) expect(leads[1]).toHaveProperty(f);
    expect(leads[1]).toMatchObject({
      account: "ACC-1001",
      store: "atlas-beauty.myshopify.com",
      customer_name: "Fatima Zahra",
      city: "Atlantis",
      city_id: null,
    });
    expect((await sb.control.leads()).length).toBe(3);
    await expect(sb.control.leads("ACC-0000")).rejects.toMatchObject({ status: 404 });
  });

  it("advance and correct answer 404 for an unknown ref and 422 for an unknown status", async () => {
    await expect(sb.control.advance("ATB-1", { confirmation_status: "confirmed" })).rejects.toMatchObject({
      status: 404,
    });
    await expect(sb.control.correct("ATB-1")).rejects.toMatchObject({ status: 404 });
    const ref = (await sb.createLead(validLead())).body.data.ref;
    await expect(sb.control.advance(ref, { confirmation_status: "approved" as never })).rejects.toBeInstanceOf(
      SandboxControlError,
    );
  });

  it("the clock only moves forward, by the given seconds", async () => {
    const before = Date.parse((await sb.control.clock()).now);
    const after = Date.parse((await sb.control.clock(90)).now);
    expect(after - before).toBe(90_000); // the test sandbox's clock is frozen between advances
    await expect(sb.control.clock(-5)).rejects.toMatchObject({ status: 422 });
  });

  it("stamps lead times with the sandbox clock", async () => {
    await sb.control.clock(3600);
    const now = (await sb.control.clock()).now;
    await sb.createLead(validLead());
    expect((await sb.control.leads())[0].created_at).toBe(now);
  });

  it("answers loopback callers only", () => {
    for (const a of ["127.0.0.1", "127.8.9.10", "::1", "::ffff:127.0.0.1"]) expect(isLoopback(a), a).toBe(true);
    for (const a of ["10.0.0.1", "192.168.1.2", "::ffff:10.0.0.1", "fe80::1", undefined])
      expect(isLoopback(a), String(a)).toBe(false);
  });
});

describe("version header", () => {
  it("is X-Api-Version: 1.3 on every response: success, errors, unknown routes, control API", async () => {
    const responses = [
      await fetch(`${sb.url}/v1/me`, { headers: { Authorization: `Bearer ${sb.keys[0].key}` } }),
      await fetch(`${sb.url}/v1/me`),
      await fetch(`${sb.url}/v1/leads/ATB-1`, { headers: { Authorization: `Bearer ${sb.keys[0].key}` } }),
      await fetch(`${sb.url}/v1/leads`, {
        method: "POST",
        headers: { Authorization: `Bearer ${sb.keys[0].key}`, "Content-Type": "application/json" },
        body: "{",
      }),
      await fetch(`${sb.url}/nowhere`),
      await fetch(`${sb.url}/_sandbox/config`),
    ];
    expect(responses.map((r) => r.status)).toEqual([200, 401, 404, 400, 404, 200]);
    for (const r of responses) expect(r.headers.get("x-api-version")).toBe("1.3");
  });
});
