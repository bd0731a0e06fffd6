/** The platform's records as the client reads them: what is checked, kept, converted or refused. */
import { describe, expect, it } from "vitest";
import {
  accountSchema,
  amountString,
  anomalySchema,
  citySchema,
  describeIssues,
  leadDetailSchema,
  leadSummarySchema,
  productSchema,
  toAnomaly,
} from "../../app/seller-api/schemas";

describe("amountString", () => {
  it("takes two-decimal strings, negative ones too, and nothing else", () => {
    for (const ok of ["149.00", "0.00", "-12.50", "1234567.99"])
      expect(amountString.safeParse(ok).success, ok).toBe(true);
    for (const bad of ["149", "149.0", "149.000", "1,00", " 1.00", "1.00 ", "+1.00", "a1.00", "1.00a", 149]) {
      expect(amountString.safeParse(bad).success, String(bad)).toBe(false);
    }
  });
});

describe("toAnomaly", () => {
  it("reads a plain string as code and message", () => {
    expect(toAnomaly("duplicate")).toEqual({ code: "duplicate", message: "duplicate" });
  });

  it("reads other non-objects as text", () => {
    expect(toAnomaly(42)).toEqual({ code: "42", message: "42" });
    expect(toAnomaly(null)).toEqual({ code: "null", message: "null" });
    expect(toAnomaly(["a"])).toEqual({ code: "a", message: "a" });
  });

  it("takes the first usable of the usual key names", () => {
    expect(toAnomaly({ code: "inconsistent_total", message: "Total too low", field: "total_client" })).toEqual({
      code: "inconsistent_total",
      message: "Total too low",
      field: "total_client",
    });
    expect(toAnomaly({ type: "t", detail: "d", param: "p" })).toEqual({ code: "t", message: "d", field: "p" });
    expect(toAnomaly({ kind: "k", description: "x", path: ["items", 0, "sku"] })).toEqual({
      code: "k",
      message: "x",
      field: "items.0.sku",
    });
    expect(toAnomaly({ name: "n", reason: "r", attribute: "a" })).toEqual({ code: "n", message: "r", field: "a" });
    expect(toAnomaly({ code: "", type: "fallback", message: "", detail: "second" })).toEqual({
      code: "fallback",
      message: "second",
    });
  });

  it("reads numbers and joins path arrays, skipping empty or mixed arrays", () => {
    expect(toAnomaly({ code: 422, field: 3 })).toEqual({ code: "422", message: "422", field: "3" });
    expect(toAnomaly({ code: "c", field: [], param: "p" })).toEqual({ code: "c", message: "c", field: "p" });
    expect(toAnomaly({ code: "c", field: ["a", { b: 1 }] })).toEqual({ code: "c", message: "c" });
    expect(toAnomaly({ code: "c", field: ["a", "b"] })).toEqual({ code: "c", message: "c", field: "a.b" });
  });

  it("keeps the earlier lead a recent duplicate names, under the usual key names", () => {
    expect(
      toAnomaly({ code: "recent_duplicate", message: "m", field: "customer_phone", duplicate_of: "ATB-100012" }),
    ).toEqual({
      code: "recent_duplicate",
      message: "m",
      field: "customer_phone",
      duplicateOf: "ATB-100012",
    });
    expect(toAnomaly({ code: "recent_duplicate", duplicateOf: "A-1" }).duplicateOf).toBe("A-1");
    expect(toAnomaly({ code: "recent_duplicate", duplicate_ref: "A-2" }).duplicateOf).toBe("A-2");
    expect(toAnomaly({ code: "recent_duplicate", original_ref: 77 }).duplicateOf).toBe("77");
    expect(toAnomaly({ code: "recent_duplicate", duplicate_of: "", original_ref: "A-3" }).duplicateOf).toBe("A-3");
    expect(toAnomaly({ code: "recent_duplicate", message: "m" })).not.toHaveProperty("duplicateOf");
    expect(toAnomaly({ code: "recent_duplicate", message: "m", duplicate_of: null })).toEqual({
      code: "recent_duplicate",
      message: "m",
    });
  });

  it("says unspecified when no code is given, and has no field when none is", () => {
    expect(toAnomaly({ message: "m" })).toEqual({ code: "unspecified", message: "m" });
    expect(toAnomaly({ message: "m" })).not.toHaveProperty("field");
    expect(toAnomaly({})).toEqual({ code: "unspecified", message: "unspecified" });
    expect(toAnomaly({ code: true, message: null })).toEqual({ code: "unspecified", message: "unspecified" });
    expect(anomalySchema.parse("x")).toEqual({ code: "x", message: "x" });
  });
});

