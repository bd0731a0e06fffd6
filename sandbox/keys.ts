/**
 * API keys: `cod_` + 43 base64url characters (32 random bytes). Only the SHA-256
 * digest is kept; the plaintext leaves the sandbox once, in the minting answer.
 */
import { createHash, randomBytes } from "node:crypto";

export const KEY_PREFIX = "cod_";

export function mintKey(): { key: string; digest: string } {
  const key = KEY_PREFIX + randomBytes(32).toString("base64url");
  return { key, digest: digestKey(key) };
}

export function digestKey(key: string): string {
  return createHash("sha256").update(key).digest("hex");
}

export function newKeyId(): string {
  return "key_" + randomBytes(6).toString("hex");
}

/** The key from `Authorization: Bearer …` (preferred) or else `X-Api-Key`, or null. */
export function extractKey(authorization: string | undefined, xApiKey: string | undefined): string | null {
  const match = authorization === undefined ? null : /^Bearer\s+(\S+)\s*$/i.exec(authorization);
  if (match) return match[1];
  const trimmed = xApiKey?.trim();
  return trimmed ? trimmed : null;
}
