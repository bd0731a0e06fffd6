/**
 * What the pipeline's job handlers need from the outside world, injectable so
 * tests drive them against a real sandbox and a real database.
 */
import type { Shop } from "@prisma/client";
import type { Db } from "../db.server";
import { DEFAULT_TIMEOUT_MS } from "../seller-api";
import { connectShop, type ConnectionOptions, type ShopConnection } from "./seller-connection.server";

export interface PipelineDeps {
  db: Db;
  now: () => Date;
  connect: (shop: Shop) => ShopConnection;
  /**
   * How long after an uncertain POST last touched its order the lead is looked for: a POST the client gave up
   * on (timeout, a released or killed worker) may still be stored by the platform, and a search before it lands
   * finds nothing and sends the order twice. Required: deps made without it would quietly lose that wait.
   */
  uncertainSettleMs: number;
}

/** Twice the call's time limit, and at least 10 s: long enough for a request the client abandoned to land. */
export const uncertainSettleMsFor = (timeoutMs: number) => Math.max(2 * timeoutMs, 10_000);

export function createPipelineDeps(db: Db, options: ConnectionOptions & { clock?: () => Date } = {}): PipelineDeps {
  const { clock, ...connection } = options;
  // One client per shop and key, kept across jobs: it remembers the rate read
  // from GET /v1/me, so each job does not spend a call asking again.
  const clients = new Map<string, ShopConnection>();
  return {
    db,
    now: clock ?? (() => new Date()),
    uncertainSettleMs: uncertainSettleMsFor(connection.timeoutMs ?? DEFAULT_TIMEOUT_MS),
    connect: (shop) => {
      const cacheKey = [shop.domain, shop.sellerApiKeyCipher, shop.sellerApiBaseUrl, shop.pausedReason].join("|");
      let cached = clients.get(cacheKey);
      if (!cached) {
        cached = connectShop(db, shop, connection);
        for (const key of clients.keys()) if (key.startsWith(`${shop.domain}|`)) clients.delete(key);
        clients.set(cacheKey, cached);
      }
      return cached;
    },
  };
}
