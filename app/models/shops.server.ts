/** A shop's row: created on its first admin visit, with the token of its platform-events URL. */
import { Prisma } from "@prisma/client";
import type { Db } from "../db.server";
import { newEventsToken } from "./events-credentials";

/** Creates the shop's row on its first admin visit; a no-op afterwards. */
export async function ensureShop(db: Db, shop: string): Promise<void> {
  try {
    await db.shop.upsert({
      where: { domain: shop },
      create: { domain: shop, eventsToken: newEventsToken() },
      update: {},
      select: { id: true },
    });
  } catch (error) {
    // Two first requests raced to create it: the row exists, which is all we want.
    if (!(error instanceof Prisma.PrismaClientKnownRequestError && error.code === "P2002")) throw error;
  }
}
