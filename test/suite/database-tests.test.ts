/**
 * The rule that picks the PostgreSQL project's files (test/helpers/database-tests.ts):
 * what opens a database runs on both, the pure rest once.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { closureOf, DATABASE_DOORS, runtimeImports, selectDatabaseTests } from "../helpers/database-tests";

const root = join(import.meta.dirname, "..", "..");
const { database, pure } = selectDatabaseTests();

describe("tests that reach a database run on PostgreSQL too", () => {
  it("splits every test file in one of the two lists", () => {
    expect(database.length).toBeGreaterThan(40);
    expect(pure.length).toBeGreaterThan(40);
    expect(new Set([...database, ...pure]).size).toBe(database.length + pure.length);
  });

  it("selects every file that imports the database helper or the app's client itself", () => {
    for (const file of pure) {
      const text = readFileSync(join(root, file), "utf8");
      expect(text, file).not.toMatch(/from "(\.\.\/)+(helpers\/db|app\/db\.server|app\/db\/client)"/);
    }
    expect(database).toContain("test/sync/post-lead.test.ts");
  });

  it("follows imports through helpers, the app and the scripts, but not type-only ones", () => {
    // The pipeline test reaches the helper through test/helpers/pipeline.ts, the app, or both.
    expect(DATABASE_DOORS.some((door) => closureOf("test/sync/status-sync.test.ts").has(door))).toBe(true);
    // orders.server imports the database's type only: the pure mapper's tests stay pure.
    expect(runtimeImports("app/pages/orders.server.ts")).not.toContain("app/db.server.ts");
    expect(pure).toEqual(
      expect.arrayContaining([
        "test/leads/map-order.test.ts",
        "test/seller-api/client-methods.test.ts",
        "test/sandbox/rate-limit.test.ts",
      ]),
    );
  });
});
