import { describe, expect, it } from "vitest";
import { startSandbox } from "../../sandbox/index";
import { type ErrorBody, useSandbox, uniquePhone, validLead } from "./helpers";

const sb = useSandbox({ rateLimitPerMinute: 100_000 });

describe("fault injection", () => {
  it("GIVEN error_rate 1 THEN every public call is a 500 with no side effect, and the control API is unaffected", async () => {
    await sb.control.config({ fault: { error_rate: 1 } });
    const res = await sb.createLead(validLead());
    expect(res.status).toBe(500);
    expect((res.body as ErrorBody).error.code).toBe("internal_error");
    expect(res.headers.get("x-api-version")).toBe("1.3");
    expect((await sb.call("GET", "/v1/me")).status).toBe(500);
    expect(await sb.control.leads()).toEqual([]);

    await sb.control.config({ fault: { error_rate: 0 } });
    expect((await sb.createLead(validLead())).status).toBe(201);
  });

  it("GIVEN error_rate 0.3 THEN about a third of calls fail", async () => {
    await sb.control.config({ fault: { error_rate: 0.3 } });
    let failures = 0;
    for (let i = 0; i < 200; i++) if ((await sb.call("GET", "/v1/me")).status === 500) failures++;
    expect(failures).toBeGreaterThan(25);
    expect(failures).toBeLessThan(100);
  });

  it("adds the configured latency", async () => {
    await sb.control.config({ fault: { latency_ms: 120 } });
    const start = performance.now();
    expect((await sb.call("GET", "/v1/me")).status).toBe(200);
    expect(performance.now() - start).toBeGreaterThanOrEqual(115);
  });

  it("GIVEN hang_rate 1 THEN requests never get an answer (the client must time out), and nothing is stored", async () => {
    await sb.control.config({ fault: { hang_rate: 1 } });
    const attempt = fetch(`${sb.url}/v1/leads`, {
      method: "POST",
      headers: { Authorization: `Bearer ${sb.keys[0].key}`, "Content-Type": "application/json" },
      body: JSON.stringify(validLead({ customer_phone: uniquePhone() })),
      signal: AbortSignal.timeout(150),
    });
    await expect(attempt).rejects.toMatchObject({ name: "TimeoutError" });
    expect(await sb.control.leads()).toEqual([]);
    await sb.control.config({ fault: { hang_rate: 0 } });
    expect((await sb.call("GET", "/v1/me")).status).toBe(200);
  });

  it("GIVEN a latency longer than the client waits THEN a POST the client gave up on is still stored after the delay", async () => {
    await sb.control.config({ fault: { latency_ms: 400 } });
    const phone = uniquePhone();
    const attempt = fetch(`${sb.url}/v1/leads`, {
      method: "POST",
      headers: { Authorization: `Bearer ${sb.keys[0].key}`, "Content-Type": "application/json" },
      body: JSON.stringify(validLead({ customer_phone: phone, external_ref: "abandoned-1" })),
      signal: AbortSignal.timeout(100),
    });
    await expect(attempt).rejects.toMatchObject({ name: "TimeoutError" });
    await sb.control.config({ fault: { latency_ms: 0 } });
    const stored = async () => (await sb.control.leads()).filter((l) => l.external_ref === "abandoned-1").length;
    const deadline = Date.now() + 10_000;
    while ((await stored()) === 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 25));
    expect(await stored()).toBe(1);
  });

  it("close() does not wait for hanging requests", async () => {
    const other = await startSandbox({ port: 0, quiet: true });
    await fetch(`${other.url}/_sandbox/config`, {
      method: "PUT",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ fault: { hang_rate: 1 } }),
    });
    const hanging = fetch(`${other.url}/v1/me`, { headers: { Authorization: `Bearer ${other.keys[0].key}` } }).catch(
      (e: unknown) => e,
    );
    await new Promise((r) => setTimeout(r, 30));
    // The hanging request never ends by itself: a close() that waited for it would never return.
    await other.close();
    expect(await hanging).toBeInstanceOf(Error);
  });

  it("validates fault settings", async () => {
    await expect(sb.control.config({ fault: { error_rate: 1.5 } })).rejects.toMatchObject({ status: 422 });
    await expect(sb.control.config({ fault: { latency_ms: -1 } })).rejects.toMatchObject({ status: 422 });
  });
});
