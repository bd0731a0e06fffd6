/**
 * Delivery records shared between a merchant's own stores, by consent and proof.
 * A store sees another store's records only when the two are paired (one
 * store's staff entered the other's one-time code: pairing.server.ts), both
 * opted in (Settings, shareCustomerRecords), and both are connected to the same
 * seller account at the same platform address. An account id alone proves
 * nothing: it is what the platform the merchant typed answered, and a store can
 * point that at its own server. All of it is read at every use, so ending the
 * pairing, turning sharing off or changing the key stops the sharing at once;
 * nothing is copied between stores.
 */
import type { Prisma, Shop } from "@prisma/client";
import type { Db } from "../db.server";
import type { DeliveryOutcome } from "./outcome";
import { sharingPeerDomains } from "./pairing.server";
import { customerHistory } from "./records.server";
import type { CustomerHistory } from "./risk";

type Reader = Db | Prisma.TransactionClient;
type ShopConsent = Pick<Shop, "domain" | "settings" | "sellerAccount" | "sellerApiBaseUrl" | "uninstalledAt">;

/** The other stores whose records this one sees (none unless paired, both consenting, on one account and platform). */
export async function sharingPeers(db: Reader, shop: string | ShopConsent): Promise<string[]> {
  const self =
    typeof shop === "string"
      ? await db.shop.findUnique({
          where: { domain: shop },
          select: { domain: true, settings: true, sellerAccount: true, sellerApiBaseUrl: true, uninstalledAt: true },
        })
      : shop;
  if (!self) return [];
  return sharingPeerDomains(db, self);
}

/**
 * What the hold rule reads for a phone: this store's standing and outcomes, and
 * the outcomes the consenting stores hold for the same phone. A standing
 * (block/trust) stays the word of the store that set it.
 */
export async function holdHistory(
  db: Reader,
  shop: ShopConsent,
  phoneKey: string,
  exceptLinkId?: string,
): Promise<CustomerHistory> {
  const [own, peers] = await Promise.all([
    customerHistory(db, shop.domain, phoneKey, exceptLinkId),
    sharingPeers(db, shop),
  ]);
  if (peers.length === 0) return own;
  const shared = await db.customerLead.findMany({
    where: { shop: { in: peers }, phoneKey },
    select: { outcome: true, outcomeAt: true },
  });
  return {
    ...own,
    outcomes: [...own.outcomes, ...shared.map((o) => ({ outcome: o.outcome as DeliveryOutcome, at: o.outcomeAt }))],
  };
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
  const last = rows
    .filter((r) => r.lastOutcomeAt)
    .sort((a, b) => b.lastOutcomeAt!.getTime() - a.lastOutcomeAt!.getTime())[0];
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
