/**
 * The reconciliation's coverage start, in the shop's sync ledger: it takes in an order it
 * has no record of only when the order was placed since then. The first pass sets it (the
 * install, or the last order the app saw); it only ever moves forward: by a pass that found
 * the bound reached, and by retention, past every order retention removed, so an order the
 * app purged is never taken in again as new (docs/decisions/0011-reconciliation.md).
 */
import type { Prisma, Shop } from "@prisma/client";
import type { Db } from "../../db.server";
import { firstCoverage } from "./window";

export type LedgerRow = Awaited<ReturnType<Db["syncLedger"]["findUniqueOrThrow"]>>;

/** The shop's ledger row, created on first use with its coverage start. */
export async function ensureLedger(db: Db, shop: Pick<Shop, "domain" | "installedAt">): Promise<LedgerRow> {
  const existing = await db.syncLedger.findUnique({ where: { shop: shop.domain } });
  if (existing) return existing;
  const last = await db.orderLink.findFirst({
    where: { shop: shop.domain, orderCreatedAt: { not: null } },
    orderBy: { orderCreatedAt: "desc" },
    select: { orderCreatedAt: true },
  });
  const coverageFrom = firstCoverage({ installedAt: shop.installedAt, lastSeenOrderAt: last?.orderCreatedAt ?? null });
  return db.syncLedger.upsert({
    where: { shop: shop.domain },
    create: { shop: shop.domain, coverageFrom },
    update: {},
  });
}

/** Moves the coverage start to `at` when it is earlier (never back): one statement, for a transaction. */
export function coverFrom(db: Db, shop: string, at: Date): Prisma.PrismaPromise<Prisma.BatchPayload> {
  return db.syncLedger.updateMany({ where: { shop, coverageFrom: { lt: at } }, data: { coverageFrom: at } });
}

/** The coverage start as the ledger holds it now (retention may have moved it since a pass began). */
export async function currentCoverage(db: Db, shop: string): Promise<Date | null> {
  const row = await db.syncLedger.findUnique({ where: { shop }, select: { coverageFrom: true } });
  return row?.coverageFrom ?? null;
}

export const later = (a: Date, b: Date | null): Date => (b && b > a ? b : a);
