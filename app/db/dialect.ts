/**
 * Where SQLite and PostgreSQL differ for the app's own SQL, decided in one
 * place. Most raw SQL here is written once for both (quoted identifiers,
 * INSERT ... ON CONFLICT, octet_length); what cannot be goes through here.
 */
import type { PrismaClient } from "@prisma/client";
import { databaseKindOf, sqlOf, statement } from "./sql";

/** The database a client (or a transaction's client) talks to (defined with the prepared SQL, which needs it too). */
export { databaseKindOf } from "./sql";

type LockingClient = Pick<PrismaClient, "$queryRaw" | "$queryRawUnsafe" | "$executeRawUnsafe">;

// Sorted first, then locked one row at a time in that order.
const LOCK_KEYS = statement(
  `SELECT pg_advisory_xact_lock(hashtextextended("k", 0)) FROM (SELECT "k" FROM unnest(CAST(? AS text[])) AS "k" ORDER BY "k") AS "sorted"`,
);

/**
 * For a transaction that reads rows and then writes a total computed from them
 * (a recount, not an increment): holds `scope:key` for each key until the
 * transaction ends, so two such transactions on one key run one after the
 * other. SQLite already runs them so (every write transaction takes the
 * database's one write lock up front, app/db/client.ts); PostgreSQL runs them
 * side by side under READ COMMITTED, where the second would overwrite the
 * first's total without its row. Keys are taken in sorted order: two
 * transactions never wait on each other in a cycle. One statement for all of them.
 */
export async function lockKeysForTransaction(tx: LockingClient, scope: string, keys: Iterable<string>): Promise<void> {
  if (databaseKindOf(tx) !== "postgres") return;
  const all = [...new Set(keys)].map((key) => `${scope}:${key}`);
  if (all.length > 0) await sqlOf(tx as PrismaClient).run(LOCK_KEYS, [all]);
}
