/**
 * Pairing a merchant's stores (app/customers/pairing.ts has the rules): one
 * store's staff creates a one-time code in Settings, another store's staff enters
 * it there; both then list the other as a paired store and either can end it.
 * Every code created, pairing joined, refused or ended is on the stores' logs
 * (ShopAuditEvent, shown on Activity). Everything is scoped to the shop asking.
 */
import type { Prisma } from "@prisma/client";
import type { Db } from "../db.server";
import { readShopSettings } from "../models/shop-settings";
import {
  newPairingCode,
  normalisePairingCode,
  pairingCodeHash,
  pairingRefusal,
  pairKey,
  pairStatus,
  PAIRING_CODE_TTL_MS,
  type PairingRefusal,
  type PairingShop,
  type PairStatus,
} from "./pairing";
import { sellerApiEnv } from "../env.server";
import { DEFAULT_TIME_ZONE } from "../analytics/days";
import { localTime } from "../time-zone";
import type { LocalTime } from "../i18n/format";

type Tx = Prisma.TransactionClient;

/** What a store's log says happened to its sharing. */
export const AUDIT_KINDS = ["pairing.code_created", "pairing.joined", "pairing.refused", "pairing.ended"] as const;
export type AuditKind = (typeof AUDIT_KINDS)[number];

const pairingShopColumns = {
  domain: true,
  settings: true,
  sellerAccount: true,
  sellerApiBaseUrl: true,
  uninstalledAt: true,
} as const satisfies Prisma.ShopSelect;

export interface PairingOptions {
  now?: Date;
  /** SELLER_API_BASE_URL: the platform address of a shop that set none. */
  defaultBaseUrl?: string | null;
}

const defaultBase = (options: PairingOptions) =>
  options.defaultBaseUrl === undefined ? sellerApiEnv().SELLER_API_BASE_URL : options.defaultBaseUrl;

function audit(tx: Tx | Db, shop: string, kind: AuditKind, by: string, at: Date, peer: string | null = null) {
  return tx.shopAuditEvent.create({ data: { shop, kind, peer, by, at }, select: { id: true } });
}

/** A new code for this store (replacing any it had), shown once; only its hash is kept. */
export async function createPairingCode(
  db: Db,
  shop: string,
  options: PairingOptions = {},
): Promise<{ code: string; expiresAt: Date }> {
  const now = options.now ?? new Date();
  const code = newPairingCode();
  const expiresAt = new Date(now.getTime() + PAIRING_CODE_TTL_MS);
  const codeHash = pairingCodeHash(normalisePairingCode(code)!);
  await db.$transaction(async (tx) => {
    await tx.storePairingCode.deleteMany({ where: { shop } });
    await tx.storePairingCode.create({ data: { codeHash, shop, expiresAt, createdAt: now } });
    await audit(tx, shop, "pairing.code_created", shop, now);
  });
  return { code, expiresAt };
}

export type RedeemError = "invalid_code" | "own_code" | PairingRefusal;
export type RedeemResult = { ok: true; peer: string; already: boolean } | { ok: false; error: RedeemError };

/**
 * This store enters another store's code. A code is good once: the first entry
 * that finds it uses it up, whatever comes of it (an unknown, expired or used
 * code all read the same). The two stores must be on one seller account at one
 * platform address; a refusal is on both stores' logs.
 */
export async function redeemPairingCode(
  db: Db,
  shop: string,
  input: string,
  options: PairingOptions = {},
): Promise<RedeemResult> {
  const now = options.now ?? new Date();
  const normalised = normalisePairingCode(input);
  if (!normalised) return { ok: false, error: "invalid_code" };
  const codeHash = pairingCodeHash(normalised);
  return db.$transaction(async (tx): Promise<RedeemResult> => {
    const code = await tx.storePairingCode.findUnique({ where: { codeHash } });
    if (!code || code.expiresAt <= now) return { ok: false, error: "invalid_code" };
    // The store's own code: kept, for the store it was meant for.
    if (code.shop === shop) return { ok: false, error: "own_code" };
    const { count } = await tx.storePairingCode.deleteMany({ where: { codeHash } });
    if (count === 0) return { ok: false, error: "invalid_code" };
    const shops = await tx.shop.findMany({ where: { domain: { in: [code.shop, shop] } }, select: pairingShopColumns });
    const issuer = shops.find((s) => s.domain === code.shop);
    const self = shops.find((s) => s.domain === shop);
    const refusal: PairingRefusal | null =
      issuer && self ? pairingRefusal(issuer, self, defaultBase(options)) : "not_connected";
    if (refusal) {
      await audit(tx, code.shop, "pairing.refused", shop, now, shop);
      await audit(tx, shop, "pairing.refused", shop, now, code.shop);
      return { ok: false, error: refusal };
    }
    const key = pairKey(code.shop, shop);
    const existing = await tx.storePairing.findUnique({ where: { shopA_shopB: key }, select: { shopA: true } });
    if (!existing) {
      await tx.storePairing.create({ data: { ...key, codeFrom: code.shop, createdAt: now } });
      await audit(tx, code.shop, "pairing.joined", shop, now, shop);
      await audit(tx, shop, "pairing.joined", shop, now, code.shop);
    }
    return { ok: true, peer: code.shop, already: existing !== null };
  });
}

