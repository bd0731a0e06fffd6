import { describe, expect, it } from "vitest";
import { MAX_AMOUNT_CENTS, formatCents, toCents } from "../../app/leads/money";

describe("toCents", () => {
  it("reads decimal strings as Shopify writes them, trimmed", () => {
    expect(toCents("149.00")).toBe(14900);
    expect(toCents("149")).toBe(14900);
    expect(toCents("149.")).toBe(14900);
    expect(toCents("149.5")).toBe(14950);
    expect(toCents("149.05")).toBe(14905);
    expect(toCents(" 149.00 ")).toBe(14900);
    expect(toCents("0")).toBe(0);
  });

  it("rounds a third decimal half up and ignores the ones after it", () => {
    expect(toCents("149.005")).toBe(14901);
    expect(toCents("149.004")).toBe(14900);
    expect(toCents("149.0049")).toBe(14900);
    expect(toCents("149.995")).toBe(15000);
    expect(toCents("0.009")).toBe(1);
  });

  it("reads non-negative finite numbers, including ones a float sum leaves behind", () => {
    expect(toCents(149.5)).toBe(14950);
    expect(toCents(0)).toBe(0);
    expect(toCents(0.1 + 0.2)).toBe(30);
    expect(toCents(1.005)).toBe(101);
    expect(toCents(12)).toBe(1200);
  });

  it("refuses negative, non-finite and non-numeric amounts", () => {
    for (const bad of [-0.01, -149, Number.NaN, Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY]) {
      expect(toCents(bad)).toBeUndefined();
    }
    for (const bad of ["-5", "+5", "", " ", "abc", "a149", "149a", "1.2.3", ".5", "1,50", "1e3", "149 .00"]) {
      expect(toCents(bad), JSON.stringify(bad)).toBeUndefined();
    }
    for (const bad of [null, undefined, true, {}, [], { amount: "1" }, 10n]) {
      expect(toCents(bad)).toBeUndefined();
    }
  });

  it("takes up to 15 integer digits as long as the cents stay a safe integer", () => {
    expect(toCents("9999999999999")).toBe(999_999_999_999_900);
    expect(toCents("99999999999999")).toBeUndefined(); // 14 digits: cents above 2^53
    expect(toCents("999999999999999")).toBeUndefined();
    expect(toCents("1000000000000000")).toBeUndefined(); // 16 digits: not an amount
    expect(toCents(String(MAX_AMOUNT_CENTS / 100))).toBe(MAX_AMOUNT_CENTS);
  });
});

describe("formatCents", () => {
  it("prints two decimals, padding a single-digit remainder only", () => {
    expect(formatCents(14900)).toBe("149.00");
    expect(formatCents(1410)).toBe("14.10");
    expect(formatCents(1405)).toBe("14.05");
    expect(formatCents(1499)).toBe("14.99");
    expect(formatCents(10)).toBe("0.10");
    expect(formatCents(9)).toBe("0.09");
    expect(formatCents(0)).toBe("0.00");
    expect(formatCents(MAX_AMOUNT_CENTS)).toBe("999999999.99");
  });

  it("round-trips with toCents", () => {
    for (const cents of [0, 1, 9, 10, 11, 99, 100, 101, 1410, 14900, 123456789]) {
      expect(toCents(formatCents(cents))).toBe(cents);
    }
  });
});
