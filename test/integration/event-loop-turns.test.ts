/**
 * A long chain of awaited statements (a status-sync batch with its handlers)
 * leaves the event loop turns on either database: on SQLite, whose driver runs
 * each statement synchronously, only because the client gives the loop a turn
 * every few milliseconds of statements (app/db-client.ts), outside transactions.
 */
import { afterAll, beforeAll, expect, it } from "vitest";
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

it("WHEN the chain is a write transaction THEN it commits as one, and on SQLite runs to its end without a turn (it holds the file's write lock)", async () => {
  let turns = 0;
  const ticker = setInterval(() => turns++, 1);
  let turnsInside = 0;
  try {
    await db.prisma.$transaction(
      async (tx) => {
        const before = turns;
        const started = performance.now();
        // Well past a slice of statements.
        for (let i = 0; performance.now() - started < 40 || i < 100; i++) {
          await tx.job.create({ data: { kind: "turns", key: `turns:${i}`, payload: "{}" } });
        }
        turnsInside = turns - before;
      },
      { timeout: 60_000 },
    );
  } finally {
    clearInterval(ticker);
  }
  if (!onPostgres) expect(turnsInside).toBe(0);
  expect(await db.prisma.job.count({ where: { kind: "turns" } })).toBeGreaterThanOrEqual(100);
});