/** Ends this store's pairing with `peer`, for both; false when there was none. */
export async function endPairing(db: Db, shop: string, peer: string, options: PairingOptions = {}): Promise<boolean> {
  const now = options.now ?? new Date();
  if (peer === shop) return false;
  return db.$transaction(async (tx) => {
    const { count } = await tx.storePairing.deleteMany({ where: pairKey(shop, peer) });
    if (count === 0) return false;
    await audit(tx, shop, "pairing.ended", shop, now, peer);
    await audit(tx, peer, "pairing.ended", shop, now, shop);
    return true;
  });
}

/** The stores paired with this one, with the shop rows the rules read. */
async function pairedShops(db: Db | Tx, shop: string) {
  const pairs = await db.storePairing.findMany({
    where: { OR: [{ shopA: shop }, { shopB: shop }] },
    orderBy: { createdAt: "asc" },
  });
  const peers = pairs.map((p) => (p.shopA === shop ? p.shopB : p.shopA));
  const rows = peers.length
    ? await db.shop.findMany({ where: { domain: { in: peers } }, select: pairingShopColumns })
    : [];
  return pairs.map((pair, i) => ({ pair, peer: peers[i], row: rows.find((r) => r.domain === peers[i]) ?? null }));
}

/**
 * The stores whose delivery records this one sees now: paired, both opted in, both
 * on the same seller account at the same platform address. Read at each use.
 */
export async function sharingPeerDomains(
  db: Db | Tx,
  self: PairingShop,
  options: PairingOptions = {},
): Promise<string[]> {
  // Most stores share nothing: no query for them.
  if (self.uninstalledAt || !self.sellerAccount || !readShopSettings(self.settings).shareCustomerRecords) return [];
  const paired = await pairedShops(db, self.domain);
  const base = defaultBase(options);
  return paired.filter(({ row }) => row && pairStatus(self, row, base) === "sharing").map(({ peer }) => peer);
}

export interface PairedStoreView {
  shop: string;
  since: string;
  /** `since` on the shop's wall clock, as the page writes it in the reader's format. */
  sinceLocal: LocalTime;
  /** This store created the code the other entered. */
  codeFromHere: boolean;
  status: PairStatus;
}

export interface PairingView {
  peers: PairedStoreView[];
  /** This store's code waiting to be entered (the code itself was shown once). */
  codeExpiresAt: string | null;
  codeExpiresLocal: LocalTime | null;
}

export async function loadPairingView(db: Db, shop: string, options: PairingOptions = {}): Promise<PairingView> {
  const now = options.now ?? new Date();
  const [self, paired, code] = await Promise.all([
    db.shop.findUnique({ where: { domain: shop }, select: pairingShopColumns }),
    pairedShops(db, shop),
    db.storePairingCode.findFirst({ where: { shop, expiresAt: { gt: now } }, select: { expiresAt: true } }),
  ]);
  const base = defaultBase(options);
  return {
    peers: paired.map(({ pair, peer, row }) => ({
      shop: peer,
      since: pair.createdAt.toISOString(),
      sinceLocal: localTime(pair.createdAt, DEFAULT_TIME_ZONE),
      codeFromHere: pair.codeFrom === shop,
      status: self && row ? pairStatus(self, row, base) : "not_connected",
    })),
    codeExpiresAt: code?.expiresAt.toISOString() ?? null,
    codeExpiresLocal: code ? localTime(code.expiresAt, DEFAULT_TIME_ZONE) : null,
  };
}

export interface AuditEventView {
  id: string;
  kind: AuditKind;
  peer: string | null;
  /** This store did it (else the peer did). */
  byHere: boolean;
  at: string;
}

/** The store's sharing log, newest first. */
export async function listShopAuditEvents(db: Db, shop: string, limit = 50): Promise<AuditEventView[]> {
  const rows = await db.shopAuditEvent.findMany({
    where: { shop },
    orderBy: [{ at: "desc" }, { id: "desc" }],
    take: limit,
  });
  return rows
    .filter((r): r is typeof r & { kind: AuditKind } => (AUDIT_KINDS as readonly string[]).includes(r.kind))
    .map((r) => ({ id: r.id, kind: r.kind, peer: r.peer, byHere: r.by === shop, at: r.at.toISOString() }));
}

/** What the Settings page's pairing actions answer (the code is in it once, for the staff who asked). */
export type PairingActionResult =
  | { intent: "createPairingCode"; code: string; expiresAt: string; expiresLocal: LocalTime }
  | ({ intent: "redeemPairingCode" } & RedeemResult)
  | { intent: "endPairing"; ok: boolean; peer: string };

/** The Settings page's pairing intents; null for any other intent. */
export async function runPairingAction(
  db: Db,
  shop: string,
  intent: string | undefined,
  field: (name: string) => string | undefined,
  options: PairingOptions = {},
): Promise<PairingActionResult | null> {
  if (intent === "createPairingCode") {
    const { code, expiresAt } = await createPairingCode(db, shop, options);
    return { intent, code, expiresAt: expiresAt.toISOString(), expiresLocal: localTime(expiresAt, DEFAULT_TIME_ZONE) };
  }
  if (intent === "redeemPairingCode")
    return { intent, ...(await redeemPairingCode(db, shop, field("code") ?? "", options)) };
  if (intent === "endPairing") {
    const peer = field("peer") ?? "";
    return { intent, ok: await endPairing(db, shop, peer, options), peer };
  }
  return null;
}
