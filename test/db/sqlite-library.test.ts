/**
 * Two copies of SQLite in one process do not see each other's POSIX locks, and
 * a process that opens one database file through both can corrupt it (seen here
 * as SQLITE_CORRUPT when a second copy checkpointed the app's database). Tests,
 * migrations and scripts open files with @libsql/client while Prisma's adapter
 * holds them: they must load the same copy.
 */
import { createRequire } from "node:module";
import { describe, expect, it } from "vitest";

describe("SQLite library", () => {
  it("is loaded once: the root @libsql/client is the one Prisma's adapter uses", () => {
    const require = createRequire(import.meta.url);
    const ours = require.resolve("@libsql/client");
    const prismas = createRequire(require.resolve("@prisma/adapter-libsql")).resolve("@libsql/client");
    expect(prismas).toBe(ours);
  });

  it("is loaded once: the libsql the app opens files with (app/db/sqlite-connection.ts) is @libsql/client's", () => {
    const require = createRequire(import.meta.url);
    const clients = createRequire(require.resolve("@libsql/client")).resolve("libsql");
    expect(clients).toBe(require.resolve("libsql"));
  });
});
