/**
 * Where SQLite and PostgreSQL differ for the app's own SQL, decided in one
 * place. Most raw SQL here is written once for both (quoted identifiers,
 * INSERT ... ON CONFLICT, octet_length); what cannot be goes through here.
 */
import type { PrismaClient } from "@prisma/client";
import type { DatabaseKind } from "./url";

type AnyClient = Pick<PrismaClient, "$queryRaw">;

/**
 * The database a client (or a transaction's client) talks to. Read from the
 * provider the generated client was built for: the SQLite and the PostgreSQL
 * clients differ only in that (app/db/client.ts).
 */
export function databaseKindOf(db: AnyClient): DatabaseKind {
  const provider = (db as unknown as { _activeProvider?: string })._activeProvider;
  return provider === "postgresql" || provider === "postgres" ? "postgres" : "sqlite";
}


type LockingClient = Pick<PrismaClient, "$queryRaw" | "$executeRaw">;

/**
 * For a transaction that reads rows and then writes a total computed from them
 * (a recount, not an increment): holds `scope:key` for each key until the
 * transaction ends, so two such transactions on one key run one after the
 * other. SQLite already runs them so (every write transaction takes the
 * database's one write lock up front, app/db/client.ts); PostgreSQL runs them
 * side by side under READ COMMITTED, where the second would overwrite the
 * first's total without its row. Keys are taken in sorted order: two
 * transactions never wait on each other in a cycle.
 */
export async function lockKeysForTransaction(tx: LockingClient, scope: string, keys: Iterable<string>): Promise<void> {
  if (databaseKindOf(tx) !== "postgres") return;
  for (const key of [...new Set(keys)].sort()) {
    await tx.$executeRaw`SELECT pg_advisory_xact_lock(hashtextextended(${`${scope}:${key}`}, 0))`;
  }
}
