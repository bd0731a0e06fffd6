/**
 * A long chain of awaited statements (a status-sync batch with its handlers)
 * leaves the event loop turns, inside a transaction too, and the transaction
 * still commits as one.
 */
import type { PrismaClient } from "@prisma/client";
import { afterAll, beforeAll, expect, it } from "vitest";
import { createTestDatabase, type TestDatabase } from "../helpers/db";

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
    // A request arriving mid-transaction reads the committed state.
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

it("GIVEN the app's client WHEN a write transaction runs long THEN timers run during it, it commits as one, and a read from elsewhere in the process never sees part of it", async () => {
  const { turnsInside, written, outsideRead } = await longTransaction(db.prisma, "turns");
  expect(written).toBeGreaterThanOrEqual(100);
  expect(turnsInside).toBeGreaterThan(0);
  expect([0, written]).toContain(outsideRead);
});
