/** The pixel's message, checked before anything is kept; the endpoint's rate limits. */
import { describe, expect, it } from "vitest";
import { checkSignal, MAX_SIGNAL_BYTES, orderIdOf } from "../../app/ad-feed/pixel-signal";
import { RateBuckets } from "../../app/ad-feed/rate-limit";

const signal = {
  v: 1,
  orderId: "gid://shopify/OrderIdentity/5550001",
  checkoutToken: "chk-abc",
  marketing: true,
  fbp: "fb.1.1700000000000.42",
  fbc: "fb.1.1700000000000.IwAR2abc",
  ttclid: "E.C.P.abc",
  ttp: "ttp-1",
  pageUrl: "https://atlas-beauty.ma/checkouts/cn/abc/thank-you",
};

describe("the pixel's message", () => {
  it("GIVEN a well-formed message WHEN checked THEN kept, the order id read from its gid", () => {
    const checked = checkSignal(JSON.stringify(signal));
    if (!checked.ok) throw new Error(checked.why);
    expect(orderIdOf(checked.signal)).toBe("5550001");
  });

  it("GIVEN a refusal carrying click ids WHEN checked THEN only the refusal is kept", () => {
    const checked = checkSignal(JSON.stringify({ ...signal, marketing: false }));
    if (!checked.ok) throw new Error(checked.why);
    expect(checked.signal).toEqual({ v: 1, orderId: signal.orderId, checkoutToken: "chk-abc", marketing: false });
  });

  it("GIVEN a malformed field, an extra field, no JSON or too many bytes WHEN checked THEN refused with the reason", () => {
    expect(checkSignal(JSON.stringify({ ...signal, fbp: "<script>" }))).toEqual({
      ok: false,
      why: "fbp: not an _fbp value",
    });
    expect(checkSignal(JSON.stringify({ ...signal, orderId: "1; DROP" }))).toEqual({
      ok: false,
      why: "orderId: not an order id",
    });
    expect(checkSignal(JSON.stringify({ ...signal, email: "x@y.ma" }))).toMatchObject({
      ok: false,
      why: expect.stringMatching(/Unrecognized key/),
    });
    expect(checkSignal("not json")).toEqual({ ok: false, why: "not JSON" });
    expect(checkSignal("x".repeat(MAX_SIGNAL_BYTES + 1))).toEqual({ ok: false, why: "too large" });
  });
});

describe("rate buckets", () => {
  it("GIVEN a burst over the capacity WHEN taken THEN refused until tokens come back", () => {
    const buckets = new RateBuckets({ capacity: 3, perSecond: 1 });
    expect([1, 2, 3, 4].map(() => buckets.take("shop", 0))).toEqual([true, true, true, false]);
    expect(buckets.take("other", 0)).toBe(true);
    expect(buckets.take("shop", 999)).toBe(false);
    expect(buckets.take("shop", 1000)).toBe(true);
  });

  it("GIVEN more keys than kept WHEN taken THEN the oldest is forgotten (memory bounded)", () => {
    const buckets = new RateBuckets({ capacity: 1, perSecond: 0, maxKeys: 2 });
    buckets.take("a", 0);
    buckets.take("b", 0);
    buckets.take("c", 0);
    expect(buckets.take("a", 0)).toBe(true);
  });
});
