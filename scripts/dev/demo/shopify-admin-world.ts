/**
 * The demo's Shopify: the Admin API stand-in (shopify-admin/) in the demo's process,
 * on loopback, knowing the run's client id and secret so the app can install through
 * its token exchange. The demo shop gets the demo world (catalogue, 60 days of past
 * orders numbered below the replayed ones, for the backfill), and each replayed order
 * is added just before its webhook, as on Shopify. A second shop, never installed,
 * shows a first install from the admin preview.
 */
import { join } from "node:path";
import {
  applyWebhookOrder,
  flowDefinitionsFrom,
  demoWorld,
  DEMO_ORDER_COUNT,
  DEMO_SEED,
  orderPageUrl,
  startShopifyAdmin,
  type RunningShopifyAdmin,
  type WebhookOrderPayload,
} from "../../../shopify-admin/index";

/** A second store (the sandbox's seller ACC-1002 has a key attached to it): starts not installed. */
export const SECOND_SHOP = "rif-market.myshopify.com";
export const SECOND_ACCOUNT = "ACC-1002";
/** The replayed orders are #1001...; the demo shop's history ends just below them. */
export const FIRST_REPLAYED_NUMBER = 1001;

export interface DemoShopifyAdmin {
  url: string;
  admin: RunningShopifyAdmin;
  /** Mirrors a webhook into the shop's state before the app gets it. */
  beforeDelivery(shop: string, topic: string, payload: Record<string, unknown>): void;
  orderPage(shop: string, orderId: string): string;
  close(): Promise<void>;
}

export async function startDemoShopifyAdmin(options: {
  port: number;
  apiKey: string;
  apiSecret: string;
  scopes: string;
  shops: { demo: string; second: string };
  nowMs?: number;
}): Promise<DemoShopifyAdmin> {
  const admin = await startShopifyAdmin({
    port: options.port,
    quiet: true,
    app: { apiKey: options.apiKey, apiSecret: options.apiSecret, scopes: options.scopes.split(",") },
    // Flow knows the app's triggers as deployed: the extension TOML files.
    flow: flowDefinitionsFrom(join(import.meta.dirname, "..", "..", "..", "extensions")),
  });
  const nowMs = options.nowMs ?? Date.now();
  admin.shop(options.shops.demo, demoWorld({ nowMs, firstOrderNumber: FIRST_REPLAYED_NUMBER - DEMO_ORDER_COUNT }));
  admin.shop(options.shops.second, demoWorld({ nowMs, seed: DEMO_SEED + 1, orders: 120 }));
  return {
    url: admin.url,
    admin,
    beforeDelivery(shop, topic, payload) {
      applyWebhookOrder(admin.shop(shop), topic, payload as unknown as WebhookOrderPayload);
    },
    orderPage: (shop, orderId) => orderPageUrl(admin.url, shop, orderId),
    close: () => admin.close(),
  };
}
