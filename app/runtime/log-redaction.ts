/**
 * What a log line may show of the values given to it (pure). A log line is read
 * by more people than the admin, and kept longer, so two rules apply to every
 * field, nested ones and the message included:
 *
 * - a field whose name says it holds a secret or a customer's contact (key,
 *   token, session, password, signature, phone, address, email...) is replaced
 *   whatever its value;
 * - any text is scrubbed of what looks like a credential or a phone number,
 *   whatever the field is called: bearer values, Shopify tokens (shpat_...),
 *   session tokens (JWTs), the platform's keys (cod_...), 32-byte base64 keys,
 *   credentials in URLs (id_token=, the events address's token), and phone
 *   numbers in the forms customers type them (06..., +212 6..., 00212...,
 *   Arabic-Indic digits, other countries' +NN numbers).
 */

export const REDACTED = "[redacted]";

/** Field names (lower-cased, letters and digits only) that always hold something secret or personal. */
const SECRET_NAME_PARTS = [
  "token",
  "secret",
  "password",
  "passwd",
  "authorization",
  "cookie",
  "signature",
  "hmac",
  "credential",
  "session",
  "phone",
  "mobile",
  "address",
  "email",
  "apikey",
  "privatekey",
  "encryptionkey",
  "accesskey",
  "secretkey",
  "cipher",
];
const SECRET_NAMES = new Set(["key", "auth", "pwd", "tel", "telephone", "jwt", "otp", "pin", "xapikey"]);

const nameCache = new Map<string, boolean>();

/** True when a field called `name` must never be logged. */
export function isSecretFieldName(name: string): boolean {
  let secret = nameCache.get(name);
  if (secret !== undefined) return secret;
  const plain = name.toLowerCase().replace(/[^a-z0-9]/g, "");
  secret = SECRET_NAMES.has(plain) || SECRET_NAME_PARTS.some((part) => plain.includes(part));
  // Field names in code are few: the cache stays small unless names come from data.
  if (nameCache.size < 2000) nameCache.set(name, secret);
  return secret;
}

// Digits as customers type them: ASCII, Arabic-Indic and Eastern Arabic-Indic.
const D = "[0-9\\u0660-\\u0669\\u06F0-\\u06F9]";
// Between digit groups: nothing, or a few spaces, dots, dashes or brackets ("06 12 - 34 ...").
const SEP = "[\\s.\\-()]{0,3}";

