/** The open parts of the platform's answers: where the ref sits, the error body, the list cursor. */
import { describe, expect, it } from "vitest";
import { readCreateResult, readErrorDetails, readNextBefore, unwrapData } from "../../app/seller-api/response-shapes";

describe("unwrapData", () => {
  it("takes data when the body wraps it, else the body", () => {
    expect(unwrapData({ data: [1] })).toEqual([1]);
    expect(unwrapData({ data: null })).toBeNull();
    expect(unwrapData({ items: [] })).toEqual({ items: [] });
    expect(unwrapData([{ data: 1 }])).toEqual([{ data: 1 }]);
    expect(unwrapData("x")).toBe("x");
  });
});

describe("readCreateResult", () => {
  it("finds the ref under data, data.lead, lead or at the top, in that order", () => {
    expect(readCreateResult(201, { data: { ref: "A-1" } })).toEqual({
      kind: "created",
      ref: "A-1",
      raw: { data: { ref: "A-1" } },
    });
    expect(readCreateResult(201, { data: { lead: { ref: "A-2" } } })).toMatchObject({ kind: "created", ref: "A-2" });
    expect(readCreateResult(201, { lead: { reference: "A-3" } })).toMatchObject({ kind: "created", ref: "A-3" });
    expect(readCreateResult(201, { lead_ref: 44 })).toMatchObject({ kind: "created", ref: "44" });
    expect(readCreateResult(201, { data: { ref: "first", lead: { ref: "second" } }, ref: "last" })).toMatchObject({
      ref: "first",
    });
    expect(
      readCreateResult(201, { data: { lead: { ref: "second" } }, lead: { ref: "third" }, ref: "last" }),
    ).toMatchObject({ ref: "second" });
    expect(readCreateResult(201, { lead: { ref: "third" }, ref: "last" })).toMatchObject({ ref: "third" });
  });

  it("skips blank refs and prefers ref to reference to lead_ref", () => {
    expect(readCreateResult(201, { ref: "  ", reference: "R" })).toMatchObject({ ref: "R" });
    expect(readCreateResult(201, { ref: "A", reference: "R", lead_ref: "L" })).toMatchObject({ ref: "A" });
    expect(readCreateResult(201, { reference: "R", lead_ref: "L" })).toMatchObject({ ref: "R" });
  });

  it("returns nothing for a created answer without a readable ref", () => {
    for (const body of [{}, { data: {} }, { ref: "" }, { ref: { id: 1 } }, null, "A-1", [{ ref: "A-1" }]]) {
      expect(readCreateResult(201, body), JSON.stringify(body)).toBeUndefined();
    }
  });

  it("reads a 202 as damaged, with its anomalies as objects or strings", () => {
    const body = { data: { ref: "A-9", anomalies: [{ code: "duplicate", message: "Same phone" }, "price_mismatch"] } };
    expect(readCreateResult(202, body)).toEqual({
      kind: "damaged",
      ref: "A-9",
      anomalies: [
        { code: "duplicate", message: "Same phone" },
        { code: "price_mismatch", message: "price_mismatch" },
      ],
      raw: body,
    });
    expect(readCreateResult(202, { warnings: ["w"] })).toEqual({
      kind: "damaged",
      anomalies: [{ code: "w", message: "w" }],
      raw: { warnings: ["w"] },
    });
    expect(readCreateResult(202, {})).toEqual({ kind: "damaged", anomalies: [], raw: {} });
    expect(readCreateResult(202, { anomalies: "x", warnings: ["w"] })).toMatchObject({ anomalies: [{ code: "w" }] });
  });

  it("reads a 201 flagged damaged anywhere as damaged", () => {
    expect(readCreateResult(201, { data: { ref: "A", damaged: true } })).toMatchObject({ kind: "damaged", ref: "A" });
    expect(readCreateResult(201, { lead: { ref: "A" }, status: "damaged" })).toMatchObject({
      kind: "damaged",
      ref: "A",
    });
    expect(readCreateResult(201, { ref: "A", damaged: "yes", status: "created" })).toMatchObject({ kind: "created" });
  });
});

