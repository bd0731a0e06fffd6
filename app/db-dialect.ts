/**
 * Where SQLite and PostgreSQL differ for the app's own SQL, decided in one
 * place. Most raw SQL here is written once for both (quoted identifiers,
 * INSERT ... ON CONFLICT, octet_length); what cannot be goes through here.
 */
import type { PrismaClient } from "@prisma/client";
import type { DatabaseKind } from "./db-url";

type AnyClient = Pick<PrismaClient, "$queryRaw">;

/**
 * The database a client (or a transaction's client) talks to. Read from the
 * provider the generated client was built for: the SQLite and the PostgreSQL
 * clients differ only in that (app/db-client.ts).
 */
export function databaseKindOf(db: AnyClient): DatabaseKind {
  const provider = (db as unknown as { _activeProvider?: string })._activeProvider;
  return provider === "postgresql" || provider === "postgres" ? "postgres" : "sqlite";
}