/** Patterns replaced in every text; each keeps a harmless prefix where it helps the reader. */
const TEXT_RULES: { pattern: RegExp; replace: string }[] = [
  // Authorization header values.
  { pattern: /\b(Bearer|Basic|Token)\s+[A-Za-z0-9._~+/=-]+/gi, replace: `$1 ${REDACTED}` },
  // Shopify access, refresh and shared-secret tokens.
  { pattern: /\bshp(?:at|ca|pa|ss|ua|tka|rt|pt)_[A-Za-z0-9_-]+/g, replace: REDACTED },
  // Session tokens and any other JWT.
  { pattern: /\beyJ[A-Za-z0-9_-]*\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]*/g, replace: REDACTED },
  // The platform's API keys.
  { pattern: /\bcod_[A-Za-z0-9_-]{12,}/g, replace: REDACTED },
  // 32 random bytes in base64 (ENCRYPTION_KEY and its kind).
  { pattern: /(?<![A-Za-z0-9+/])[A-Za-z0-9+/]{43}=(?![A-Za-z0-9+/=])/g, replace: REDACTED },
  // Credentials in a URL's query string.
  {
    pattern:
      /([?&](?:id_token|session|hmac|token|code|state|signature|access_token|refresh_token|key|api_key|secret|password)=)[^&#\s"']*/gi,
    replace: `$1${REDACTED}`,
  },
  // The platform events address ends with its secret token.
  { pattern: /(\/webhooks\/+seller\/+)[^/?#\s"']+/gi, replace: `$1${REDACTED}` },
  // Moroccan numbers in international form: +212 6..., 00212-6..., +212 (0)6...
  {
    pattern: new RegExp(`(?:\\+|\\b00)\\s?212${SEP}(?:\\(?0\\)?${SEP})?${D}(?:${SEP}${D}){8}`, "g"),
    replace: REDACTED,
  },
  // The same without + or 00, as WhatsApp links (wa.me/212...) and some forms write them: 212 6..., 2126...
  {
    pattern: new RegExp(
      `(?<!${D})212${SEP}(?:\\(?0\\)?${SEP})?[5-7\\u0665-\\u0667\\u06F5-\\u06F7](?:${SEP}${D}){8}(?!${D})`,
      "g",
    ),
    replace: REDACTED,
  },
  // Other countries' numbers written with their +code.
  { pattern: new RegExp(`\\+${D}(?:${SEP}${D}){7,14}`, "g"), replace: REDACTED },
  // Moroccan numbers in national form: 06..., 07..., 05... (ten digits, any separators).
  {
    pattern: new RegExp(
      `(?<![0-9\\u0660-\\u0669\\u06F0-\\u06F9])[0\\u0660\\u06F0]${SEP}[5-7\\u0665-\\u0667\\u06F5-\\u06F7](?:${SEP}${D}){8}(?![0-9\\u0660-\\u0669\\u06F0-\\u06F9])`,
      "g",
    ),
    replace: REDACTED,
  },
];

/** Quick test: text with none of these characters cannot hold anything TEXT_RULES replaces. */
const MAYBE_SECRET = /[0-9\u0660-\u0669\u06F0-\u06F9=]|bearer|basic|token|shp|eyJ|cod_|seller/i;

/** A piece of a URL (a query value, a path segment): bounded by the URL's own delimiters, so one value, never two. */
const URL_PIECE = /[^\s&=?/#;,"'<>]+/g;
/** Percent- or form-encoded: at least one %XX or +. */
const HAS_ENCODING = /%[0-9A-Fa-f]{2}|\+/;

/** Form and percent decoding, repeated (a value encoded twice is decoded twice); malformed UTF-8 keeps its ASCII. */
function decodeLoosely(piece: string): string {
  let text = piece.replace(/\+/g, " ");
  for (let round = 0; round < 3 && /%[0-9A-Fa-f]{2}/.test(text); round++) {
    try {
      text = decodeURIComponent(text);
    } catch {
      text = text.replace(/%([0-7][0-9A-Fa-f])/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)));
    }
  }
  return text;
}

function applyRules(text: string): string {
  let out = text;
  for (const { pattern, replace } of TEXT_RULES) out = out.replace(pattern, replace);
  return out;
}

/**
 * The text with every credential and phone number it holds replaced, also where a URL encodes
 * it (`q=06+12+34+56+78`, `q=%2B212612345678`): an encoded piece whose decoded text holds one
 * is replaced whole.
 */
export function scrubText(text: string): string {
  if (!MAYBE_SECRET.test(text)) return text;
  const decodedFirst = HAS_ENCODING.test(text)
    ? text.replace(URL_PIECE, (piece) => {
        if (!HAS_ENCODING.test(piece)) return piece;
        const decoded = decodeLoosely(piece);
        return applyRules(decoded) !== decoded ? REDACTED : piece;
      })
    : text;
  return applyRules(decodedFirst);
}

const MAX_DEPTH = 12;
const MAX_ITEMS = 100;
const MAX_TEXT = 8192;

const clip = (text: string) =>
  text.length > MAX_TEXT ? `${text.slice(0, MAX_TEXT)}… (${text.length} characters)` : text;

/**
 * A copy of `value` safe to log: secret fields replaced, every text scrubbed,
 * errors as { type, message, code, stack, cause }, cycles and depth bounded.
 */
export function redactForLog(value: unknown): unknown {
  return walk(value, 0, new WeakSet());
}

function walk(value: unknown, depth: number, seen: WeakSet<object>): unknown {
  if (typeof value === "string") return scrubText(clip(value));
  if (value === null || typeof value === "number" || typeof value === "boolean" || value === undefined) return value;
  if (typeof value === "bigint") return value.toString();
  if (typeof value === "symbol" || typeof value === "function") return String(value);
  if (value instanceof Date) return Number.isNaN(value.getTime()) ? "Invalid Date" : value.toISOString();
  if (value instanceof URL) return scrubText(value.href);
  if (ArrayBuffer.isView(value) || value instanceof ArrayBuffer) return `[binary ${value.byteLength} bytes]`;
  if (typeof value !== "object") return String(value);
  if (seen.has(value)) return "[circular]";
  if (depth >= MAX_DEPTH) return "[too deep]";
  seen.add(value);
  try {
    if (value instanceof Error) return errorFields(value, depth, seen);
    if (Array.isArray(value)) {
      const items = value.slice(0, MAX_ITEMS).map((item) => walk(item, depth + 1, seen));
      if (value.length > MAX_ITEMS) items.push(`… ${value.length - MAX_ITEMS} more`);
      return items;
    }
    const entries: [string, unknown][] =
      value instanceof Map
        ? [...value.entries()].map(([k, v]) => [String(k), v])
        : value instanceof Set
          ? [...value].map((v, i) => [String(i), v])
          : Object.entries(value);
    const out: Record<string, unknown> = {};
    let count = 0;
    for (const [name, field] of entries) {
      if (++count > MAX_ITEMS) {
        out["…"] = `${entries.length - MAX_ITEMS} more fields`;
        break;
      }
      out[scrubText(name)] =
        isSecretFieldName(name) && field !== null && field !== undefined && field !== ""
          ? REDACTED
          : walk(field, depth + 1, seen);
    }
    return out;
  } finally {
    seen.delete(value);
  }
}

function errorFields(error: Error, depth: number, seen: WeakSet<object>): Record<string, unknown> {
  const out: Record<string, unknown> = { type: error.name, message: scrubText(clip(error.message)) };
  const extra = error as Error & { code?: unknown; status?: unknown };
  if (typeof extra.code === "string" || typeof extra.code === "number") out.code = scrubText(String(extra.code));
  if (typeof extra.status === "number") out.status = extra.status;
  if (error.stack) out.stack = scrubText(clip(error.stack));
  if (error.cause !== undefined) out.cause = walk(error.cause, depth + 1, seen);
  return out;
}
