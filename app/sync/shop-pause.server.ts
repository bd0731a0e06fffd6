import type { Shop } from "@prisma/client";
import type { Db } from "../db.server";
import { log } from "../runtime/logger.server";
import { recordShopPaused } from "../runtime/metrics.server";

/** Why an order is held while the app is uninstalled; a reinstall sends these on (reinstateShop). */
export const APP_NOT_INSTALLED_REASON = "The app is not installed on this shop any more";

/** The platform answered 401: stop calling with this key until the merchant verifies a new one. */
export async function pauseShop(db: Db, shop: Shop, at: Date): Promise<void> {
  if (shop.pausedReason) return;
  await db.shop.update({ where: { id: shop.id }, data: { pausedReason: "key_rejected", pausedAt: at } });
  recordShopPaused("key_rejected");
  log.warn(`${shop.domain}: paused, the platform rejected its key`, { shop: shop.domain, reason: "key_rejected" });
}

/** A new key was verified: clear the pause and let every waiting job of the shop run now. */
export async function resumeShop(db: Db, domain: string, at: Date = new Date()): Promise<number> {
  await db.shop.updateMany({ where: { domain }, data: { pausedReason: null, pausedAt: null } });
  const { count } = await db.job.updateMany({
    where: { shop: domain, state: { in: ["pending", "failed"] } },
    data: { runAt: at },
  });
  return count;
}
