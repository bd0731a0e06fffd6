import { describe, expect, it } from "vitest";
import { createTokenBucketLimiter, keyFingerprint } from "../../app/seller-api/index";
import { createFakeClock } from "./helpers/fake-clock";

describe("createTokenBucketLimiter", () => {
  it("GIVEN 5 per minute WHEN 6 calls start together THEN they are spaced 12 s apart", async () => {
    // Concurrent sleepers: time stands still, each caller's wait is its start time.
    const waits: number[] = [];
    const limiter = createTokenBucketLimiter({ now: () => 0, sleep: async (ms) => void waits.push(ms) });
    await Promise.all(Array.from({ length: 6 }, () => limiter.acquire("k", 5)));
    expect(waits).toEqual([12_000, 24_000, 36_000, 48_000, 60_000]);
  });

  it("never lets more than the rate start in any 60 s window, whatever the rate", async () => {
    for (const rate of [1, 7, 13, 60, 97]) {
      const clock = createFakeClock(0);
      const limiter = createTokenBucketLimiter(clock);
      const starts: number[] = [];
      for (let i = 0; i < rate * 3; i++) {
        await limiter.acquire("k", rate);
        starts.push(clock.now());
      }
      for (const s of starts) expect(starts.filter((t) => t >= s && t < s + 60_000).length).toBeLessThanOrEqual(rate);
    }
  });

  it("keeps separate budgets per key", async () => {
    const clock = createFakeClock(0);
    const limiter = createTokenBucketLimiter(clock);
    await limiter.acquire("a", 1);
    await limiter.acquire("b", 1);
    expect(clock.sleeps).toEqual([]);
  });

  it("GIVEN a penalty THEN the next call waits until it ends", async () => {
    const clock = createFakeClock(0);
    const limiter = createTokenBucketLimiter(clock);
    await limiter.acquire("k", 60);
    limiter.penalize("k", 30_000);
    await limiter.acquire("k", 60);
    expect(clock.now()).toBe(30_000);
    await limiter.acquire("k", 60);
    expect(clock.now()).toBe(31_000);
  });

  it("GIVEN an idle period THEN the next call does not wait", async () => {
    const clock = createFakeClock(0);
    const limiter = createTokenBucketLimiter(clock);
    await limiter.acquire("k", 2);
    clock.advance(120_000);
    await limiter.acquire("k", 2);
    expect(clock.sleeps).toEqual([]);
  });

  it("GIVEN a burst of 3 THEN 3 calls go at once and the 4th is paced", async () => {
    const clock = createFakeClock(0);
    const limiter = createTokenBucketLimiter({ ...clock, burst: 3 });
    for (let i = 0; i < 4; i++) await limiter.acquire("k", 6);
    expect(clock.sleeps).toEqual([10_000]);
  });

  it("refuses a rate that is not positive", async () => {
    const limiter = createTokenBucketLimiter(createFakeClock(0));
    await expect(limiter.acquire("k", 0)).rejects.toThrow(RangeError);
  });
});

describe("keyFingerprint", () => {
  it("is stable, distinct per key, and does not contain the key", () => {
    const key = "cod_" + "A".repeat(43);
    expect(keyFingerprint(key)).toBe(keyFingerprint(key));
    expect(keyFingerprint(key)).not.toBe(keyFingerprint(key + "B"));
    expect(keyFingerprint(key)).not.toContain(key.slice(4, 12));
    expect(keyFingerprint(key)).toMatch(/^key_sha256:[0-9a-f]{16}$/);
  });
});
