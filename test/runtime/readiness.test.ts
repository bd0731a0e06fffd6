/**
 * Readiness says whether this process can serve: its database answers, the
 * schema is this build's (the migrations were applied), and its worker, where
 * it runs one, claims jobs and is not stopping.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase, type TestDatabase } from "../helpers/db";
import {
  checkReadiness,
  missingColumns,
  workerInstruments,
  workerStopping,
  WORKER_STALE_MS,
} from "../../app/runtime/readiness.server";

let db: TestDatabase;
beforeAll(async () => {
  db = await createTestDatabase();
});
afterAll(() => db.cleanup());

describe("readiness", () => {
  it("finds every table and column of the schema in a migrated database", async () => {
    expect(await missingColumns(db.prisma)).toEqual([]);
  });

  it("names what a database without the last migrations lacks, and is not ready on it", async () => {
    const behind = await createTestDatabase();
    try {
      await behind.prisma.$executeRawUnsafe('ALTER TABLE "Job" DROP COLUMN "rerun"');
      await behind.prisma.$executeRawUnsafe('DROP TABLE "QueueTurn"');
      const missing = await missingColumns(behind.prisma);
      expect(missing).toContain("Job.rerun");
      expect(missing).toEqual(expect.arrayContaining(["QueueTurn.shop"]));
      const report = await checkReadiness(behind.prisma);
      expect(report).toMatchObject({
        ready: false,
        database: { ok: true },
        schema: { ok: false, missing: expect.arrayContaining(["Job.rerun"]) },
      });
    } finally {
      await behind.cleanup();
    }
  });

  it("is ready with a worker that claims, and not once it stops or stalls", async () => {
    const { observer } = workerInstruments();
    observer.polled?.();
    expect(await checkReadiness(db.prisma)).toMatchObject({
      ready: true,
      schema: { ok: true },
      worker: { ok: true, stopping: false },
    });
    // A claim the database failed: not ready until one succeeds again.
    observer.polled?.(Object.assign(new Error("connection refused"), { name: "PrismaClientKnownRequestError" }));
    expect(await checkReadiness(db.prisma)).toMatchObject({
      ready: false,
      worker: { ok: false, error: "PrismaClientKnownRequestError" },
    });
    observer.polled?.();
    // Two minutes without a look for a job: its loops are stuck.
    expect(await checkReadiness(db.prisma, Date.now() + WORKER_STALE_MS + 1000)).toMatchObject({
      ready: false,
      worker: { ok: false },
    });
    workerStopping();
    expect(await checkReadiness(db.prisma)).toMatchObject({ ready: false, worker: { ok: false, stopping: true } });
  });
});
