/**
 * What the pipeline's job handlers need from the outside world, injectable so
 * tests drive them against a real sandbox and a real SQLite file.
 */
import type { Shop } from "@prisma/client";
import type { Db } from "../db.server";
import { connectShop, type ConnectionOptions, type ShopConnection } from "./seller-connection.server";

export interface PipelineDeps {
  db: Db;
  now: () => Date;
  connect: (shop: Shop) => ShopConnection;
}

export function createPipelineDeps(db: Db, options: ConnectionOptions & { clock?: () => Date } = {}): PipelineDeps {
  const { clock, ...connection } = options;
  return {
    db,
    now: clock ?? (() => new Date()),
    connect: (shop) => connectShop(db, shop, connection),
  };
}
