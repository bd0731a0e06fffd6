import { describe, expect, it } from "vitest";
import { normalizeMoroccanPhone } from "../../app/leads";
import { readJson } from "./helpers";

interface PhoneCase {
  input: string;
  phone?: string;
  verified?: boolean;
  reason?: "missing" | "invalid" | "landline" | "foreign";
}

const corpus = readJson<{ cases: PhoneCase[] }>("test", "fixtures", "leads", "phones.json").cases;

describe("normalizeMoroccanPhone: corpus", () => {
  it("holds at least 100 phone inputs", () => {
    expect(corpus.length).toBeGreaterThanOrEqual(100);
  });

  it.each(corpus)("$input", (c) => {
    const result = normalizeMoroccanPhone(c.input);
    if (c.phone) {
      expect(result).toEqual({ ok: true, phone: c.phone, verified: c.verified ?? true });
    } else {
      expect(result.ok).toBe(false);
      expect(result.ok ? undefined : result.reason).toBe(c.reason);
    }
  });
});

describe("normalizeMoroccanPhone: details", () => {
  it.each([
    ["+33 6 12 34 56 78", { callingCode: "33", country: "FR" }],
    ["00213551234567", { callingCode: "213", country: "DZ" }],
  ])("names the country of a foreign number %s", (input, expected) => {
    expect(normalizeMoroccanPhone(input)).toMatchObject({ ok: false, reason: "foreign", ...expected });
  });

  it.each([
    ["0522123456", "fixed_line"],
    ["0808123456", "voip"],
  ])("says which kind of non-mobile %s is", (input, lineType) => {
    expect(normalizeMoroccanPhone(input)).toMatchObject({ ok: false, reason: "landline", lineType });
  });

  it.each([null, undefined, "", " \t "])("reports %j as missing", (input) => {
    expect(normalizeMoroccanPhone(input)).toEqual({ ok: false, reason: "missing" });
  });

  it("prefers a listed mobile over an unlisted one in the same field", () => {
    expect(normalizeMoroccanPhone("0791234567 / 0661234567")).toEqual({
      ok: true,
      phone: "0661234567",
      verified: true,
    });
  });

  it("always produces the platform's 06/07 shape when it succeeds", () => {
    for (const raw of ["+212612345678", "٠٧٧٠١٢٣٤٥٦", "2120698765432", "612345678"]) {
      const result = normalizeMoroccanPhone(raw);
      expect(result.ok && result.phone).toMatch(/^0[67]\d{8}$/);
    }
  });
});
