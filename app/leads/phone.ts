/**
 * Moroccan phone normalisation. The platform accepts only mobiles written 06xxxxxxxx or
 * 07xxxxxxxx; anything else is a 422, so a fixed line or a foreign number is caught here.
 *
 * Customers type the number in every form: +212 6.., 00212 6.., 212 6.. without plus,
 * the doubled "+212 0 6..", a missing leading zero, Arabic-Indic digits, separators.
 * We reduce it to Morocco's 9-digit national number ourselves (cheap string work), then
 * let libphonenumber-js classify it with Morocco's numbering plan from its full metadata.
 */
import { PhoneNumber, type MetadataJson } from "libphonenumber-js/core";
import fullMetadata from "libphonenumber-js/metadata.max.json";
import { foldDigits } from "./text";

const MOROCCO_CALLING_CODE = "212";
/**
 * Longer than this, a phone field is not a phone (15 digits at most, with room for
 * separators and a second number): it is refused before any parsing.
 */
export const MAX_PHONE_CHARS = 100;
/**
 * Separators between several numbers in one field. The lookbehind lets a match of
 * the spaced words start only where a run of whitespace starts: without it a long
 * run of spaces cost quadratic time (100,000 spaces took 14 s).
 */
const NUMBER_SEPARATORS = /[/,;|\n]|(?<!\s)\s+(?:ou|or|et|and|و)\s+/i;

// Morocco's numbering plan only (212 is shared by MA and EH): classifying a number with
// it costs a few microseconds, against ~15 for a parse with every country's metadata.
const moroccoMetadata: MetadataJson = {
  version: fullMetadata.version,
  country_calling_codes: { [MOROCCO_CALLING_CODE]: fullMetadata.country_calling_codes[MOROCCO_CALLING_CODE] },
  countries: Object.fromEntries(
    fullMetadata.country_calling_codes[MOROCCO_CALLING_CODE].map((c) => [c, fullMetadata.countries[c]]),
  ),
  nonGeographic: {},
};

const callingCodes = new Set(Object.keys(fullMetadata.country_calling_codes));

export type PhoneFailure = "missing" | "invalid" | "landline" | "foreign";

export type PhoneResult =
  | {
      ok: true;
      /** 06xxxxxxxx or 07xxxxxxxx. */
      phone: string;
      /**
       * False when the number has the accepted shape but falls in a range Morocco's
       * numbering plan does not list (a typo, or a range newer than the metadata).
       */
      verified: boolean;
    }
  | {
      ok: false;
      reason: PhoneFailure;
      /** For a foreign number: its calling code and first country ("33", "FR"). */
      callingCode?: string;
      country?: string;
      /** For a Moroccan non-mobile: libphonenumber's type in lower case ("fixed_line", "voip"). */
      lineType?: string;
    };

/** Normalises one raw phone field; several numbers in it ("06.. / 07..") yield the first mobile. */
export function normalizeMoroccanPhone(raw: string | null | undefined): PhoneResult {
  if (raw == null || raw.trim() === "") return { ok: false, reason: "missing" };
  if (raw.length > MAX_PHONE_CHARS) return { ok: false, reason: "invalid" };
  const parts = phoneParts(foldDigits(raw));
  // Stryker disable next-line ConditionalExpression: equivalent, with no part the loop below ends in the same "invalid"
  if (parts.length === 0) return { ok: false, reason: "invalid" };
  let firstFailure: PhoneResult | undefined;
  let unverified: PhoneResult | undefined;
  for (const part of parts) {
    const result = normalizeOne(part);
    if (result.ok && result.verified) return result;
    if (result.ok) unverified ??= result;
    else firstFailure ??= result;
  }
  // Stryker disable next-line ObjectLiteral,BooleanLiteral,StringLiteral: unreachable, a field with no part returned above
  return unverified ?? firstFailure ?? { ok: false, reason: "invalid" };
}

/** The pieces of a phone field that may each be a number ("06.. ou 07..", "06.. / 07.."). */
export function phoneParts(text: string): string[] {
  return text.split(NUMBER_SEPARATORS).filter((p) => /\d/.test(p));
}

function normalizeOne(text: string): PhoneResult {
  const hasPlus = /^[^\d]*\+/.test(text);
  const digits = text.replace(/\D/g, "");
  if (digits.length < 9 || digits.length > 15) return { ok: false, reason: "invalid" };

  let international: string | undefined;
  // "+06..." is a national number with a stray plus, not a country code starting with 0.
  if (hasPlus && !digits.startsWith("0")) international = digits;
  else if (digits.startsWith("00")) international = digits.slice(2);
  // Stryker disable next-line ConditionalExpression: equivalent, 212 and fewer than 9 more digits is invalid either way
  else if (digits.startsWith(MOROCCO_CALLING_CODE) && digits.length >= 12) international = digits;

  let national: string;
  if (international !== undefined) {
    if (!international.startsWith(MOROCCO_CALLING_CODE)) return foreign(international);
    national = international.slice(MOROCCO_CALLING_CODE.length);
    // "+212 (0)6..." and the doubled "2120 6...": the trunk zero does not belong after 212.
    if (national.length === 10 && national.startsWith("0")) national = national.slice(1);
  } else if (digits.length === 10 && digits.startsWith("0")) {
    national = digits.slice(1);
  } else if (digits.length === 9) {
    national = digits; // leading zero forgotten
  } else {
    return { ok: false, reason: "invalid" };
  }
  if (!/^\d{9}$/.test(national)) return { ok: false, reason: "invalid" };
  return classify(national);
}

function classify(national: string): PhoneResult {
  const type = new PhoneNumber(`+${MOROCCO_CALLING_CODE}${national}`, moroccoMetadata).getType();
  const first = national[0];
  if (first === "6" || first === "7") {
    // Stryker disable next-line ConditionalExpression,StringLiteral: Morocco's plan has no FIXED_LINE_OR_MOBILE range today; kept for future metadata
    return { ok: true, phone: `0${national}`, verified: type === "MOBILE" || type === "FIXED_LINE_OR_MOBILE" };
  }
  if (type !== undefined) return { ok: false, reason: "landline", lineType: type.toLowerCase() };
  // 05 is Morocco's fixed-line prefix even where the metadata lacks the exact range.
  if (first === "5") return { ok: false, reason: "landline", lineType: "fixed_line" };
  return { ok: false, reason: "invalid" };
}

function foreign(international: string): PhoneResult {
  for (const length of [1, 2, 3]) {
    const code = international.slice(0, length);
    if (callingCodes.has(code)) {
      // Stryker disable next-line OptionalChaining: the code was found among the same map's keys
      const country = fullMetadata.country_calling_codes[code]?.[0];
      return { ok: false, reason: "foreign", callingCode: code, ...(country ? { country } : {}) };
    }
  }
  return { ok: false, reason: "invalid" };
}
