import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { useTestDatabaseForApp } from "../helpers/app";
import type { TestDatabase } from "../helpers/db";

let db: TestDatabase;
beforeAll(async () => {
  db = await useTestDatabaseForApp();
});
afterAll(() => db.cleanup());

describe("/healthz", () => {
  it("answers 200 without authentication when the database answers", async () => {
    const { loader } = await import("../../app/routes/healthz");
    const response = await loader();
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ status: "ok", database: "ok" });
    // It checked this file's database, not a default one.
    const { default: prisma } = await import("../../app/db.server");
    await prisma.$executeRawUnsafe("CREATE TABLE healthz_probe (id INTEGER)");
    expect(await db.prisma.$queryRawUnsafe("SELECT name FROM sqlite_master WHERE name = 'healthz_probe'")).toHaveLength(1);
  });

  it("reports a database that cannot be opened", async () => {
    const { createPrismaClient } = await import("../../app/db.server");
    const { checkDatabase } = await import("../../app/models/health.server");
    const broken = createPrismaClient("file:/nonexistent-dir/never/there.sqlite");
    const health = await checkDatabase(broken);
    expect(health.ok).toBe(false);
  });
});
