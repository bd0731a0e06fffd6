import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { backoffDelayMs } from "../../app/queue/backoff";
import { errorMessage, MAX_ERROR_MESSAGE_LENGTH, RetryLaterError } from "../../app/queue/errors";

// Fixed so a run is repeatable; fast-check prints the seed (and the path) of any failure.
// FAST_CHECK_SEED=<n> explores other inputs.
const SEED = Number(process.env.FAST_CHECK_SEED) || 20261124;

describe("backoffDelayMs", () => {
  it("doubles the ceiling per attempt and scales it by random() (full jitter)", () => {
    const top = () => 0.999999;
    expect(backoffDelayMs(1, { random: top })).toBe(999);
    expect(backoffDelayMs(2, { random: top })).toBe(1999);
    expect(backoffDelayMs(5, { random: top })).toBe(15_999);
    expect(backoffDelayMs(5, { random: () => 0.5 })).toBe(8000);
    expect(backoffDelayMs(5, { random: () => 0 })).toBe(0);
  });

  it("never exceeds the cap, even for absurd attempt numbers", () => {
    expect(backoffDelayMs(10_000, { random: () => 0.999999 })).toBeLessThan(15 * 60_000);
    expect(backoffDelayMs(30, { capMs: 5000, random: () => 0.5 })).toBe(2500);
  });

  it("stays within [0, min(cap, base * 2^(attempt-1))) for any attempt and random value", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 200 }),
        fc.double({ min: 0, max: 1, maxExcluded: true, noNaN: true }),
        fc.integer({ min: 1, max: 10_000 }),
        (attempt, r, baseMs) => {
          const capMs = 60_000;
          const delay = backoffDelayMs(attempt, { baseMs, capMs, random: () => r });
          expect(delay).toBeGreaterThanOrEqual(0);
          expect(delay).toBeLessThanOrEqual(Math.min(capMs, baseMs * 2 ** (attempt - 1)));
        },
      ),
      { seed: SEED },
    );
  });
});

describe("errorMessage", () => {
  it("keeps the message only, on one line, truncated", () => {
    const error = new Error("upstream\n  timed out");
    expect(errorMessage(error)).toBe("upstream timed out");
    expect(errorMessage("plain")).toBe("plain");
    const long = errorMessage(new Error("x".repeat(5000)));
    expect(long).toHaveLength(MAX_ERROR_MESSAGE_LENGTH);
    expect(long.endsWith("…")).toBe(true);
  });
});

describe("RetryLaterError", () => {
  it("runs again after its delay, or at its date", () => {
    const now = new Date("2026-03-01T10:00:00Z");
    expect(new RetryLaterError(30_000, { countAttempt: false, reason: "429" }).runAtFrom(now)).toEqual(
      new Date("2026-03-01T10:00:30Z"),
    );
    const at = new Date("2026-03-02T00:00:00Z");
    expect(new RetryLaterError(at, { countAttempt: true, reason: "paused" }).runAtFrom(now)).toBe(at);
  });
});