describe("readErrorDetails", () => {
  it("reads short plain text, not HTML or long pages", () => {
    expect(readErrorDetails("  Bad gateway  ")).toEqual({ message: "Bad gateway" });
    expect(readErrorDetails("x".repeat(200))).toEqual({ message: "x".repeat(200) });
    expect(readErrorDetails("x".repeat(201))).toEqual({});
    expect(readErrorDetails("<html>oops</html>")).toEqual({});
    expect(readErrorDetails("   ")).toEqual({});
  });

  it("reads nothing from non-objects", () => {
    for (const body of [null, undefined, 5, [1]]) expect(readErrorDetails(body)).toEqual({});
  });

  it("reads {error: {...}}", () => {
    expect(readErrorDetails({ error: { code: "invalid_city", message: "Unknown city", field: "city" } })).toEqual({
      code: "invalid_city",
      message: "Unknown city",
      field: "city",
    });
    expect(readErrorDetails({ error: { type: "t", detail: "d", param: "p" } })).toEqual({
      code: "t",
      message: "d",
      field: "p",
    });
    expect(readErrorDetails({ error: { description: "desc", path: ["items", 0] } })).toEqual({
      message: "desc",
      field: "items.0",
    });
    expect(readErrorDetails({ error: { title: "T", loc: "body" } })).toEqual({ message: "T", field: "body" });
    expect(readErrorDetails({ error: { attribute: "a", field: "", param: [] } })).toEqual({ field: "a" });
    expect(readErrorDetails({ error: { source: { pointer: "/data/items/0" } } })).toEqual({ field: "data.items.0" });
    expect(readErrorDetails({ error: { source: { pointer: "/" } } })).toEqual({});
    expect(readErrorDetails({ error: { source: { pointer: 3 } } })).toEqual({});
  });

  it('reads {error: "code", message}', () => {
    expect(readErrorDetails({ error: "rate_limited", message: "Slow down", field: "x" })).toEqual({
      code: "rate_limited",
      message: "Slow down",
      field: "x",
    });
    expect(readErrorDetails({ error: "invalid_request", code: "E42", error_description: "bad" })).toEqual({
      code: "E42",
      message: "bad",
    });
    expect(readErrorDetails({ error: "nope", detail: "d" })).toEqual({ code: "nope", message: "d" });
  });

  it("reads {errors: [...]}", () => {
    expect(
      readErrorDetails({
        code: "validation",
        errors: [{ message: "phone is invalid", field: "customer_phone" }, { message: "2nd" }],
      }),
    ).toEqual({
      code: "validation",
      message: "phone is invalid",
      field: "customer_phone",
    });
    expect(readErrorDetails({ errors: [{ code: "own", message: "m" }], code: "top" })).toEqual({
      code: "own",
      message: "m",
    });
    expect(readErrorDetails({ errors: ["first", "second"], code: 400 })).toEqual({ code: "400", message: "first" });
    expect(readErrorDetails({ errors: [], message: "flat" })).toEqual({ message: "flat" });
    expect(readErrorDetails({ errors: [7], message: "flat" })).toEqual({ message: "flat" });
  });

  it("reads {errors: {field: [messages]}}", () => {
    expect(readErrorDetails({ errors: { customer_phone: ["is invalid", "x"] }, code: "validation" })).toEqual({
      code: "validation",
      field: "customer_phone",
      message: "customer_phone is invalid",
    });
    expect(readErrorDetails({ errors: { city: "is unknown" } })).toEqual({ field: "city", message: "city is unknown" });
    expect(readErrorDetails({ errors: { city: [] } })).toEqual({ field: "city" });
    expect(readErrorDetails({ errors: {}, message: "flat" })).toEqual({ message: "flat" });
  });

  it("reads a flat body", () => {
    expect(readErrorDetails({ code: "c", message: "m", param: "p" })).toEqual({ code: "c", message: "m", field: "p" });
    expect(readErrorDetails({})).toEqual({});
  });
});

describe("readNextBefore", () => {
  it("finds the cursor at the top, under meta or under pagination", () => {
    expect(readNextBefore({ next_before: 120 })).toBe(120);
    expect(readNextBefore({ meta: { next_before: "abc" } })).toBe("abc");
    expect(readNextBefore({ pagination: { next_before: 7 } })).toBe(7);
    expect(readNextBefore({ next_before: 1, meta: { next_before: 2 } })).toBe(1);
    expect(readNextBefore({ next_before: null, meta: { next_before: 2 } })).toBe(2);
  });

  it("reads null, empty, non-finite and non-objects as no further page", () => {
    for (const body of [
      null,
      "x",
      [],
      { next_before: null },
      { next_before: "" },
      { next_before: "  " },
      { next_before: Number.NaN },
      { next_before: Infinity },
      { meta: "m" },
      { next_before: true },
    ]) {
      expect(readNextBefore(body), JSON.stringify(body)).toBeNull();
    }
  });
});
