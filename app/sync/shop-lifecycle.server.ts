import type { Db } from "../db.server";
import { enqueueJob } from "../queue/jobs.server";
import { APP_NOT_INSTALLED_REASON } from "./shop-pause.server";
import { ensureSyncScheduled } from "./sync-schedule.server";
import { ensureReconcileScheduled } from "./reconcile/schedule.server";
import { moveLink } from "../models/link-moves.server";
import { reinstalledText } from "../models/order-texts";
import type { TransactionClient } from "../models/webhook-delivery.server";
import { postLeadJobFor } from "../models/job-kinds";
import { ensureShop } from "../models/shops.server";
import { eraseShopFeedData } from "../ad-feed/clicks.server";
import { log } from "../runtime/logger.server";

/**
 * app/uninstalled: stop work for the shop but keep its data until shop/redact. A
 * delivery raised before the shop's last install (Shopify retries for hours, the
 * merchant reinstalled meanwhile) is stale and changes nothing.
 */
export async function markShopUninstalled(
  tx: TransactionClient,
  shop: string,
  at: Date,
  triggeredAt?: Date | null,
): Promise<void> {
  if (triggeredAt) {
    const row = await tx.shop.findUnique({
      where: { domain: shop },
      select: { installedAt: true, uninstalledAt: true },
    });
    if (row && row.uninstalledAt === null && row.installedAt > triggeredAt) return;
  }
  await tx.session.deleteMany({ where: { shop } });
  await tx.shop.upsert({
    where: { domain: shop },
    create: { domain: shop, uninstalledAt: at },
    update: { uninstalledAt: at },
  });
}

export interface Reinstated {
  /** The shop had been uninstalled and is installed again. */
  reinstalled: boolean;
  /** Orders held "not installed" that are sent on. */
  resumedOrders: number;
}

/**
 * Install and reinstall (shopifyApp's afterAuth: a new offline session was just
 * obtained): the shop is installed from now on, the orders held while it was not
 * are queued again, waiting jobs run now and statuses are synced again.
 */
export async function reinstateShop(db: Db, shop: string, at: Date = new Date()): Promise<Reinstated> {
  await ensureShop(db, shop);
  return db.$transaction(async (tx) => {
    const row = await tx.shop.findUniqueOrThrow({
      where: { domain: shop },
      select: { uninstalledAt: true, sellerApiKeyCipher: true },
    });
    if (row.uninstalledAt)
      await tx.shop.update({
        where: { domain: shop },
        data: { uninstalledAt: null, installedAt: at },
        select: { id: true },
      });
    const held = await tx.orderLink.findMany({
      where: { shop, state: "held", reason: APP_NOT_INSTALLED_REASON, cancelledAt: null },
      select: {
        id: true,
        orderId: true,
        state: true,
        confirmationStatus: true,
        shippingStatus: true,
        sellerProfit: true,
      },
    });
    let resumedOrders = 0;
    for (const link of held) {
      const moved = await moveLink(tx, {
        link: { ...link, shop },
        to: "received",
        reason: null,
        timeline: [{ kind: "resend", text: reinstalledText(), at }],
        at: new Date(),
        eventAt: at,
      });
      if (!moved) continue;
      await enqueueJob(tx, postLeadJobFor(shop, link.orderId, link.id));
      resumedOrders++;
    }
    // After a reinstall, jobs held back while the app was gone need not wait out their delay.
    // Not on other runs (an expired token's exchange): that would cut short a 429's stated wait.
    if (row.uninstalledAt)
      await tx.job.updateMany({ where: { shop, state: { in: ["pending", "failed"] } }, data: { runAt: at } });
    if (row.sellerApiKeyCipher) await ensureSyncScheduled(tx, shop, at);
    // The first pass covers what the app missed while it was not installed (bounded).
    await ensureReconcileScheduled(tx, shop, at);
    return { reinstalled: row.uninstalledAt !== null, resumedOrders };
  });
}

/** app/scopes_update: keep the stored sessions' scope in step with what the merchant granted. */
export async function updateGrantedScopes(tx: TransactionClient, shop: string, scopes: string[]): Promise<void> {
  const scope = scopes.join(",");
  await tx.session.updateMany({ where: { shop }, data: { scope } });
  await tx.shop.updateMany({ where: { domain: shop }, data: { scopes: scope } });
}

/** Installed now: its row says so, or (an install whose afterAuth has not run yet) it has a session. */
async function isInstalledNow(tx: TransactionClient, shop: string): Promise<boolean> {
  const row = await tx.shop.findUnique({ where: { domain: shop }, select: { uninstalledAt: true } });
  if (row) return row.uninstalledAt === null;
  return (await tx.session.count({ where: { shop } })) > 0;
}

/**
 * shop/redact (48 hours after uninstall): delete everything the app holds for the shop. Not
 * while the shop is installed: a delivery raised before a reinstall (or replayed) would erase a
 * working shop's key, sessions and orders. Shopify sends shop/redact again after the next
 * uninstall; this one changes nothing and the log says so.
 */
export async function eraseShop(tx: TransactionClient, shop: string): Promise<"erased" | "installed"> {
  if (await isInstalledNow(tx, shop)) {
    log.warn("shop/redact for a shop that is installed now: nothing erased", { shop });
    return "installed";
  }
  await tx.session.deleteMany({ where: { shop } });
  await tx.timelineEvent.deleteMany({ where: { shop } });
  await tx.orderLink.deleteMany({ where: { shop } });
  await tx.job.deleteMany({ where: { shop } });
  await tx.apiCall.deleteMany({ where: { shop } });
  await tx.dataRequest.deleteMany({ where: { shop } });
  await tx.skuMapping.deleteMany({ where: { shop } });
  await tx.cityAlias.deleteMany({ where: { shop } });
  await tx.flowTriggerUsage.deleteMany({ where: { shop } });
  await tx.analyticsDaily.deleteMany({ where: { shop } });
  await tx.analyticsLead.deleteMany({ where: { shop } });
  await tx.cashParcel.deleteMany({ where: { shop } });
  await tx.cashDaily.deleteMany({ where: { shop } });
  await tx.customerLead.deleteMany({ where: { shop } });
  await tx.customerRecord.deleteMany({ where: { shop } });
  await tx.orderOdds.deleteMany({ where: { shop } });
  await tx.oddsModel.deleteMany({ where: { shop } });
  await tx.queueTurn.deleteMany({ where: { shop } });
  await tx.pendingLeadEvent.deleteMany({ where: { shop } });
  // Its pairings end with it (the other store's log keeps its own record of them).
  await tx.storePairing.deleteMany({ where: { OR: [{ shopA: shop }, { shopB: shop }] } });
  await tx.storePairingCode.deleteMany({ where: { shop } });
  await tx.shopAuditEvent.deleteMany({ where: { shop } });
  await tx.syncLedger.deleteMany({ where: { shop } });
  await tx.reconcilePass.deleteMany({ where: { shop } });
  await tx.syncLatency.deleteMany({ where: { shop } });
  await eraseShopFeedData(tx, shop);
  await tx.shop.deleteMany({ where: { domain: shop } });
  // Delivery rows are kept (ids and topics only, no personal data) so a
  // redelivered shop/redact is still recognised as done.
  return "erased";
}
