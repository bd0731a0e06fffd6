/**
 * What each webhook route hands its request to: every Shopify topic the app subscribes to,
 * received by receive.server.ts (verified, deduplicated, handled in one transaction) with
 * the handler of that topic, and the platform's signed events for the token's shop.
 */
import prisma from "../db.server";
import { eraseCustomerFeedData } from "../ad-feed/clicks.server";
import { ordersToRedact, recordDataRequest, redactCustomer } from "../customers/compliance.server";
import { intakeOrderCancelled, intakeOrderUpdated } from "../sync/order-intake.server";
import { eraseShop, markShopUninstalled, updateGrantedScopes } from "../sync/shop-lifecycle.server";
import { receiveWebhook } from "./receive.server";
import { receiveSellerEvent } from "./seller-events.server";

export { receiveOrderCreated } from "./receive.server";

export const receiveOrderUpdated = (request: Request) =>
  receiveWebhook(request, "orders/updated", (tx, { shop, payload, triggeredAt }) =>
    intakeOrderUpdated(tx, shop, payload, { triggeredAt }),
  );

export const receiveOrderCancelled = (request: Request) =>
  receiveWebhook(request, "orders/cancelled", (tx, { shop, payload, triggeredAt }) =>
    intakeOrderCancelled(tx, shop, payload, { triggeredAt }),
  );

export const receiveAppUninstalled = (request: Request) =>
  receiveWebhook(request, "app/uninstalled", (tx, { shop, triggeredAt }) =>
    markShopUninstalled(tx, shop, new Date(), triggeredAt),
  );

export const receiveScopesUpdate = (request: Request) =>
  receiveWebhook(request, "app/scopes_update", async (tx, { shop, payload }) => {
    const current = Array.isArray(payload.current) ? payload.current.map(String) : [];
    await updateGrantedScopes(tx, shop, current);
  });

/** Compliance: records which of the customer's personal fields the app holds, per order. */
export const receiveCustomerDataRequest = (request: Request) =>
  receiveWebhook(request, "customers/data_request", (tx, { shop, payload }) => recordDataRequest(tx, shop, payload));

/** Compliance: erases the customer's personal data from stored orders and leads, and the conversion feed's click ids. */
export const receiveCustomerRedact = (request: Request) =>
  receiveWebhook(request, "customers/redact", async (tx, { shop, payload }) => {
    await eraseCustomerFeedData(tx, shop, await ordersToRedact(tx, shop, payload));
    await redactCustomer(tx, shop, payload);
  });

export const receiveShopRedact = (request: Request) =>
  receiveWebhook(request, "shop/redact", (tx, { shop }) => eraseShop(tx, shop));

/** Platform events (lead status changes), signed with the shop's events secret. */
export const receivePlatformEvent = (token: string, request: Request) => receiveSellerEvent(prisma, token, request);
