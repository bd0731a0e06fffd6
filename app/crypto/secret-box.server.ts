/**
 * Encrypts secrets at rest (the seller API key, the platform events secret,
 * Shopify's access and refresh tokens, the ad platforms' access tokens) with AES-256-GCM under ENCRYPTION_KEY.
 * The stored form is "v2.<iv>.<tag>.<ciphertext>", base64url parts, with a
 * 16-byte tag and the shop and purpose as additional authenticated data: a value
 * copied to another shop or another column fails to open, as does a tampered or
 * truncated one.
 *
 * "v1" values (no AAD) written before still open; the caller re-seals them on
 * its next write, and `npm run rotate-key` re-seals every stored secret.
 * During a key rotation the previous key (ENCRYPTION_KEY_PREVIOUS) still opens.
 */
import { createCipheriv, createDecipheriv, randomBytes } from "node:crypto";

export class SecretBoxError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "SecretBoxError";
  }
}

/** Thrown at start-up for an ENCRYPTION_KEY that is not 32 bytes or is not random. */
export class WeakEncryptionKeyError extends SecretBoxError {
  constructor(message: string) {
    super(message);
    this.name = "WeakEncryptionKeyError";
  }
}

/** Which column a secret lives in: part of the AAD, so ciphertexts cannot be swapped between them. */
export type SecretPurpose =
  | "seller-api-key"
  | "events-secret"
  | "shopify-access-token"
  | "shopify-refresh-token"
  | "meta-access-token"
  | "tiktok-access-token";

export interface SecretContext {
  shop: string;
  purpose: SecretPurpose;
}

export interface OpenedSecret {
  plaintext: string;
  /** Sealed in an older format or under the previous key: seal it again. */
  stale: boolean;
}

export interface SecretBox {
  seal(plaintext: string, context: SecretContext): string;
  open(sealed: string, context: SecretContext): string;
  /** Like open, and says whether the stored value should be re-sealed. */
  openWithStatus(sealed: string, context: SecretContext): OpenedSecret;
}

export interface SecretBoxOptions {
  /** Keys that still open (never seal) values: the key being rotated away from. */
  previousKeys?: (string | undefined)[];
}

const TAG_BYTES = 16;
const IV_BYTES = 12;
const CURRENT = "v2";
/** Fewer distinct byte values than this in 32 bytes is not a random key (random keys have ~30). */
const MIN_DISTINCT_BYTES = 16;

/**
 * Pure: the reason a base64 key is unusable, or null. Refuses anything but exactly
 * 32 bytes, and keys with few distinct bytes (Buffer.alloc(32, 1), "aaaa...", short
 * repeated patterns) that no random generator produces.
 */
export function encryptionKeyProblem(base64Key: string): string | null {
  const trimmed = base64Key.trim();
  if (!/^[A-Za-z0-9+/]+={0,2}$/.test(trimmed) && !/^[A-Za-z0-9_-]+={0,2}$/.test(trimmed)) {
    return "must be 32 bytes, base64-encoded (openssl rand -base64 32)";
  }
  const key = Buffer.from(trimmed, "base64");
  if (key.length !== 32) return "must be 32 bytes, base64-encoded (openssl rand -base64 32)";
  if (new Set(key).size < MIN_DISTINCT_BYTES) {
    return "is not random enough (too few distinct bytes): generate one with openssl rand -base64 32";
  }
  for (const period of [1, 2, 4, 8, 16]) {
    if (key.subarray(period).equals(key.subarray(0, key.length - period))) {
      return "is not random enough (a repeated pattern): generate one with openssl rand -base64 32";
    }
  }
  return null;
}

/**
 * Whether a stored value has the sealed form (any version; not whether it opens).
 * Columns that held clear values before they were sealed tell the two apart with it:
 * no Shopify token ("shpat_...") or other clear secret has this shape.
 */
