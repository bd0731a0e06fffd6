/**
 * Advisory locks for a transaction that reads rows and then writes a total
 * computed from them (a recount, not an increment).
 */
import type { PrismaClient } from "@prisma/client";
import { sqlOf, statement } from "./sql";

type LockingClient = Pick<PrismaClient, "$queryRaw" | "$queryRawUnsafe" | "$executeRawUnsafe">;

// Sorted first, then locked one row at a time in that order.
const LOCK_KEYS = statement(
  `SELECT pg_advisory_xact_lock(hashtextextended("k", 0)) FROM (SELECT "k" FROM unnest(CAST(? AS text[])) AS "k" ORDER BY "k") AS "sorted"`,
);

/**
 * Holds `scope:key` for each key until the transaction ends, so two such
 * transactions on one key run one after the other: under READ COMMITTED they
 * would run side by side, and the second would overwrite the first's total
 * without its row. Keys are taken in sorted order: two transactions never wait
 * on each other in a cycle. One statement for all of them.
 */
export async function lockKeysForTransaction(tx: LockingClient, scope: string, keys: Iterable<string>): Promise<void> {
  const all = [...new Set(keys)].map((key) => `${scope}:${key}`);
  if (all.length > 0) await sqlOf(tx as PrismaClient).run(LOCK_KEYS, [all]);
}
