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
    const body = await response.json();
    expect(body).toMatchObject({
      status: "ok",
      database: { kind: "postgres", reachable: true },
    });
    // This process's event-loop delay, in its current 10 s window.
    expect(body.eventLoop.current).toMatchObject({ p99Ms: expect.any(Number), maxMs: expect.any(Number) });
    expect(body.eventLoop.current.maxMs).toBeGreaterThanOrEqual(body.eventLoop.current.p99Ms);
    // It checked this file's database, not a default one.
    const { default: prisma } = await import("../../app/db.server");
    await prisma.$executeRawUnsafe("CREATE TABLE healthz_probe (id INTEGER)");
    const probe = "SELECT table_name::text FROM information_schema.tables WHERE table_name = 'healthz_probe'";
    expect(await db.prisma.$queryRawUnsafe(probe)).toHaveLength(1);
  });

  it("reports a blocked event loop in its delay", async () => {
    const { eventLoopHealth } = await import("../../app/runtime/health.server");
    await new Promise((r) => setTimeout(r, 50));
    const until = Date.now() + 120;
    while (Date.now() < until) {
      // busy: the loop cannot run for 120 ms
    }
    await new Promise((r) => setTimeout(r, 20));
    expect(eventLoopHealth().current.maxMs).toBeGreaterThanOrEqual(100);
  });

  it("reports a database that cannot be opened", async () => {
    const { createPrismaClient } = await import("../../app/db.server");
    const { checkDatabase } = await import("../../app/runtime/health.server");
    // A database that does not exist on the same server.
    const missing = Object.assign(new URL(db.url), { pathname: "/never_there" }).toString();
    const broken = createPrismaClient(missing);
    const health = await checkDatabase(broken);
    expect(health).toMatchObject({ ok: false, kind: "postgres" });
    // The error's class only: the driver's message could carry the URL and its password.
    expect(JSON.stringify(health)).not.toContain(new URL(db.url).password);
    await broken.$disconnect();
  });
});
