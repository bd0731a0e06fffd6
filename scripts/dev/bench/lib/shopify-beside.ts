/**
 * The Shopify Admin stand-in beside a benchmark's workers, as a real shop has
 * it: the shop, an offline session the workers' Admin clients load (sealed, as
 * the app stores it), and Flow's word that an enabled workflow uses each of the
 * app's triggers; and the app's Shopify settings for the workers' environment.
 */
import { join } from "node:path";
import { Session } from "@shopify/shopify-api";
import type { createPrismaClient } from "../../../../app/db/client";
import { recordTriggerUsage } from "../../../../app/flow/flow-triggers.server";
import { SealedSessionStorage } from "../../../../app/models/sealed-session-storage.server";
import { secretBoxFromEnv } from "../../../../app/env.server";
import {
  flowDefinitionsFrom,
  startShopifyAdmin,
  type RunningShopifyAdmin,
  type ShopifyPlan,
} from "../../../../shopify-admin/index";
import { SHOP } from "../../lib/connected-shop";

/** The app's Shopify settings, for the workers' Admin clients. */
export const APP_ENV = {
  SHOPIFY_API_KEY: "bench-api-key",
  SHOPIFY_API_SECRET: "bench-api-secret",
  SHOPIFY_APP_URL: "https://cod-lead-sync.bench",
  SCOPES:
    "read_orders,write_orders,read_products,read_merchant_managed_fulfillment_orders,write_merchant_managed_fulfillment_orders",
};

export async function shopifyBeside(
  db: ReturnType<typeof createPrismaClient>,
  root: string,
  plan: ShopifyPlan,
): Promise<RunningShopifyAdmin> {
  const shopify = await startShopifyAdmin({ quiet: true, plan, flow: flowDefinitionsFrom(join(root, "extensions")) });
  shopify.shop(SHOP);
  const session = new Session({
    id: `offline_${SHOP}`,
    shop: SHOP,
    state: "",
    isOnline: false,
    accessToken: "shpat_bench",
    scope: APP_ENV.SCOPES,
  });
  await new SealedSessionStorage(db, secretBoxFromEnv()).storeSession(session);
  await recordTriggerUsage(db, SHOP, { shopify_domain: SHOP, has_enabled_flow: true });
  return shopify;
}

/**
 * The shop's settings for a benchmark: with Shopify beside it, the defaults a real shop runs (write-back and Flow on);
 * without, every Admin API call off, since nothing would answer it.
 */
export function benchShopSettings(withShopify: boolean) {
  return withShopify
    ? {}
    : {
        writeBack: { tags: false, fulfillment: false, markPaid: false, cancel: false },
        flowTriggers: {
          leadCreated: false,
          leadStatusChanged: false,
          orderNeedsAttention: false,
          paymentOverdue: false,
          orderStuck: false,
        },
      };
}
