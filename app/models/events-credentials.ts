/**
 * The two credentials of a shop's platform events address: the token in its
 * URL and the secret the platform signs with.
 */
import { randomBytes } from "node:crypto";

/** 256 random bits, URL-safe: the path segment of /webhooks/seller/<token>. */
export function newEventsToken(): string {
  return randomBytes(32).toString("base64url");
}

/** 32 characters: at least 128 bits for a random secret in any of the usual alphabets (hex, base64). */
export const MIN_EVENTS_SECRET_LENGTH = 32;
/** A secret of few distinct characters ("aaaa...", "abab...") is guessable whatever its length. */
const MIN_DISTINCT_CHARACTERS = 8;

/** True when the secret is long and varied enough to sign events with. */
export function isStrongEventsSecret(secret: string): boolean {
  return secret.length >= MIN_EVENTS_SECRET_LENGTH && new Set(secret).size >= MIN_DISTINCT_CHARACTERS;
}
