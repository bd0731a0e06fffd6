/**
 * Home's loader work, as its route calls it once it has authenticated: the shop's row made on
 * its first visit, then the dashboard, the to-do inbox, whether the shop is connected and the
 * sync ledger (its instants on the shop's wall clock, written by the page in the reader's format).
 */
import prisma from "../db.server";
import { DEFAULT_TIME_ZONE } from "../analytics/days";
import { ensureShop } from "../models/shops.server";
import { loadDashboard } from "./home.server";
import { loadInbox } from "./home-inbox.server";
import { loadShopFacts } from "./shop-facts.server";
import { loadSyncLedger } from "./sync-ledger.server";
import { ledgerOnPage } from "./sync-ledger-times";

export async function homePageData(shop: string) {
  await ensureShop(prisma, shop);
  const [dashboard, inbox, facts, syncLedger] = await Promise.all([
    loadDashboard(prisma, shop),
    loadInbox(prisma, shop),
    loadShopFacts(prisma, shop),
    loadSyncLedger(prisma, shop),
  ]);
  return {
    shop,
    dashboard,
    inbox,
    connected: facts.connected,
    syncLedger: ledgerOnPage(syncLedger, DEFAULT_TIME_ZONE),
  };
}
