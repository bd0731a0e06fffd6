/**
 * What every page of the admin needs to know about the shop besides its own data:
 * whether it is connected to its platform (else empty states say "connect first"),
 * its WhatsApp message to customers, and how old an order may be before it is sent
 * only with the merchant's word. One read of the shop row.
 */
import type { Db } from "../db.server";
import { readShopSettings, type ShopSettings } from "../models/shop-settings";
import type { ContactLanguage } from "../models/contact-message";
import { oddsPolicyOf } from "../customers/delivery-odds.server";

export interface ShopFacts {
  /** A key is saved and was verified: orders can reach the platform. */
  connected: boolean;
  contact: { language: ContactLanguage; templates: Record<ContactLanguage, string> };
  /** Settings' limit in days (models/stale-order.ts). */
  staleOrderDays: number;
  /** The merchant's own cost of a failed order (Settings), in cents; 0 when not set. */
  refusalCostCents: number;
}

export async function loadShopFacts(db: Db, shop: string): Promise<ShopFacts> {
  const row = await db.shop.findUnique({
    where: { domain: shop },
    select: { settings: true, keyVerifiedAt: true, sellerApiKeyCipher: true },
  });
  const settings = readShopSettings(row?.settings);
  const { contactMessage, staleOrderDays } = settings;
  return {
    connected: Boolean(row?.sellerApiKeyCipher && row.keyVerifiedAt),
    contact: { language: contactMessage.language, templates: { fr: contactMessage.fr, darija: contactMessage.darija } },
    staleOrderDays,
    refusalCostCents: oddsPolicyOf(settings).refusalCostCents,
  };
}

/** The shop's settings as saved (the defaults where none are), for a page that needs one of them. */
export async function loadShopSettings(db: Db, shop: string): Promise<ShopSettings> {
  const row = await db.shop.findUnique({ where: { domain: shop }, select: { settings: true } });
  return readShopSettings(row?.settings);
}
