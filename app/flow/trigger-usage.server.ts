/**
 * Whether a Flow trigger may fire for a shop: Flow's lifecycle callback (recordTriggerUsage) said an enabled workflow
 * of the shop uses it. Every firing waits on this, so a shop with no workflow costs one indexed read and no call.
 */
import type { Prisma } from "@prisma/client";
import type { Db } from "../db.server";
import { sqlOf, statement } from "../db/sql";
import type { FlowTriggerHandle } from "./triggers";

const TRIGGERS_IN_USE = statement(
  `SELECT "handle" FROM "FlowTriggerUsage" WHERE "shop" = ? AND "hasEnabledFlow" = TRUE`,
);

/** The handles of the shop's triggers an enabled workflow uses. */
export async function triggersInUse(tx: Prisma.TransactionClient, shop: string): Promise<Set<string>> {
  const rows = await sqlOf(tx).all(TRIGGERS_IN_USE, [shop]);
  return new Set(rows.map((r) => String(r.handle)));
}

/** One trigger's answer, for the checks that fire a single trigger (payment overdue, order stuck). */
export async function triggerInUse(db: Db | Prisma.TransactionClient, shop: string, handle: FlowTriggerHandle) {
  const usage = await db.flowTriggerUsage.findUnique({
    where: { shop_handle: { shop, handle } },
    select: { hasEnabledFlow: true },
  });
  return usage?.hasEnabledFlow === true;
}
