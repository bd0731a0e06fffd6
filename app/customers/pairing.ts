/**
 * Pure rules of store pairing: the one-time codes a merchant's staff carry from
 * one store to another, and whether two paired stores may share their delivery
 * records now. An account id alone proves nothing (it is what GET /v1/me answered
 * at an address the merchant typed, and a store can point that at its own
 * server), so sharing needs, read at each use: a pairing (proof that one person
 * works in both stores), both stores opted in, and both connected to the same
 * seller account at the same platform address.
 */
import { createHash, randomInt } from "node:crypto";
import { checkBaseUrl } from "../net/public-address.server";
import { readShopSettings } from "../models/shop-settings";

/** How long a code can be entered: enough to switch stores, too short to leak usefully. */
export const PAIRING_CODE_TTL_MS = 15 * 60_000;
/** Crockford's base32: no I, L, O, U, so a code read aloud or retyped stays the same. */
const ALPHABET = "0123456789ABCDEFGHJKMNPQRSTVWXYZ";
/** 16 characters of 5 bits: 80 bits, far beyond guessing within a code's life. */
const CODE_LENGTH = 16;

/** A new code, in groups of four: "7K2M-Q9XD-4RTA-H1VB". */
export function newPairingCode(): string {
  const chars = Array.from({ length: CODE_LENGTH }, () => ALPHABET[randomInt(ALPHABET.length)]);
  return chars.join("").replace(/(.{4})(?!$)/g, "$1-");
}

/** What a person typed, as the code it means (case, spaces, dashes, O/0 and I/L/1 forgiven); null when it cannot be one. */
export function normalisePairingCode(input: string): string | null {
  const code = input
    .toUpperCase()
    .replace(/[\s-]+/g, "")
    .replace(/O/g, "0")
    .replace(/[IL]/g, "1");
  if (code.length !== CODE_LENGTH) return null;
  for (const char of code) if (!ALPHABET.includes(char)) return null;
  return code;
}

/** What is stored of a code: its SHA-256 (the code itself is shown once, to the staff who created it). */
export function pairingCodeHash(normalised: string): string {
  return createHash("sha256").update(`cod-lead-sync:pairing:${normalised}`).digest("hex");
}

/** The columns of Shop the rules read. */
export interface PairingShop {
  domain: string;
  settings: string;
  sellerAccount: string | null;
  sellerApiBaseUrl: string | null;
  uninstalledAt: Date | null;
}

/** The platform address a shop's key was verified at, normalised (its own, else the default); null without one. */
export function platformAddress(
  shop: Pick<PairingShop, "sellerApiBaseUrl">,
  defaultBaseUrl: string | null | undefined,
): string | null {
  const raw = shop.sellerApiBaseUrl || defaultBaseUrl;
  if (!raw) return null;
  const checked = checkBaseUrl(raw, { allowPrivate: true });
  return checked.ok ? checked.url : null;
}

/** Why two stores can be paired, or why not (for a code being entered). */
export type PairingRefusal = "not_connected" | "other_account" | "other_platform";

/** Both installed and connected, on one seller account at one platform address; else the first reason not. */
export function pairingRefusal(
  a: PairingShop,
  b: PairingShop,
  defaultBaseUrl: string | null | undefined,
): PairingRefusal | null {
  const [addressA, addressB] = [platformAddress(a, defaultBaseUrl), platformAddress(b, defaultBaseUrl)];
  if (a.uninstalledAt || b.uninstalledAt || !a.sellerAccount || !b.sellerAccount || !addressA || !addressB)
    return "not_connected";
  if (a.sellerAccount !== b.sellerAccount) return "other_account";
  if (addressA !== addressB) return "other_platform";
  return null;
}

/** Where a pairing stands for `self`: sharing, or why not now. */
export type PairStatus = "sharing" | "off_here" | "off_there" | PairingRefusal;

export function pairStatus(
  self: PairingShop,
  peer: PairingShop,
  defaultBaseUrl: string | null | undefined,
): PairStatus {
  const refusal = pairingRefusal(self, peer, defaultBaseUrl);
  if (refusal) return refusal;
  if (!readShopSettings(self.settings).shareCustomerRecords) return "off_here";
  if (!readShopSettings(peer.settings).shareCustomerRecords) return "off_there";
  return "sharing";
}

/** A pair's row key: the two domains in order, so a pair has one row whoever created it. */
export function pairKey(a: string, b: string): { shopA: string; shopB: string } {
  return a < b ? { shopA: a, shopB: b } : { shopA: b, shopB: a };
}
