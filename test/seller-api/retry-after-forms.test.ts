/** More forms of a stated wait, their precedence, and the platform's version header. */
import { describe, expect, it } from "vitest";
import { isUnsupportedVersion, majorVersion, readApiVersion } from "../../app/seller-api/api-version";
import { statedRetryAfterMs, untilNextMinuteMs } from "../../app/seller-api/retry-after";

const NOW = Date.UTC(2025, 0, 15, 10, 0, 20, 500);
const wait = (headers: Record<string, string>, body: unknown = null) => statedRetryAfterMs(headers, body, NOW);

describe("stated waits", () => {
  it("reads units on numbers", () => {
    expect(wait({ "Retry-After-Ms": "2 s" })).toBe(2_000);
    expect(wait({ "Retry-After-Ms": "250ms" })).toBe(250);
    expect(wait({ "Retry-After": "300 MS" })).toBe(300);
    expect(wait({ "Retry-After": " 2.0001 " })).toBe(2_001);
    expect(wait({ "RateLimit-Reset": "1500ms" })).toBe(1_500);
  });

  it("reads every body key, in every place, the top first", () => {
    expect(wait({}, { data: { retry_after: 4 } })).toBe(4_000);
    expect(wait({}, { retryAfter: "6" })).toBe(6_000);
    expect(wait({}, { retry_after_seconds: 8 })).toBe(8_000);
    expect(wait({}, { reset_at: new Date(NOW + 3_000).toISOString() })).toBe(3_000);
    expect(wait({}, { retry_after: 1, error: { retry_after: 2 } })).toBe(1_000);
    expect(wait({}, { error: { retry_after: 2 }, errors: [{ retry_after: 3 }] })).toBe(2_000);
    expect(wait({}, { errors: [{ retry_after: 3 }], data: { retry_after: 4 } })).toBe(3_000);
    expect(wait({}, { retry_after_ms: 10, retry_after: 20 })).toBe(10);
    expect(wait({}, { errors: "x", data: [1] })).toBeUndefined();
    expect(wait({}, [{ retry_after: 1 }])).toBeUndefined();
    expect(wait({}, { retry_after: Infinity })).toBeUndefined();
    expect(wait({}, { retry_at: "12345" })).toBeUndefined(); // a bare number is no date
    expect(wait({}, { retry_at: "not a date" })).toBeUndefined();
  });

  it("orders the headers: Retry-After-Ms, Retry-After, body, RateLimit-Reset, X-RateLimit-Reset-After, X-RateLimit-Reset", () => {
    expect(wait({ "Retry-After-Ms": "1", "Retry-After": "2" })).toBe(1);
    expect(wait({ "RateLimit-Reset": "2", "X-RateLimit-Reset-After": "3" }, { retry_after: 1 })).toBe(1_000);
    expect(wait({ "RateLimit-Reset": "2", "X-RateLimit-Reset-After": "3" })).toBe(2_000);
    expect(wait({ "X-RateLimit-Reset-After": "3", "X-RateLimit-Reset": "4" })).toBe(3_000);
  });

  it("reads X-RateLimit-Reset as seconds, epoch seconds or epoch ms", () => {
    expect(wait({ "X-RateLimit-Reset": "30" })).toBe(30_000);
    expect(wait({ "X-RateLimit-Reset": "999999999" })).toBe(999_999_999_000);
    expect(wait({ "X-RateLimit-Reset": String(NOW / 1000 - 10) })).toBe(0);
    expect(wait({ "X-RateLimit-Reset": "1000000000000" })).toBe(0);
    expect(wait({ "X-RateLimit-Reset": "1500ms" })).toBe(1_500);
    expect(wait({ "X-RateLimit-Reset": "soon" })).toBeUndefined();
  });

  it("finds a header whatever its case in a plain record, and nothing when absent", () => {
    expect(statedRetryAfterMs({ "retry-AFTER-ms": "5", other: undefined }, null, NOW)).toBe(5);
    expect(statedRetryAfterMs({ other: "5" }, null, NOW)).toBeUndefined();
  });

  it("waits until the next minute, also before 1970", () => {
    expect(untilNextMinuteMs(-1_000)).toBe(1_000);
    expect(untilNextMinuteMs(59_999)).toBe(1);
  });
});

describe("api version", () => {
  it("reads X-Api-Version, else any header naming api-version, trimmed", () => {
    expect(readApiVersion(new Headers({ "X-Api-Version": " 1.4 ", "Platform-Api-Version": "9" }))).toBe("1.4");
    expect(readApiVersion(new Headers({ "Platform-API-Version": " 2 " }))).toBe("2");
    expect(readApiVersion(new Headers({ "Content-Type": "application/json" }))).toBeNull();
  });

  it("takes the leading number as the major version", () => {
    expect(["1.3", "v2", " V3.1", "2024-01-01", "x1", "", null, undefined].map(majorVersion)).toEqual([
      1,
      2,
      3,
      2024,
      null,
      null,
      null,
      null,
    ]);
  });

  it("calls a stated version with another major unsupported", () => {
    expect(["1.9", "2.0", "v0", null, "beta"].map(isUnsupportedVersion)).toEqual([false, true, true, false, false]);
  });
});
