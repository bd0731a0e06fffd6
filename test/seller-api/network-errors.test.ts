/** What fetch threw: a request that never left, one that may have reached the platform, or a timeout. */
import { describe, expect, it } from "vitest";
import { classifyNetworkError, errorCodes } from "../../app/seller-api/network-errors";

const coded = (code: unknown, extra: Record<string, unknown> = {}) =>
  Object.assign(new Error(`e ${String(code)}`), { code, ...extra });
const fetchFailed = (cause: unknown) => new TypeError("fetch failed", { cause });

describe("errorCodes", () => {
  it("collects codes along the cause chain and inside AggregateErrors, in order", () => {
    const aggregate = Object.assign(new AggregateError([coded("ECONNREFUSED"), coded("EHOSTUNREACH")], "all failed"), {
      code: "AGG",
    });
    expect(errorCodes(fetchFailed(coded("UND_ERR_SOCKET", { cause: coded("ECONNRESET") })))).toEqual([
      "UND_ERR_SOCKET",
      "ECONNRESET",
    ]);
    expect(errorCodes(fetchFailed(aggregate))).toEqual(["AGG", "ECONNREFUSED", "EHOSTUNREACH"]);
    expect(errorCodes({ errors: [{ code: "A" }, null, "text", { code: "B" }] })).toEqual(["A", "B"]);
  });

  it("ignores codes that are not strings and values that are not objects", () => {
    expect(errorCodes(coded(42, { cause: coded("X") }))).toEqual(["X"]);
    for (const v of [null, undefined, "ECONNREFUSED", 3]) expect(errorCodes(v)).toEqual([]);
    expect(errorCodes({ code: "A", errors: "not an array" })).toEqual(["A"]);
  });

  it("stops at a cycle and at depth 8", () => {
    const a: Record<string, unknown> = { code: "A" };
    const b: Record<string, unknown> = { code: "B", cause: a };
    a.cause = b;
    expect(errorCodes(a)).toEqual(["A", "B"]);
    let deep: Record<string, unknown> = { code: "C12" };
    for (let i = 11; i >= 0; i--) deep = { code: `C${i}`, cause: deep };
    expect(errorCodes(deep)).toEqual(["C0", "C1", "C2", "C3", "C4", "C5", "C6", "C7", "C8"]);
    let nested: Record<string, unknown> = { code: "Z" };
    for (let i = 0; i < 9; i++) nested = { errors: [nested] };
    expect(errorCodes(nested)).toEqual([]);
    nested = { code: "Y" };
    for (let i = 0; i < 8; i++) nested = { errors: [nested] };
    expect(errorCodes(nested)).toEqual(["Y"]);
  });
});

describe("classifyNetworkError", () => {
  it("calls it a timeout when we timed out or fetch says so, sent or not unknown", () => {
    expect(classifyNetworkError(fetchFailed(coded("ECONNREFUSED")), true)).toEqual({
      reason: "timeout",
      timedOut: true,
      nothingSent: false,
    });
    const abort = Object.assign(new Error("The operation timed out"), { name: "TimeoutError" });
    expect(classifyNetworkError(abort, false)).toEqual({ reason: "timeout", timedOut: true, nothingSent: false });
    expect(classifyNetworkError({ name: "TimeoutError" }, false)).toEqual({
      reason: "unknown",
      timedOut: false,
      nothingSent: false,
    });
  });

  it("says nothing was sent only when every code says no connection was made", () => {
    for (const code of [
      "ECONNREFUSED",
      "ENOTFOUND",
      "EAI_AGAIN",
      "EHOSTUNREACH",
      "ENETUNREACH",
      "UND_ERR_CONNECT_TIMEOUT",
      "ERR_ADDRESS_NOT_PUBLIC",
    ]) {
      expect(classifyNetworkError(fetchFailed(coded(code)), false), code).toEqual({
        reason: code,
        timedOut: false,
        nothingSent: true,
      });
    }
    const mixed = fetchFailed(new AggregateError([coded("ECONNREFUSED"), coded("ECONNRESET")]));
    expect(classifyNetworkError(mixed, false)).toEqual({ reason: "ECONNREFUSED", timedOut: false, nothingSent: false });
    expect(classifyNetworkError(fetchFailed(coded("ECONNRESET")), false)).toEqual({
      reason: "ECONNRESET",
      timedOut: false,
      nothingSent: false,
    });
  });

  it("reports an error without codes as unknown and possibly sent", () => {
    expect(classifyNetworkError(new TypeError("fetch failed"), false)).toEqual({
      reason: "unknown",
      timedOut: false,
      nothingSent: false,
    });
    expect(classifyNetworkError("boom", false)).toEqual({ reason: "unknown", timedOut: false, nothingSent: false });
  });
});
