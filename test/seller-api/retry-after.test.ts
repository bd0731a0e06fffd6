import { describe, expect, it } from "vitest";
import { rateLimitDelayMs, statedRetryAfterMs, untilNextMinuteMs } from "../../app/seller-api/index";

const NOW = Date.UTC(2025, 0, 15, 10, 0, 20, 500); // 20.5 s into a minute

describe("statedRetryAfterMs", () => {
  it.each([
    ["Retry-After seconds", { "Retry-After": "30" }, null, 30_000],
    ["Retry-After fractional seconds", { "retry-after": "1.5" }, null, 1_500],
    ["Retry-After HTTP-date (whole seconds)", { "Retry-After": new Date(NOW + 45_500).toUTCString() }, null, 45_500],
    ["Retry-After HTTP-date in the past", { "Retry-After": new Date(NOW - 5_000).toUTCString() }, null, 0],
    ["Retry-After-Ms header", { "Retry-After-Ms": "1234" }, null, 1_234],
    ["body error.retry_after (sandbox)", {}, { error: { code: "rate_limited", retry_after: 12 } }, 12_000],
    ["body flat retry_after as text", {}, { code: "rate_limited", retry_after: "7" }, 7_000],
    ["body retry_after_ms", {}, { error: { retry_after_ms: 2500 } }, 2_500],
    ["body retryAfterMs", {}, { retryAfterMs: 800 }, 800],
    ["body errors[0].retry_after", {}, { errors: [{ retry_after: 3 }] }, 3_000],
    ["body retry_at ISO date", {}, { error: { retry_at: new Date(NOW + 10_000).toISOString() } }, 10_000],
    ["RateLimit-Reset delta seconds", { "RateLimit-Reset": "9" }, null, 9_000],
    ["X-RateLimit-Reset epoch seconds", { "X-RateLimit-Reset": String((NOW + 40_000) / 1000) }, null, 40_000],
    ["X-RateLimit-Reset epoch ms", { "X-RateLimit-Reset": String(NOW + 4_000) }, null, 4_000],
  ])("reads %s", (_label, headers, body, expected) => {
    expect(statedRetryAfterMs(new Headers(headers), body, NOW)).toBe(expected);
  });

  it("prefers the header over the body when both are stated", () => {
    expect(statedRetryAfterMs(new Headers({ "Retry-After": "5" }), { error: { retry_after: 50 } }, NOW)).toBe(5_000);
  });

  it.each([
    ["nothing", {}, null],
    ["garbage header", { "Retry-After": "soon" }, null],
    ["negative body value", {}, { retry_after: -3 }],
    ["text body", {}, "Too Many Requests"],
  ])("returns undefined for %s", (_label, headers, body) => {
    expect(statedRetryAfterMs(new Headers(headers), body, NOW)).toBeUndefined();
  });

  it("reads a plain header record as well as Headers", () => {
    expect(statedRetryAfterMs({ "RETRY-AFTER": "2" }, null, NOW)).toBe(2_000);
  });
});

describe("rateLimitDelayMs", () => {
  it("GIVEN no stated delay THEN waits until the next minute", () => {
    expect(rateLimitDelayMs(new Headers(), { error: { code: "rate_limited" } }, NOW)).toBe(39_500);
  });

  it("GIVEN a time exactly on a minute THEN waits a whole minute, never 0", () => {
    expect(untilNextMinuteMs(Date.UTC(2025, 0, 1, 0, 1, 0))).toBe(60_000);
  });
});
