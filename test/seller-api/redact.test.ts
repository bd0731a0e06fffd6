/** createRedactor: the key, raw or URL-encoded, never survives in text or JSON handed back. */
import { describe, expect, it } from "vitest";
import { createRedactor, REDACTED } from "../../app/seller-api/redact";

describe("createRedactor().text", () => {
  it("replaces every occurrence of the key, raw and URL-encoded", () => {
    const r = createRedactor("a b/c");
    expect(r.text("k=a%20b%2Fc&x=a b/c, again a b/c")).toBe(`k=${REDACTED}&x=${REDACTED}, again ${REDACTED}`);
    expect(createRedactor("cod_secret").text("Bearer cod_secret")).toBe(`Bearer ${REDACTED}`);
  });

  it("leaves text without the key as it is", () => {
    expect(createRedactor("cod_secret").text("nothing to hide: cod_secre t")).toBe("nothing to hide: cod_secre t");
    expect(createRedactor("cod_secret").text("")).toBe("");
  });

  it("redacts nothing for an empty key", () => {
    expect(createRedactor("").text("abc")).toBe("abc");
    expect(createRedactor("").deep({ a: "b" })).toEqual({ a: "b" });
  });

  it("uses a marker that does not itself contain the key", () => {
    expect(createRedactor("red").text("a red car")).toBe("a *** car");
    expect(createRedactor("*").text("a*b")).toBe(`a${REDACTED}b`);
    // Only the raw form "[red" is inside "[redacted]" (the encoded one is "%5Bred"): still not that marker.
    expect(createRedactor("[red").text("key=[red")).toBe("key=***");
  });

  it("redacts again an occurrence that a replacement splices out of its neighbours", () => {
    // "[redacted]" ends in "d]": the key "d]x" comes back each time an "x" follows.
    const r = createRedactor("d]x");
    expect(r.text("d]xx")).toBe("[redacte[redacted]");
    expect(r.text("d]xxx")).toBe("[redacte[redacte[redacted]");
    expect(r.text(`d]${"x".repeat(8)}`)).toBe(`${"[redacte".repeat(7)}[redacted]`);
  });

  it("gives up on the whole text rather than return the key", () => {
    const r = createRedactor("d]x");
    const out = r.text(`d]${"x".repeat(9)}`);
    expect(out).toBe(REDACTED);
    expect(r.text(`d]${"x".repeat(40)}`)).toBe(REDACTED);
  });
});

describe("createRedactor().deep", () => {
  it("redacts strings and property names at any depth and keeps other values", () => {
    const r = createRedactor("s3cret");
    const out = r.deep({
      s3cret: ["s3cret", 1, null, true, { k: "xs3cretx" }],
      n: 5,
      nested: [[{ "a-s3cret": "ok" }]],
    });
    expect(out).toEqual({
      [REDACTED]: [REDACTED, 1, null, true, { k: `x${REDACTED}x` }],
      n: 5,
      nested: [[{ [`a-${REDACTED}`]: "ok" }]],
    });
  });

  it("returns scalars other than strings unchanged", () => {
    const r = createRedactor("s3cret");
    for (const value of [null, undefined, 0, 42, false, true]) expect(r.deep(value)).toBe(value);
    expect(r.deep("s3cret")).toBe(REDACTED);
  });
});
