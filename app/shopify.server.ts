import "@shopify/shopify-app-remix/adapters/node";
import { ApiVersion, AppDistribution, shopifyApp } from "@shopify/shopify-app-remix/server";
import { env, secretBoxFromEnv } from "./env.server";
import prisma from "./db.server";
import { SealedSessionStorage } from "./models/sealed-session-storage.server";
import { reinstateShop } from "./sync/shop-lifecycle.server";
import { log } from "./runtime/logger.server";

export const apiVersion = ApiVersion.July26;

const shopify = shopifyApp({
  apiKey: env.SHOPIFY_API_KEY,
  apiSecretKey: env.SHOPIFY_API_SECRET,
  apiVersion,
  scopes: env.SCOPES.split(",")
    .map((s) => s.trim())
    .filter(Boolean),
  appUrl: env.SHOPIFY_APP_URL,
  authPathPrefix: "/auth",
  // Access and refresh tokens sealed at rest, bound to the shop, like the seller keys.
  sessionStorage: new SealedSessionStorage(prisma, secretBoxFromEnv()),
  distribution: AppDistribution.AppStore,
  future: {
    unstable_newEmbeddedAuthStrategy: true,
    expiringOfflineAccessTokens: true,
  },
  ...(env.SHOP_CUSTOM_DOMAIN ? { customShopDomains: [env.SHOP_CUSTOM_DOMAIN] } : {}),
  hooks: {
    // Token exchange runs this when it stores a new offline session: on install, on
    // reinstall (app/uninstalled deleted the sessions) and after an expired token.
    afterAuth: async ({ session }) => {
      const { reinstalled, resumedOrders } = await reinstateShop(prisma, session.shop);
      if (reinstalled)
        log.info(`${session.shop}: installed again; ${resumedOrders} held order(s) sent on`, {
          shop: session.shop,
          resumedOrders,
        });
    },
  },
});

export default shopify;
export const addDocumentResponseHeaders = shopify.addDocumentResponseHeaders;
export const authenticate = shopify.authenticate;
export const unauthenticated = shopify.unauthenticated;
export const login = shopify.login;
export const registerWebhooks = shopify.registerWebhooks;
export const sessionStorage = shopify.sessionStorage;
