/** Customer data normalised and hashed as the platforms' references say, checked on their published examples. */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { hashCustomer, normaliseEmail, normalisePhone, sha256Hex, SHA256_HEX } from "../../app/ad-platforms/index";

describe("hashing customer data", () => {
  it("GIVEN TikTok's published examples WHEN hashed THEN the digests are TikTok's", () => {
    const hashed = hashCustomer({ email: " ALICE_abc@gmail.com ", phone: "(+1)2133734253" });
    // TikTok Events API 2.0: " ALICE_abc@gmail.com " and "(+1)2133734253" -> "+12133734253".
    expect(hashed.email).toBe("848a771458438fc2ec420560d769fb9b9b86851ee338ec56517baabd79d3bb4f");
    expect(hashed.phoneE164).toBe("9f7ec22d72092cd3c0b58726ed9c2d91b92e51a3f29837508fb2948bb22dd2fd");
    // Meta's ph is the same number's digits, without the plus.
    expect(hashed.phoneDigits).toBe(sha256Hex("12133734253"));
  });

  it("GIVEN a Moroccan number in every form customers type WHEN normalised THEN one E.164 number", () => {
    for (const raw of ["0612345678", "06 12 34 56 78", "+212612345678", "00212 6 12 34 56 78", "+212 (0)6-12-34-56-78"])
      expect(normalisePhone(raw), raw).toBe("+212612345678");
    expect(normalisePhone("not a phone")).toBeNull();
    expect(normalisePhone("")).toBeNull();
    expect(normalisePhone("1".repeat(200))).toBeNull();
  });

  it("GIVEN names, a city and a country WHEN hashed THEN each is lower case without spaces or punctuation first", () => {
    const hashed = hashCustomer({
      firstName: " Fatima-Zahra ",
      lastName: "El Idrissi",
      city: "Casa Blanca 20000",
      countryCode: "MA",
    });
    expect(hashed.firstName).toBe(sha256Hex("fatimazahra"));
    expect(hashed.lastName).toBe(sha256Hex("elidrissi"));
    expect(hashed.city).toBe(sha256Hex("casablanca"));
    expect(hashed.country).toBe(sha256Hex("ma"));
    // Arabic letters are letters: kept, not stripped.
    expect(hashCustomer({ city: "الدار البيضاء" }).city).toBe(sha256Hex("الدارالبيضاء"));
  });

  it("GIVEN fields that are empty or malformed WHEN hashed THEN they are left out, never hashed as they are", () => {
    expect(hashCustomer({ email: "no-at-sign", phone: "abc", firstName: "  ", countryCode: "Morocco" })).toEqual({});
    expect(normaliseEmail("  Someone@Example.MA ")).toBe("someone@example.ma");
  });

  it("GIVEN any customer WHEN hashed THEN every field is 64 lower-case hex characters (fixed seed)", () => {
    fc.assert(
      fc.property(
        fc.record({
          email: fc.option(fc.emailAddress()),
          phone: fc.option(fc.stringMatching(/^(\+212|0)[67]\d{8}$/)),
          firstName: fc.option(fc.string()),
          lastName: fc.option(fc.string()),
          city: fc.option(fc.string()),
          countryCode: fc.option(fc.constantFrom("MA", "FR", "ma", "x")),
          customerId: fc.option(fc.stringMatching(/^\d{1,15}$/)),
        }),
        (fields) => {
          for (const value of Object.values(hashCustomer(fields))) expect(value).toMatch(SHA256_HEX);
        },
      ),
      { seed: 20261127, numRuns: 300 },
    );
  });
});
