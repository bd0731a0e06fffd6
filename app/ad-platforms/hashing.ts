/**
 * Customer data as the ad platforms match it: each field normalised the way
 * their references say, then SHA-256 in lower-case hex. Nothing leaves the app
 * in clear but the browser's IP and user agent and the click ids, which the
 * platforms take as they are.
 *
 * - email: trimmed, lower case (Meta `em`, TikTok `email`);
 * - phone: E.164. Meta's `ph` is its digits (212612345678), TikTok's `phone`
 *   keeps the plus (+212612345678);
 * - first and last name: lower case, no punctuation (Meta `fn`, `ln`);
 * - city: lower case, no digits, spaces or punctuation (Meta `ct`);
 * - country: ISO 3166-1 alpha-2 in lower case (Meta `country`);
 * - external id: the Shopify customer id, hashed (both).
 * Pure: no clock, no I/O.
 */
import { createHash } from "node:crypto";
import { parsePhoneNumberFromString } from "libphonenumber-js/max";

export const sha256Hex = (value: string): string => createHash("sha256").update(value, "utf8").digest("hex");

/** What an SHA-256 field must look like at the platform. */
export const SHA256_HEX = /^[a-f0-9]{64}$/;

export function normaliseEmail(raw: string | null | undefined): string | null {
  const email = raw?.trim().toLowerCase() ?? "";
  // One @ with text on both sides and a dot after it: anything else matches no one.
  return /^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(email) ? email : null;
}

/**
 * The phone in E.164 (+212612345678), read as Moroccan when it has no country
 * code; null when it is no phone number at all.
 */
export function normalisePhone(raw: string | null | undefined): string | null {
  if (!raw || raw.length > 100) return null;
  const parsed = parsePhoneNumberFromString(raw.trim(), "MA");
  return parsed?.isPossible() ? parsed.number : null;
}

/** Letters only (any script), lower case; accents kept, as the platforms hash UTF-8. */
export function normaliseName(raw: string | null | undefined): string | null {
  const name = (raw ?? "")
    .normalize("NFC")
    .toLowerCase()
    .replace(/[^\p{L}\p{M}]/gu, "");
  return name || null;
}

/** Like a name (Meta: "lower case without spaces or punctuation"). */
export const normaliseCity = normaliseName;

export function normaliseCountry(raw: string | null | undefined): string | null {
  const code = raw?.trim().toLowerCase() ?? "";
  return /^[a-z]{2}$/.test(code) ? code : null;
}

/** What the app knows of the customer, in clear (read from the order; never stored by the feed). */
export interface CustomerFields {
  email?: string | null;
  phone?: string | null;
  firstName?: string | null;
  lastName?: string | null;
  city?: string | null;
  countryCode?: string | null;
  /** The Shopify customer id. */
  customerId?: string | null;
}

/** The customer, each field normalised and hashed; absent fields are left out. */
export interface HashedCustomer {
  email?: string;
  /** Meta's form: the E.164 digits. */
  phoneDigits?: string;
  /** TikTok's form: E.164 with its plus. */
  phoneE164?: string;
  firstName?: string;
  lastName?: string;
  city?: string;
  country?: string;
  externalId?: string;
}

export function hashCustomer(fields: CustomerFields): HashedCustomer {
  const hashed: HashedCustomer = {};
  const put = (key: keyof HashedCustomer, value: string | null) => {
    if (value) hashed[key] = sha256Hex(value);
  };
  put("email", normaliseEmail(fields.email));
  const phone = normalisePhone(fields.phone);
  put("phoneDigits", phone && phone.slice(1));
  put("phoneE164", phone);
  put("firstName", normaliseName(fields.firstName));
  put("lastName", normaliseName(fields.lastName));
  put("city", normaliseCity(fields.city));
  put("country", normaliseCountry(fields.countryCode));
  put("externalId", fields.customerId?.trim() || null);
  return hashed;
}
