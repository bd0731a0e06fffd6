/** The embedded default: a SQLite file under prisma/, relative to the project root. */
export const DEFAULT_DATABASE_URL = "file:./prisma/dev.sqlite";

/**
 * Which database a DATABASE_URL names: SQLite (through libsql: file:, libsql:,
 * http(s): for a libsql server) or PostgreSQL. One deployment runs on one kind.
 */
export type DatabaseKind = "sqlite" | "postgres";

export const POSTGRES_URL = /^postgres(ql)?:\/\//i;
export const SQLITE_URL = /^(file:|libsql:|https?:)/i;

export class UnsupportedDatabaseUrlError extends Error {
  constructor() {
    // Never the URL itself: it can carry a password.
    super(
      "DATABASE_URL must be a SQLite URL (file:./prisma/dev.sqlite) or a PostgreSQL URL (postgresql://user:password@host:5432/db)",
    );
    this.name = "UnsupportedDatabaseUrlError";
  }
}

export function databaseKind(url: string): DatabaseKind {
  if (POSTGRES_URL.test(url)) return "postgres";
  if (SQLITE_URL.test(url)) return "sqlite";
  throw new UnsupportedDatabaseUrlError();
}
