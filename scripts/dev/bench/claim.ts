/**
 * `npm run bench -- claim [--pending 100000] [--shops 50] [--claims 200]`
 *
 * Time of one claim (claim + complete excluded) with a large backlog:
 * one shop holds most pending jobs (a flash sale), the other shops a few each,
 * plus some jobs without a shop. Reports the median and p95 claim time of the
 * fair claim and of a plain FIFO claim written here as the baseline (the oldest
 * due job, SKIP LOCKED: the order before turns), and the share of claims that
 * went to the big shop.
 */
import { parseArgs } from "node:util";
import { createPrismaClient } from "../../../app/db/client";
import { claimNextJob, completeJob } from "../../../app/queue/jobs.server";
import { discoverTurns } from "../../../app/queue/turns.server";
import { openBenchDatabase } from "./lib/bench-database";

const { values } = parseArgs({
  options: {
    pending: { type: "string", default: "100000" },
    shops: { type: "string", default: "50" },
    claims: { type: "string", default: "200" },
  },
});
const PENDING = Number(values.pending);
const SHOPS = Number(values.shops);
const CLAIMS = Number(values.claims);
const database = await openBenchDatabase();
const db = createPrismaClient(database.url);

try {
  const start = Date.now() - 3_600_000;
  const perSmallShop = 60;
  const small = (SHOPS - 1) * perSmallShop;
  const global = 100;
  const big = PENDING - small - global;
  const rows = [];
  for (let i = 0; i < big; i++)
    rows.push({ kind: "post-lead", key: `big:${i}`, shop: "flash.myshopify.com", runAt: new Date(start + i) });
  for (let s = 1; s < SHOPS; s++) {
    for (let i = 0; i < perSmallShop; i++)
      rows.push({
        kind: "post-lead",
        key: `s${s}:${i}`,
        shop: `shop-${s}.myshopify.com`,
        runAt: new Date(start + big + i * 1000),
      });
  }
  for (let i = 0; i < global; i++)
    rows.push({ kind: "retention", key: `g:${i}`, runAt: new Date(start + big + i * 1000) });
  // Some history, as a live database has: finished jobs are in the same table.
  for (let i = 0; i < PENDING / 2; i++)
    rows.push({
      kind: "post-lead",
      key: `done:${i}`,
      shop: `shop-${i % SHOPS}.myshopify.com`,
      state: "done",
      runAt: new Date(start),
    });
  for (let i = 0; i < rows.length; i += 5000) await db.job.createMany({ data: rows.slice(i, i + 5000) });
  await discoverTurns(db);
  console.log(
    `claim benchmark: ${PENDING} pending jobs (${big} in one shop, ${perSmallShop} in each of ${SHOPS - 1} others, ${global} without a shop), ${PENDING / 2} done`,
  );

  /** The baseline: the oldest due job whatever its shop, leased in one statement. */
  const claimFifo = async () => {
    const [job] = await db.$queryRawUnsafe<
      { id: string; shop: string | null; attempts: number; maxAttempts: number }[]
    >(
      `UPDATE "Job" SET "state" = 'running', "leaseOwner" = 'bench', "leaseExpiresAt" = $1, "attempts" = "attempts" + 1
       WHERE "id" = (SELECT "id" FROM "Job" WHERE "state" = 'pending' AND "runAt" <= $2 ORDER BY "runAt", "id" LIMIT 1 FOR UPDATE SKIP LOCKED)
       RETURNING "id", "shop", "attempts", "maxAttempts"`,
      new Date(Date.now() + 60_000),
      new Date(),
    );
    return job ?? null;
  };
  const claims = {
    fair: () => claimNextJob(db, { owner: "bench", leaseMs: 60_000, now: new Date() }),
    fifo: claimFifo,
  };
  for (const [order, claim] of Object.entries(claims)) {
    const times: number[] = [];
    let bigShare = 0;
    for (let i = 0; i < CLAIMS; i++) {
      const t0 = performance.now();
      const job = await claim();
      times.push(performance.now() - t0);
      if (!job) throw new Error("nothing claimed");
      if (job.shop === "flash.myshopify.com") bigShare++;
      // Back to pending, so every claim sees the same backlog.
      await completeJob(db, job, "bench");
      await db.job.update({ where: { id: job.id }, data: { state: "pending", attempts: 0 } });
    }
    times.sort((a, b) => a - b);
    const q = (p: number) => times[Math.min(times.length - 1, Math.floor(p * times.length))].toFixed(2);
    console.log(
      `${order}: claim median ${q(0.5)} ms, p95 ${q(0.95)} ms, max ${times.at(-1)!.toFixed(2)} ms; ${((100 * bigShare) / CLAIMS).toFixed(0)}% of claims went to the flash-sale shop`,
    );
  }
} finally {
  await db.$disconnect();
  await database.close();
}
