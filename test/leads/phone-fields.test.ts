/**
 * normalizeMoroccanPhone on whole phone fields: several numbers in one field, the length
 * bounds of a number, prefixes and the classification of what is not a Moroccan mobile.
 */
import { describe, expect, it } from "vitest";
import { MAX_PHONE_CHARS, normalizeMoroccanPhone as normalize, phoneParts } from "../../app/leads/phone";

const MOBILE = { ok: true, phone: "0612345678", verified: true };
const UNLISTED = { ok: true, phone: "0791234567", verified: false };

describe("a field holding several numbers", () => {
  it("skips a failing number written before a valid mobile", () => {
    expect(normalize("0522123456 / 0612345678")).toEqual(MOBILE);
    expect(normalize("12 / 0612345678")).toEqual(MOBILE);
    expect(normalize("+33612345678, 0612345678")).toEqual(MOBILE);
  });

  it("prefers an unlisted mobile to a failure, and the first unlisted of two", () => {
    expect(normalize("0791234567 / 0522123456")).toEqual(UNLISTED);
    expect(normalize("0522123456 / 0791234567")).toEqual(UNLISTED);
    expect(normalize("0791234567 / 0791234568")).toEqual(UNLISTED);
    expect(normalize("0791234567 / 0612345678")).toEqual(MOBILE);
  });

  it("reports the first failure when no number is a mobile", () => {
    expect(normalize("0522123456 / +33612345678")).toMatchObject({ ok: false, reason: "landline" });
    expect(normalize("+33612345678 / 0522123456")).toMatchObject({ ok: false, reason: "foreign", callingCode: "33" });
  });

  it.each(["/", ",", ";", "|", "\n", " ou ", " OU ", " or ", " et ", " and ", " و "])("splits on %j", (separator) => {
    expect(phoneParts(`0612345678${separator}0698765432`)).toEqual(["0612345678", "0698765432"]);
    expect(normalize(`0522123456${separator}0612345678`)).toEqual(MOBILE);
  });

  it("does not split inside a word or without spaces around a word separator", () => {
    expect(phoneParts("0612345678ou0698765432")).toEqual(["0612345678ou0698765432"]);
    expect(normalize("0612345678ou0698765432")).toEqual({ ok: false, reason: "invalid" });
    expect(phoneParts("06 12 34 56 78")).toEqual(["06 12 34 56 78"]);
  });

  it("drops the pieces without a digit", () => {
    expect(phoneParts("tel: / 0612345678 / ")).toEqual([" 0612345678 "]);
    expect(normalize("pas de numéro")).toEqual({ ok: false, reason: "invalid" });
    expect(normalize("- / -")).toEqual({ ok: false, reason: "invalid" });
  });
});

describe("length bounds", () => {
  it(`takes a field of up to ${MAX_PHONE_CHARS} characters and refuses a longer one before parsing`, () => {
    const padded = "0612345678".padEnd(MAX_PHONE_CHARS, " ");
    expect(normalize(padded)).toEqual(MOBILE);
    expect(normalize(`${padded} `)).toEqual({ ok: false, reason: "invalid" });
  });

  it("needs 9 to 15 digits in a number", () => {
    expect(normalize("612345678")).toEqual(MOBILE); // leading zero forgotten
    expect(normalize("61234567")).toEqual({ ok: false, reason: "invalid" });
    expect(normalize("+336123456789012")).toMatchObject({ ok: false, reason: "foreign", callingCode: "33" }); // 15
    expect(normalize("+3361234567890123")).toEqual({ ok: false, reason: "invalid" }); // 16
  });

  it("refuses national numbers of the wrong length", () => {
    expect(normalize("6123456789")).toEqual({ ok: false, reason: "invalid" }); // 10 digits, no zero
    expect(normalize("06123456789")).toEqual({ ok: false, reason: "invalid" });
    expect(normalize("2126123456")).toEqual({ ok: false, reason: "invalid" });
    expect(normalize("21261234567")).toEqual({ ok: false, reason: "invalid" });
    expect(normalize("+2126123456789")).toEqual({ ok: false, reason: "invalid" });
    expect(normalize("+21261234567")).toEqual({ ok: false, reason: "invalid" });
    // One digit too many is not a mobile with a stray first digit.
    expect(normalize("5612345678")).toEqual({ ok: false, reason: "invalid" });
    expect(normalize("+2125612345678")).toEqual({ ok: false, reason: "invalid" });
    // A foreign number without + or 00 is not read as foreign.
    expect(normalize("336123456789")).toEqual({ ok: false, reason: "invalid" });
  });
});

describe("prefixes", () => {
  it("reads 212 as Morocco's code only with 12 digits or more", () => {
    expect(normalize("212612345678")).toEqual(MOBILE);
    expect(normalize("2120612345678")).toEqual(MOBILE);
    expect(normalize("+212 0612345678")).toEqual(MOBILE);
    expect(normalize("00212612345678")).toEqual(MOBILE);
    expect(normalize("212123456")).toEqual({ ok: false, reason: "invalid" }); // 9 digits: a national 2...
  });

  it("reads a plus before the first digit as a country code, unless a zero follows", () => {
    expect(normalize("+612345678")).toMatchObject({ ok: false, reason: "foreign", callingCode: "61", country: "AU" });
    expect(normalize("tel +612345678")).toMatchObject({ ok: false, reason: "foreign", callingCode: "61" });
    expect(normalize("+0612345678")).toEqual(MOBILE);
    expect(normalize("6+12345678")).toEqual(MOBILE);
  });

  it("reads 00 as an international prefix", () => {
    expect(normalize("0033612345678")).toMatchObject({
      ok: false,
      reason: "foreign",
      callingCode: "33",
      country: "FR",
    });
  });

  it("names foreign calling codes of one, two and three digits", () => {
    expect(normalize("+1 212 555 0100")).toEqual({ ok: false, reason: "foreign", callingCode: "1", country: "US" });
    expect(normalize("+33 6 12 34 56 78")).toEqual({ ok: false, reason: "foreign", callingCode: "33", country: "FR" });
    expect(normalize("+213 551 23 45 67")).toEqual({ ok: false, reason: "foreign", callingCode: "213", country: "DZ" });
  });

  it("calls a number with no known calling code invalid", () => {
    expect(normalize("+2812345678")).toEqual({ ok: false, reason: "invalid" });
  });
});

describe("classification of Moroccan numbers", () => {
  it("accepts 06 and 07 mobiles, verified when the numbering plan lists them", () => {
    expect(normalize("0612345678")).toEqual(MOBILE);
    expect(normalize("0698765432")).toEqual({ ok: true, phone: "0698765432", verified: true });
    expect(normalize("0791234567")).toEqual(UNLISTED);
  });

  it("calls 05 numbers landlines even where the plan lacks the range", () => {
    expect(normalize("0522123456")).toEqual({ ok: false, reason: "landline", lineType: "fixed_line" });
    expect(normalize("0500000000")).toEqual({ ok: false, reason: "landline", lineType: "fixed_line" });
  });

  it("calls other unlisted ranges invalid", () => {
    for (const raw of ["0112345678", "0912345678", "0812345678"]) {
      expect(normalize(raw), raw).toEqual({ ok: false, reason: "invalid" });
    }
  });
});