export function isSealedSecret(value: string): boolean {
  // 12-byte IV and 16-byte tag in base64url: 16 and 22 characters.
  return /^v[12]\.[A-Za-z0-9_-]{16}\.[A-Za-z0-9_-]{22}\.[A-Za-z0-9_-]*$/.test(value);
}

function keyBytes(base64Key: string): Buffer {
  const problem = encryptionKeyProblem(base64Key);
  if (problem) throw new WeakEncryptionKeyError(`the encryption key ${problem}`);
  return Buffer.from(base64Key.trim(), "base64");
}

function aadOf(context: SecretContext): Buffer {
  if (!context.shop || !context.purpose) throw new SecretBoxError("a sealed secret needs its shop and purpose");
  return Buffer.from(`cod-lead-sync:${CURRENT}:${context.purpose}:${context.shop}`, "utf8");
}

function decode(part: string): Buffer {
  if (!/^[A-Za-z0-9_-]*$/.test(part)) throw new SecretBoxError("not a sealed secret");
  return Buffer.from(part, "base64url");
}

function decrypt(key: Buffer, iv: Buffer, tag: Buffer, ciphertext: Buffer, aad: Buffer | null): string {
  const decipher = createDecipheriv("aes-256-gcm", key, iv, { authTagLength: TAG_BYTES });
  if (aad) decipher.setAAD(aad);
  decipher.setAuthTag(tag);
  return Buffer.concat([decipher.update(ciphertext), decipher.final()]).toString("utf8");
}

export function createSecretBox(base64Key: string, options: SecretBoxOptions = {}): SecretBox {
  const key = keyBytes(base64Key);
  const previous = (options.previousKeys ?? [])
    .filter((k): k is string => !!k && k.trim() !== base64Key.trim())
    .map(keyBytes);

  const openWithStatus = (sealed: string, context: SecretContext): OpenedSecret => {
    const parts = sealed.split(".");
    const [version, ivPart, tagPart, ctPart] = parts;
    if (parts.length !== 4 || (version !== "v1" && version !== CURRENT))
      throw new SecretBoxError("not a sealed secret");
    const iv = decode(ivPart);
    const tag = decode(tagPart);
    const ciphertext = decode(ctPart);
    // A cut tag is a forgery attempt: only full 16-byte tags are checked at all.
    if (iv.length !== IV_BYTES || tag.length !== TAG_BYTES) throw new SecretBoxError("not a sealed secret");
    const aad = version === CURRENT ? aadOf(context) : null;
    for (const [index, candidate] of [key, ...previous].entries()) {
      try {
        const plaintext = decrypt(candidate, iv, tag, ciphertext, aad);
        return { plaintext, stale: version !== CURRENT || index > 0 };
      } catch {
        // Try the next key; never echo the input, it is ciphertext of a secret.
      }
    }
    throw new SecretBoxError(
      "the secret could not be decrypted (wrong ENCRYPTION_KEY, altered value, or another shop's or column's secret)",
    );
  };

  return {
    seal(plaintext, context) {
      const iv = randomBytes(IV_BYTES);
      const cipher = createCipheriv("aes-256-gcm", key, iv, { authTagLength: TAG_BYTES });
      cipher.setAAD(aadOf(context));
      const ciphertext = Buffer.concat([cipher.update(plaintext, "utf8"), cipher.final()]);
      return [
        CURRENT,
        iv.toString("base64url"),
        cipher.getAuthTag().toString("base64url"),
        ciphertext.toString("base64url"),
      ].join(".");
    },
    open: (sealed, context) => openWithStatus(sealed, context).plaintext,
    openWithStatus,
  };
}

/** The app's box: ENCRYPTION_KEY seals and opens; ENCRYPTION_KEY_PREVIOUS still opens during a rotation. */
export function secretBoxFromVariables(source: Record<string, string | undefined>): SecretBox {
  const key = source.ENCRYPTION_KEY;
  if (!key) throw new SecretBoxError("ENCRYPTION_KEY is not set");
  return createSecretBox(key, { previousKeys: [source.ENCRYPTION_KEY_PREVIOUS] });
}
