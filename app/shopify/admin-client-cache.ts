/**
 * The worker's Admin API clients, one per shop, kept for a minute. Loading a
 * shop's offline session is a database read and an unsealing; a busy shop's
 * write-backs and Flow triggers would otherwise pay both on every call. A
 * client is dropped when Shopify answers 401 (token revoked or rotated) and
 * never outlives its session's expiry; an uninstalled shop's jobs stop before
 * they ask for a client (they read `uninstalledAt` first).
 */
import { HttpResponseError } from "@shopify/shopify-api";
import type { AdminFor, AdminGraphqlClient } from "./admin-graphql.server";

/** What loading a shop's client gives: the client and when its session expires (null: never). */
export interface LoadedAdmin {
  admin: AdminGraphqlClient;
  expires: Date | null;
}

/** How long a client is kept at most. */
export const ADMIN_CLIENT_KEPT_MS = 60_000;
/** A session this close to its expiry is not kept: the next load refreshes it. */
const EXPIRY_MARGIN_MS = 60_000;

const isUnauthorized = (error: unknown) => error instanceof HttpResponseError && error.response.code === 401;

export function cachedAdminFor(load: (shop: string) => Promise<LoadedAdmin>, now: () => number = Date.now): AdminFor {
  const kept = new Map<string, { client: AdminGraphqlClient; until: number }>();
  return async (shop: string): Promise<AdminGraphqlClient> => {
    const hit = kept.get(shop);
    if (hit && hit.until > now()) return hit.client;
    const { admin, expires } = await load(shop);
    const client: AdminGraphqlClient = {
      graphql: async (...args) => {
        try {
          return await admin.graphql(...args);
        } catch (error) {
          if (isUnauthorized(error) && kept.get(shop)?.client === client) kept.delete(shop);
          throw error;
        }
      },
    };
    const until = Math.min(now() + ADMIN_CLIENT_KEPT_MS, expires ? expires.getTime() - EXPIRY_MARGIN_MS : Infinity);
    if (until > now()) kept.set(shop, { client, until });
    else kept.delete(shop);
    return client;
  };
}
