/**
 * Delivery records shared between a merchant's own stores, by consent. A store
 * sees another store's records only when both opted in (Settings,
 * shareCustomerRecords) and both are connected to the same seller account
 * (Shop.sellerAccount, the account id the Seller API's /me answered for the
 * verified key). Consent is read at every use, so turning it off stops the
 * sharing at once; nothing is copied between stores, and nothing crosses
 * seller accounts.
 */
import type { Prisma, Shop } from "@prisma/client";
import type { Db } from "../db.server";
import { readShopSettings } from "../models/shop-settings";
import type { DeliveryOutcome } from "./outcome";
import { customerHistory } from "./records.server";
import type { CustomerHistory } from "./risk";

type Reader = Db | Prisma.TransactionClient;
type ShopConsent = Pick<Shop, "domain" | "settings" | "sellerAccount" | "uninstalledAt">;

const consents = (shop: ShopConsent) => shop.uninstalledAt === null && shop.sellerAccount !== null && readShopSettings(shop.settings).shareCustomerRecords;

/** The other stores whose records this one sees (none unless both sides consent on one seller account). */
export async function sharingPeers(db: Reader, shop: string | ShopConsent): Promise<string[]> {
  const self =
    typeof shop === "string"
      ? await db.shop.findUnique({ where: { domain: shop }, select: { domain: true, settings: true, sellerAccount: true, uninstalledAt: true } })
      : shop;
  if (!self || !consents(self)) return [];
  const others = await db.shop.findMany({
    where: { sellerAccount: self.sellerAccount, domain: { not: self.domain }, uninstalledAt: null },
    select: { domain: true, settings: true, sellerAccount: true, uninstalledAt: true },
  });
  return others.filter(consents).map((o) => o.domain);
}

/**
 * What the hold rule reads for a phone: this store's standing and outcomes, and
 * the outcomes the consenting stores hold for the same phone. A standing
 * (block/trust) stays the word of the store that set it.
 */
export async function holdHistory(db: Reader, shop: ShopConsent, phoneKey: string, exceptLinkId?: string): Promise<CustomerHistory> {
  const [own, peers] = await Promise.all([customerHistory(db, shop.domain, phoneKey, exceptLinkId), sharingPeers(db, shop)]);
  if (peers.length === 0) return own;
  const shared = await db.customerLead.findMany({ where: { shop: { in: peers }, phoneKey }, select: { outcome: true, outcomeAt: true } });
  return { ...own, outcomes: [...own.outcomes, ...shared.map((o) => ({ outcome: o.outcome as DeliveryOutcome, at: o.outcomeAt }))] };
}

export interface SharedRecord {
  /** Consenting stores that know this phone. */
  stores: number;
  orders: number;
  counts: Record<DeliveryOutcome, number>;
  lastOutcome: DeliveryOutcome | null;
  lastOutcomeAt: string | null;
}

/** The other consenting stores' records of a phone, added up; null when none shares one. */
export async function sharedRecord(db: Reader, shop: string, phoneKey: string): Promise<SharedRecord | null> {
  const peers = await sharingPeers(db, shop);
  if (peers.length === 0) return null;
  const rows = await db.customerRecord.findMany({ where: { shop: { in: peers }, phoneKey, orders: { gt: 0 } } });
  if (rows.length === 0) return null;
  const sum = (pick: (r: (typeof rows)[number]) => number) => rows.reduce((n, r) => n + pick(r), 0);
  const last = rows.filter((r) => r.lastOutcomeAt).sort((a, b) => b.lastOutcomeAt!.getTime() - a.lastOutcomeAt!.getTime())[0];
  return {
    stores: rows.length,
    orders: sum((r) => r.orders),
    counts: {
      delivered: sum((r) => r.delivered),
      returned: sum((r) => r.returned),
      refused: sum((r) => r.refused),
      cancelled: sum((r) => r.cancelled),
      wrong_number: sum((r) => r.wrongNumber),
      in_progress: sum((r) => r.inProgress),
    },
    lastOutcome: (last?.lastOutcome as DeliveryOutcome | undefined) ?? null,
    lastOutcomeAt: last?.lastOutcomeAt?.toISOString() ?? null,
  };
}
