import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { newRateState, retryAfterSeconds, takeCall } from "../../sandbox/rate-limit";
import { type ErrorBody, type MeBody, useSandbox } from "./helpers";

// Fixed so a run is repeatable; fast-check prints the seed (and the path) of any failure.
// FAST_CHECK_SEED=<n> explores other inputs.
const SEED = Number(process.env.FAST_CHECK_SEED) || 20261124;

const sb = useSandbox({ rateLimitPerMinute: 3 });

async function burst(n: number, key = sb.keys[0].key): Promise<number[]> {
  const statuses: number[] = [];
  for (let i = 0; i < n; i++) statuses.push((await sb.call("GET", "/v1/cities", { key })).status);
  return statuses;
}

describe("rate limit over HTTP (3 calls per key per minute)", () => {
  it("GIVEN the minute's calls are spent WHEN one more comes THEN 429 states the wait in Retry-After and error.retry_after", async () => {
    expect(await burst(3)).toEqual([200, 200, 200]);
    await sb.control.clock(20);
    const res = await sb.call<ErrorBody>("GET", "/v1/me");
    expect(res.status).toBe(429);
    expect(res.headers.get("retry-after")).toBe("40");
    expect(res.body.error).toMatchObject({ code: "rate_limited", retry_after: 40 });
    expect(res.headers.get("x-api-version")).toBe("1.3");
  });

  it("a client that waits the stated delay gets a whole fresh minute", async () => {
    await burst(3);
    const refused = await sb.call<ErrorBody>("GET", "/v1/me");
    await sb.control.clock(Number(refused.headers.get("retry-after")));
    // The refused call was charged to this minute: 2 left, not 3.
    expect(await burst(3)).toEqual([200, 200, 429]);
  });

  it("retrying at once consumes the next minute", async () => {
    // GIVEN a key that waits politely and a key that hammers, both spent
    const polite = sb.keys[0].key;
    const hammer = (await sb.control.createKey({ account: "ACC-1001", name: "hammer" })).key;
    expect(await burst(3, polite)).toEqual([200, 200, 200]);
    expect(await burst(3, hammer)).toEqual([200, 200, 200]);
    // WHEN the hammer retries 3 times at once
    const retries = [];
    for (let i = 0; i < 3; i++) retries.push(await sb.call<ErrorBody>("GET", "/v1/me", { key: hammer }));
    expect(retries.map((r) => r.status)).toEqual([429, 429, 429]);
    // THEN its next minute is already spent, and the last 429 said so (wait two minutes, not one)
    expect(retries[0].body.error.retry_after).toBe(60);
    expect(retries[2].body.error.retry_after).toBe(120);
    await sb.control.clock(60);
    expect(await burst(1, polite)).toEqual([200]);
    expect(await burst(1, hammer)).toEqual([429]);
    await sb.control.clock(60);
    // the 429 in the second minute was charged to the third
    expect(await burst(3, hammer)).toEqual([200, 200, 429]);
  });

  it("counts per key: another key of the same seller, and the other seller, keep their own minute", async () => {
    await burst(4);
    const sibling = await sb.control.createKey({ account: "ACC-1001", name: "sibling" });
    expect(await burst(3, sibling.key)).toEqual([200, 200, 200]);
    expect(await burst(3, sb.keys[1].key)).toEqual([200, 200, 200]);
  });

  it("does not count calls answered 401 (no key to count them against)", async () => {
    for (let i = 0; i < 5; i++) expect((await sb.call("GET", "/v1/me", { key: null })).status).toBe(401);
    expect(await burst(3)).toEqual([200, 200, 200]);
  });

  it("counts errors (404, 422) like any other call", async () => {
    await sb.call("GET", "/v1/leads/ATB-1");
    await sb.call("GET", "/v1/leads?limit=0");
    expect(await burst(2)).toEqual([200, 429]);
  });

  it("applies a new configured limit at once and reports it in /v1/me", async () => {
    await sb.control.config({ rate_limit_per_minute: 5 });
    const me = await sb.call<MeBody>("GET", "/v1/me");
    expect(me.body.data.rate_limit_per_minute).toBe(5);
    expect(await burst(5)).toEqual([200, 200, 200, 200, 429]);
  });

  it("does not rate-limit the control API", async () => {
    await burst(4);
    for (let i = 0; i < 10; i++) await sb.control.config();
    expect((await sb.control.getKey(sb.keys[0].id)).calls.map((c) => c.status)).toEqual([200, 200, 200, 429]);
  });
});

describe("rate limit windows (pure)", () => {
  it("anchors the windows at the key's first call", () => {
    const state = newRateState();
    expect(takeCall(state, 10_000, 2)).toEqual({ allowed: true, remaining: 1 });
    expect(takeCall(state, 20_000, 2)).toEqual({ allowed: true, remaining: 0 });
    expect(takeCall(state, 69_999, 2)).toEqual({ allowed: false, retryAfterMs: 1 });
    expect(retryAfterSeconds(1)).toBe(1);
    // the refusal took one of the next window's two calls
    expect(takeCall(state, 70_000, 2)).toEqual({ allowed: true, remaining: 0 });
  });

  it("with a limit of 1, a single early retry fills the next window, so the wait covers two windows", () => {
    const state = newRateState();
    takeCall(state, 0, 1);
    expect(takeCall(state, 30_000, 1)).toEqual({ allowed: false, retryAfterMs: 90_000 });
  });

  it("property: a client that always waits the stated delay is always served next, and never exceeds the limit per window", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 10 }),
        fc.array(fc.integer({ min: 0, max: 90_000 }), { minLength: 1, maxLength: 200 }),
        (limit, gaps) => {
          const state = newRateState();
          let now = 1_000_000;
          const accepted: number[] = [];
          let mustSucceed = false;
          for (const gap of gaps) {
            const decision = takeCall(state, now, limit);
            if (mustSucceed) expect(decision.allowed).toBe(true);
            if (decision.allowed) {
              accepted.push(now);
              mustSucceed = false;
              now += gap;
            } else {
              expect(decision.retryAfterMs).toBeGreaterThan(0);
              now += retryAfterSeconds(decision.retryAfterMs) * 1000;
              mustSucceed = true;
            }
          }
          const perWindow = new Map<number, number>();
          for (const t of accepted) {
            const w = Math.floor((t - 1_000_000) / 60_000);
            perWindow.set(w, (perWindow.get(w) ?? 0) + 1);
          }
          for (const count of perWindow.values()) expect(count).toBeLessThanOrEqual(limit);
        },
      ),
      { seed: SEED, numRuns: 300 },
    );
  });
});