describe("records", () => {
  it("account: converts the version and a numeric rate limit, keeps the raw record", () => {
    const raw = {
      account: "ACC-1",
      name: "Atlas",
      lead_prefix: "AT",
      api_version: 1,
      rate_limit_per_minute: "60",
      extra: true,
    };
    expect(accountSchema.parse(raw)).toEqual({
      account: "ACC-1",
      name: "Atlas",
      lead_prefix: "AT",
      api_version: "1",
      rate_limit_per_minute: 60,
      raw: { ...raw, api_version: "1", rate_limit_per_minute: 60 },
    });
    for (const limit of [0, -1, 1.5, "0", "abc", "1.5"]) {
      expect(accountSchema.safeParse({ ...raw, rate_limit_per_minute: limit }).success, String(limit)).toBe(false);
    }
  });

  it("product: defaults private and variants, keeps unknown fields", () => {
    const raw = { id: 1, sku: "S", name: "N", platform_price: "1.00", in_stock: true, colour: "red" };
    expect(productSchema.parse(raw)).toEqual({
      id: 1,
      sku: "S",
      name: "N",
      platform_price: "1.00",
      in_stock: true,
      private: false,
      variants: [],
      raw: { ...raw, private: false, variants: [] },
    });
    expect(productSchema.parse({ ...raw, private: true, variants: [{ sku: "V" }] })).toMatchObject({
      private: true,
      variants: [{ sku: "V" }],
    });
    expect(productSchema.safeParse({ ...raw, platform_price: "1" }).success).toBe(false);
    expect(productSchema.safeParse({ ...raw, id: 1.5 }).success).toBe(false);
  });

  it("city", () => {
    expect(citySchema.parse({ id: 1, name: "Rabat", delivery_fee: "25.00" })).toEqual({
      id: 1,
      name: "Rabat",
      delivery_fee: "25.00",
      raw: { id: 1, name: "Rabat", delivery_fee: "25.00" },
    });
    expect(citySchema.safeParse({ id: 1, name: "Rabat", delivery_fee: 25 }).success).toBe(false);
  });

  it("lead summary: damage fields only when sent, a missing total as null", () => {
    const base = { id: 7, ref: "AT-7", confirmation_status: "new", shipping_status: "pending" };
    const plain = leadSummarySchema.parse(base);
    expect(plain).toEqual({ ...base, total_client: null, raw: { ...base, total_client: null } });
    expect(plain).not.toHaveProperty("damaged");
    expect(plain).not.toHaveProperty("anomalies");
    const damaged = leadSummarySchema.parse({
      ...base,
      total_client: "149.00",
      damaged: true,
      anomalies: ["dup", { code: "c", message: "m" }],
    });
    expect(damaged).toMatchObject({
      total_client: "149.00",
      damaged: true,
      anomalies: [
        { code: "dup", message: "dup" },
        { code: "c", message: "m" },
      ],
    });
    expect(leadSummarySchema.parse({ ...base, damaged: false })).toMatchObject({ damaged: false });
    expect(leadSummarySchema.safeParse({ ...base, ref: "" }).success).toBe(false);
  });

  it("lead detail: id only when sent, nullable text and amounts", () => {
    const base = { ref: "AT-7", confirmation_status: "confirmed", shipping_status: "shipped" };
    const detail = leadDetailSchema.parse(base);
    expect(detail).toEqual({
      ...base,
      tracking_number: null,
      seller_profit: null,
      total_client: null,
      raw: { ...base, tracking_number: null, seller_profit: null, total_client: null },
    });
    expect(detail).not.toHaveProperty("id");
    expect(
      leadDetailSchema.parse({
        ...base,
        id: 3,
        tracking_number: "TRK",
        seller_profit: "-5.00",
        total_client: "10.00",
        anomalies: [],
      }),
    ).toMatchObject({
      id: 3,
      tracking_number: "TRK",
      seller_profit: "-5.00",
      total_client: "10.00",
      anomalies: [],
    });
  });
});

describe("describeIssues", () => {
  it("names paths and reasons, at most ten, without the values", () => {
    const result = leadSummarySchema.safeParse({ id: "x", ref: "secret-customer-value", confirmation_status: 1 });
    expect(result.success).toBe(false);
    const issues = result.success ? [] : describeIssues(result.error);
    expect(issues).toContain("id: Expected number, received string");
    expect(issues.join("\n")).not.toContain("secret-customer-value");
    const many = productSchema.safeParse(null);
    expect(many.success ? [] : describeIssues(many.error)).toEqual(["(root): Expected object, received null"]);
    const wide = citySchema.array().safeParse(Array.from({ length: 15 }, () => ({})));
    const wideIssues = wide.success ? [] : describeIssues(wide.error);
    expect(wideIssues).toHaveLength(10);
    expect(wideIssues[0]).toBe("0.id: Required");
  });
});
