/** The embedded default: a SQLite file under prisma/, relative to the project root. */
export const DEFAULT_DATABASE_URL = "file:./prisma/dev.sqlite";
