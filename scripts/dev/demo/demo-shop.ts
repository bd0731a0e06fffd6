/**
 * The demo's closed world: the demo shop's seller connection to the sandbox
 * (the key sealed as the app seals it). `npm run demo` leaves the shop's
 * install (its offline session) to the app, through the token exchange with the
 * Shopify Admin stand-in (install-shop.ts); registerDemoShop, which writes the
 * session row itself, serves the benchmarks that run without a stand-in.
 */
import type { PrismaClient } from "@prisma/client";
import { createSecretBox } from "../../../app/crypto/secret-box.server";

export const DEMO_SHOP = "atlas-beauty.myshopify.com";
export const DEMO_ACCOUNT = "ACC-1001";
export const DEMO_API_KEY = "demo-api-key";
/** The app's default SCOPES (app/env.server.ts); the demo passes it to the app too. */
export const DEMO_SCOPES =
  "read_orders,write_orders,read_products,read_merchant_managed_fulfillment_orders,write_merchant_managed_fulfillment_orders,write_pixels,read_customer_events";

/** Statuses move every minute; nothing is written back to Shopify (there is none). */
export const DEMO_SETTINGS = {
  statusSyncMinutes: 1,
  writeBack: { tags: false, fulfillment: false, markPaid: false, cancel: false },
};

/**
 * With the Shopify stand-in: tags, fulfilment with tracking and paid are written back as
 * leads move (cancelling Shopify orders stays off, the app's default). The customer hold,
 * off by default in the app, is on: the demo shows a returning customer's order held.
 */
export const DEMO_WRITE_BACK_SETTINGS = {
  statusSyncMinutes: 1,
  writeBack: { tags: true, fulfillment: true, markPaid: true, cancel: false },
  customerHold: { enabled: true, failures: 2, days: 90 },
};

export interface SellerAccount {
  name: string | null;
  leadPrefix: string | null;
  rateLimitPerMinute: number | null;
  apiVersion: string | null;
}

/** GET /v1/me with the key, as the Settings page's verification does. */
export async function fetchSellerAccount(baseUrl: string, apiKey: string): Promise<SellerAccount> {
  const response = await fetch(`${baseUrl}/v1/me`, { headers: { Authorization: `Bearer ${apiKey}` } });
  if (!response.ok) throw new Error(`the sandbox refused the demo key (GET /v1/me answered ${response.status})`);
  const body = (await response.json()) as { data?: Record<string, unknown> };
  const data = body.data ?? {};
  const text = (v: unknown) => (typeof v === "string" ? v : null);
  return {
    name: text(data.name),
    leadPrefix: text(data.lead_prefix),
    rateLimitPerMinute: typeof data.rate_limit_per_minute === "number" ? data.rate_limit_per_minute : null,
    apiVersion: text(data.api_version),
  };
}

export interface RegisterOptions {
  encryptionKey: string;
  apiKey: string;
  sellerApiBaseUrl: string;
  account: SellerAccount;
  now?: Date;
}

/** The shop as if the merchant had installed the app and verified the key in Settings. */
export async function registerDemoShop(db: PrismaClient, options: RegisterOptions): Promise<void> {
  const now = options.now ?? new Date();
  await db.session.create({
    data: {
      id: `offline_${DEMO_SHOP}`,
      shop: DEMO_SHOP,
      state: "demo",
      isOnline: false,
      scope: DEMO_SCOPES,
      accessToken: "demo-offline-token",
      expires: new Date(now.getTime() + 365 * 24 * 3600_000),
    },
  });
  await db.shop.create({
    data: {
      domain: DEMO_SHOP,
      scopes: DEMO_SCOPES,
      sellerApiKeyCipher: createSecretBox(options.encryptionKey).seal(options.apiKey, {
        shop: DEMO_SHOP,
        purpose: "seller-api-key",
      }),
      sellerApiKeyLast4: options.apiKey.slice(-4),
      sellerApiBaseUrl: options.sellerApiBaseUrl,
      sellerAccount: DEMO_ACCOUNT,
      sellerName: options.account.name,
      leadPrefix: options.account.leadPrefix,
      rateLimitPerMinute: options.account.rateLimitPerMinute,
      apiVersion: options.account.apiVersion,
      keyVerifiedAt: now,
      settings: JSON.stringify(DEMO_SETTINGS),
    },
  });
}

/** The shop's seller connection only, as if the merchant had verified the key in Settings; the app installs the shop. */
export async function connectDemoShop(db: PrismaClient, options: RegisterOptions): Promise<void> {
  const now = options.now ?? new Date();
  const connection = {
    scopes: DEMO_SCOPES,
    sellerApiKeyCipher: createSecretBox(options.encryptionKey).seal(options.apiKey, {
      shop: DEMO_SHOP,
      purpose: "seller-api-key",
    }),
    sellerApiKeyLast4: options.apiKey.slice(-4),
    sellerApiBaseUrl: options.sellerApiBaseUrl,
    sellerAccount: DEMO_ACCOUNT,
    sellerName: options.account.name,
    leadPrefix: options.account.leadPrefix,
    rateLimitPerMinute: options.account.rateLimitPerMinute,
    apiVersion: options.account.apiVersion,
    keyVerifiedAt: now,
    settings: JSON.stringify(DEMO_WRITE_BACK_SETTINGS),
  };
  await db.shop.upsert({
    where: { domain: DEMO_SHOP },
    create: { domain: DEMO_SHOP, ...connection },
    update: connection,
    select: { id: true },
  });
}
