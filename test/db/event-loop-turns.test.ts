/**
 * A long chain of awaited statements (a status-sync batch with its handlers)
 * leaves the event loop turns on either database: on SQLite, whose driver runs
 * each statement synchronously, only because the client gives the loop a turn
 * every few milliseconds of statements (app/db/client.ts), inside transactions
 * only for the process's one client of the file.
 */
import type { PrismaClient } from "@prisma/client";
import { afterAll, beforeAll, expect, it } from "vitest";
import { createPrismaClient } from "../../app/db/client";
import { createTestDatabase, onPostgres, type TestDatabase } from "../helpers/db";

let db: TestDatabase;
beforeAll(async () => {
  db = await createTestDatabase();
});
afterAll(async () => {
  await db.cleanup();
});

it("WHEN thousands of statements are awaited one after another THEN a timer due meanwhile runs before the chain ends", async () => {
  const CAP = 5_000;
  let timerRanAt = -1;
  let statements = 0;
  setTimeout(() => {
    timerRanAt = statements;
  }, 0);
  while (timerRanAt < 0 && statements < CAP) {
    await db.prisma.job.count({ where: { state: "pending" } });
    statements++;
  }
  // Without the turns, the timer waits for the whole chain: it would not have run yet.
  expect(timerRanAt).toBeGreaterThanOrEqual(0);
  expect(timerRanAt).toBeLessThan(CAP);
});

/** A transaction of at least 100 inserts lasting at least 40 ms; how many timer turns ran inside it, and what a read made meanwhile saw. */
async function longTransaction(client: PrismaClient, kind: string) {
  let turns = 0;
  let outsideRead: Promise<number> | undefined;
  const ticker = setInterval(() => {
    turns++;
    // A request arriving mid-transaction: on SQLite it waits for the commit, on PostgreSQL it reads the committed state.
    outsideRead ??= client.job.count({ where: { kind } });
  }, 1);
  let turnsInside = 0;
  try {
    await client.$transaction(
      async (tx) => {
        const before = turns;
        const started = performance.now();
        for (let i = 0; performance.now() - started < 40 || i < 100; i++) {
          await tx.job.create({ data: { kind, key: `${kind}:${i}`, payload: "{}" } });
        }
        turnsInside = turns - before;
      },
      { timeout: 60_000 },
    );
  } finally {
    clearInterval(ticker);
  }
  return { turnsInside, written: await client.job.count({ where: { kind } }), outsideRead: await outsideRead };
}

it("GIVEN the process's one client (the app's) WHEN a write transaction runs long THEN timers run during it, it commits as one, and a read from elsewhere in the process never sees part of it", async () => {
  const client = onPostgres ? db.prisma : createPrismaClient(db.url, { turnsInTransactions: true });
  try {
    const { turnsInside, written, outsideRead } = await longTransaction(client, "turns");
    expect(written).toBeGreaterThanOrEqual(100);
    expect(turnsInside).toBeGreaterThan(0);
    expect([0, written]).toContain(outsideRead);
  } finally {
    if (client !== db.prisma) await client.$disconnect();
  }
});

it("GIVEN a client that may share the file with another in the process (the default) WHEN a write transaction runs long THEN on SQLite it runs to its end without a turn", async () => {
  const { turnsInside, written } = await longTransaction(db.prisma, "no-turns");
  expect(written).toBeGreaterThanOrEqual(100);
  if (!onPostgres) expect(turnsInside).toBe(0);
});
