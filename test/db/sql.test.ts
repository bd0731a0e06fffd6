/**
 * Prepared SQL (app/db/sql): one statement text runs through the app client's
 * driver (as a named prepared statement) and inside Prisma transactions; values
 * keep their meaning both ways; a transaction commits as one or not at all; a
 * statement of the driver never slips into a Prisma transaction open meanwhile.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { asBool, asDate, asNumber, newId, sqlDatabaseOf, sqlOf, statement } from "../../app/db/sql";
import { createTestDatabase, type TestDatabase } from "../helpers/db";

let t: TestDatabase;
beforeAll(async () => {
  t = await createTestDatabase();
});
afterAll(async () => {
  await t.cleanup();
});
beforeEach(async () => {
  await t.prisma.job.deleteMany();
});

const insertJob =
  statement(`INSERT INTO "Job" ("id", "kind", "key", "shop", "payload", "state", "runAt", "attempts", "maxAttempts", "rerun", "createdAt", "updatedAt")
  VALUES (?, ?, ?, ?, '{}', 'pending', ?, 0, 10, ?, ?, ?)`);
const jobsByKey = statement(
  `SELECT "key", "runAt", "rerun", "attempts" FROM "Job" WHERE "key" = ANY(?) ORDER BY "key"`,
);

async function insert(db: Parameters<typeof sqlOf>[0], key: string, runAt: Date, rerun = false) {
  const now = new Date();
  return sqlOf(db).run(insertJob, [newId(), "k", key, null, runAt, rerun, now, now]);
}

describe("prepared SQL", () => {
  it("WHEN a row goes in through the driver THEN Prisma reads it as its own (dates, booleans), and the driver reads Prisma's rows back", async () => {
    const runAt = new Date("2026-11-26T10:00:00.123Z");
    expect(await insert(t.prisma, "a", runAt, true)).toBe(1);
    const job = await t.prisma.job.findUniqueOrThrow({ where: { key: "a" } });
    expect(job).toMatchObject({ runAt, rerun: true, state: "pending", payload: "{}" });
    await t.prisma.job.create({ data: { kind: "k", key: "b", runAt, attempts: 3 } });

    const rows = await sqlOf(t.prisma).all(jobsByKey, [["a", "b", "missing"]]);

    expect(
      rows.map((r) => ({ key: r.key, runAt: asDate(r.runAt), rerun: asBool(r.rerun), attempts: asNumber(r.attempts) })),
    ).toEqual([
      { key: "a", runAt, rerun: true, attempts: 0 },
      { key: "b", runAt, rerun: false, attempts: 3 },
    ]);
  });

  it("WHEN a date is compared in SQL THEN the stored dates order as times", async () => {
    await insert(t.prisma, "early", new Date("2026-11-26T09:59:59.999Z"));
    await insert(t.prisma, "late", new Date("2026-11-26T10:00:00.001Z"));
    const due = statement(`SELECT "key" FROM "Job" WHERE "runAt" <= ? ORDER BY "runAt"`);
    expect((await sqlOf(t.prisma).all(due, [new Date("2026-11-26T10:00:00.000Z")])).map((r) => r.key)).toEqual([
      "early",
    ]);
  });

  it("WHEN a transaction's work throws THEN none of its writes stay; WHEN it returns THEN all do", async () => {
    const db = sqlDatabaseOf(t.prisma);
    await expect(
      db.transaction(async (tx) => {
        await insert(tx, "rolled-1", new Date());
        await insert(tx, "rolled-2", new Date());
        throw new Error("no");
      }),
    ).rejects.toThrow("no");
    expect(await t.prisma.job.count()).toBe(0);

    expect(
      await db.transaction(
        async (tx) => (await insert(tx, "kept-1", new Date())) + (await insert(tx, "kept-2", new Date())),
      ),
    ).toBe(2);
    expect(await t.prisma.job.count()).toBe(2);
  });

  it("WHEN a statement runs through sqlOf(tx) inside a Prisma transaction THEN it is part of that transaction", async () => {
    await expect(
      t.prisma.$transaction(async (tx) => {
        await insert(tx, "in-prisma-tx", new Date());
        expect(await tx.job.count()).toBe(1);
        throw new Error("roll back");
      }),
    ).rejects.toThrow("roll back");
    expect(await t.prisma.job.count()).toBe(0);
  });

  it("GIVEN a Prisma transaction open WHEN the driver runs a statement meanwhile THEN it never joins the transaction", async () => {
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    let entered!: () => void;
    const inside = new Promise<void>((resolve) => (entered = resolve));
    const prismaTx = t.prisma
      .$transaction(async (tx) => {
        await tx.job.create({ data: { kind: "k", key: "prisma-side" } });
        entered();
        await held;
        throw new Error("roll back");
      })
      .catch((e: Error) => e.message);
    await inside;
    const outside = insert(t.prisma, "driver-side", new Date());
    await new Promise((r) => setTimeout(r, 50));
    release();
    expect(await prismaTx).toBe("roll back");
    expect(await outside).toBe(1);
    expect((await t.prisma.job.findMany({ select: { key: true } })).map((j) => j.key)).toEqual(["driver-side"]);
  });

  it("WHEN ids are made in a row THEN they are unique, cuid-shaped and ordered by creation", () => {
    const ids = Array.from({ length: 2000 }, () => newId());
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids.every((id) => /^c[0-9a-z]{24}$/.test(id))).toBe(true);
    expect([...ids].sort()).toEqual(ids);
  });

  it("the driver is the app client's own, and runs each statement as a named prepared statement", async () => {
    expect(sqlOf(t.prisma)).toBe(sqlDatabaseOf(t.prisma));
    const prepared = statement(`SELECT "name" FROM pg_prepared_statements`);
    const names = await sqlDatabaseOf(t.prisma).transaction(async (tx) => {
      await insert(tx, "prepared", new Date());
      return (await tx.all(prepared)).map((r) => r.name);
    });
    expect(names).toEqual(expect.arrayContaining([insertJob.name, prepared.name]));
  });
});
