/**
 * The fair claim: shops with due work take turns, whatever the size of each
 * one's backlog; jobs without a shop are a turn of their own.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { claimNextJob, completeJob, enqueueJob, enqueueNewJobs } from "../../app/queue/jobs.server";
import { createTestDatabase, type TestDatabase } from "../helpers/db";
import { fakeClock, type FakeClock } from "./helpers";

let t: TestDatabase;
beforeAll(async () => {
  t = await createTestDatabase();
});
afterAll(async () => {
  await t.cleanup();
});
beforeEach(async () => {
  await t.prisma.job.deleteMany();
  await t.prisma.queueTurn.deleteMany();
});

const LEASE_MS = 60_000;
const FLASH = "flash.myshopify.com";

/** Claims and completes `n` jobs one at a time; returns each job's shop ("-" for none). */
async function run(n: number, clock: FakeClock): Promise<string[]> {
  const shops: string[] = [];
  for (let i = 0; i < n; i++) {
    const job = await claimNextJob(t.prisma, { owner: "w", leaseMs: LEASE_MS, now: clock.now() });
    if (!job) break;
    shops.push(job.shop ?? "-");
    expect(await completeJob(t.prisma, job, "w")).toBe(true);
    clock.advance(1);
  }
  return shops;
}

/** A due post of x.myshopify.com written without enqueue, so its shop has no turn. */
async function writeOrphan(clock: FakeClock) {
  await t.prisma.job.create({
    data: { kind: "post-lead", key: "orphan", shop: "x.myshopify.com", runAt: new Date(clock.now().getTime() - 1000) },
  });
}

async function flashSaleThenOthers(clock: FakeClock) {
  // The flash sale's 300 jobs are all older than the other shops' jobs.
  for (let i = 0; i < 300; i++) {
    await enqueueJob(t.prisma, {
      kind: "post-lead",
      key: `flash:${i}`,
      shop: FLASH,
      runAt: new Date(clock.now().getTime() - 60_000),
    });
  }
  for (const shop of ["b.myshopify.com", "c.myshopify.com"]) {
    for (let i = 0; i < 3; i++)
      await enqueueJob(t.prisma, { kind: "post-lead", key: `${shop}:${i}`, shop, runAt: clock.now() });
  }
  for (let i = 0; i < 3; i++) await enqueueJob(t.prisma, { kind: "retention", key: `global:${i}`, runAt: clock.now() });
}

describe("fair claim", () => {
  it("GIVEN one shop's 300-job backlog older than three other turns WHEN 12 jobs run THEN each of the four turns gets 3", async () => {
    const clock = fakeClock();
    await flashSaleThenOthers(clock);

    const served = await run(12, clock);

    const count = (s: string) => served.filter((x) => x === s).length;
    expect({
      flash: count(FLASH),
      b: count("b.myshopify.com"),
      c: count("c.myshopify.com"),
      global: count("-"),
    }).toEqual({
      flash: 3,
      b: 3,
      c: 3,
      global: 3,
    });
    // Turns, not batches: no turn-holder is served twice before every other one was served once.
    for (let round = 0; round < 3; round++) expect(new Set(served.slice(round * 4, round * 4 + 4)).size).toBe(4);
  });

  it("GIVEN the other shops drained WHEN the backlog runs on THEN it gets every claim, and turns of idle shops are gone", async () => {
    const clock = fakeClock();
    await flashSaleThenOthers(clock);
    await run(10, clock);

    const rest = await run(400, clock);

    expect(rest.length).toBe(299);
    expect(rest.slice(2).every((s) => s === FLASH)).toBe(true);
    expect(await t.prisma.job.count({ where: { state: { not: "done" } } })).toBe(0);
    // Nothing due: the claim of the shop alone says so in one statement; the full claim, at most one
    // discovery interval (5 s) later, finds nothing due either and leaves no shop a turn.
    expect(await claimNextJob(t.prisma, { owner: "w", leaseMs: LEASE_MS, now: clock.now() })).toBeNull();
    clock.advance(5_000);
    expect(await claimNextJob(t.prisma, { owner: "w", leaseMs: LEASE_MS, now: clock.now() })).toBeNull();
    expect(await t.prisma.queueTurn.count()).toBe(0);
  });

  it("GIVEN a shop whose only job waits for a later runAt WHEN claiming THEN another shop's due job is served and the waiting shop keeps its turn", async () => {
    const clock = fakeClock();
    await enqueueJob(t.prisma, {
      kind: "post-lead",
      key: "later",
      shop: "a.myshopify.com",
      runAt: new Date(clock.now().getTime() + 60_000),
    });
    await enqueueJob(t.prisma, { kind: "post-lead", key: "now", shop: "b.myshopify.com", runAt: clock.now() });

    expect(await run(5, clock)).toEqual(["b.myshopify.com"]);
    // b's idle turn goes at the next full claim (discovery); a's stays while its job waits.
    clock.advance(5_000);
    expect(await run(5, clock)).toEqual([]);
    expect((await t.prisma.queueTurn.findMany()).map((r) => r.shop)).toEqual(["a.myshopify.com"]);
    clock.advance(60_000);
    expect(await run(5, clock)).toEqual(["a.myshopify.com"]);
  });

  it("GIVEN a due job whose shop has no turn (written without enqueue) WHEN claiming THEN it is still served", async () => {
    const clock = fakeClock();
    await writeOrphan(clock);

    expect(await run(5, clock)).toEqual(["x.myshopify.com"]);
  });

  it("GIVEN jobs queued in a batch (enqueueNewJobs) WHEN claiming THEN their shops take turns too", async () => {
    const clock = fakeClock();
    const inputs = [
      ...Array.from({ length: 20 }, (_, i) => ({
        kind: "k",
        key: `a:${i}`,
        shop: "a.myshopify.com",
        runAt: new Date(clock.now().getTime() - 1000),
      })),
      { kind: "k", key: "b:0", shop: "b.myshopify.com", runAt: clock.now() },
    ];
    await t.prisma.$transaction((tx) => enqueueNewJobs(tx, inputs));

    expect((await run(2, clock)).sort()).toEqual(["a.myshopify.com", "b.myshopify.com"]);
  });

  it("GIVEN a running job whose lease expired WHEN claiming THEN it is taken back before any turn", async () => {
    const clock = fakeClock();
    await enqueueJob(t.prisma, { kind: "k", key: "stalled", shop: "a.myshopify.com", runAt: clock.now() });
    const stalled = await claimNextJob(t.prisma, { owner: "dead-worker", leaseMs: 1000, now: clock.now() });
    await enqueueJob(t.prisma, { kind: "k", key: "fresh", shop: "b.myshopify.com", runAt: clock.now() });
    clock.advance(2000);

    const next = await claimNextJob(t.prisma, { owner: "w", leaseMs: LEASE_MS, now: clock.now() });

    expect(next).toMatchObject({ id: stalled!.id, attempts: 2, leaseOwner: "w" });
  });

  it("GIVEN a shop with two jobs of a kind running WHEN claiming THEN its third of that kind waits (default cap), its other kinds and jobs without a shop still run, and the cap can be lifted", async () => {
    const clock = fakeClock();
    for (let i = 0; i < 5; i++)
      await enqueueJob(t.prisma, { kind: "k", key: `a:${i}`, shop: "a.myshopify.com", runAt: clock.now() });
    await enqueueJob(t.prisma, { kind: "k", key: "global", runAt: clock.now() });
    const claim = (maxRunningPerShop?: number) =>
      claimNextJob(t.prisma, { owner: "w", leaseMs: LEASE_MS, now: clock.now(), maxRunningPerShop });

    const held = [await claim(), await claim(), await claim()];

    expect(held.map((j) => j?.shop ?? "-").sort()).toEqual(["-", "a.myshopify.com", "a.myshopify.com"]);
    expect(await claim()).toBeNull();
    // Per kind: the shop's other work is not held back by its posts.
    await enqueueJob(t.prisma, { kind: "other", key: "a:other", shop: "a.myshopify.com", runAt: clock.now() });
    expect(await claim()).toMatchObject({ shop: "a.myshopify.com", kind: "other" });
    expect(await claim()).toBeNull();
    expect((await claim(0))?.shop).toBe("a.myshopify.com");
    await completeJob(
      t.prisma,
      held.find((j) => j?.shop)!,
      "w",
    );
    expect(await claim(3)).toMatchObject({ shop: "a.myshopify.com" });
  });

  it("GIVEN one shop alone with its posts at their cap WHEN another shop's job, a job without a turn, or a due failed job of its own comes, or one of its posts ends THEN the next claim serves it", async () => {
    const clock = fakeClock();
    const A = "a.myshopify.com";
    for (let i = 0; i < 5; i++)
      await enqueueJob(t.prisma, { kind: "post-lead", key: `a:${i}`, shop: A, runAt: clock.now() });
    const claim = () => claimNextJob(t.prisma, { owner: "w", leaseMs: LEASE_MS, now: clock.now() });
    const posts = [await claim(), await claim()];
    expect(posts.map((j) => j?.shop)).toEqual([A, A]);
    // Alone, at its cap: nothing to claim, again and again.
    expect(await claim()).toBeNull();
    expect(await claim()).toBeNull();

    await enqueueJob(t.prisma, { kind: "post-lead", key: "b:0", shop: "b.myshopify.com", runAt: clock.now() });
    expect(await claim()).toMatchObject({ key: "b:0" });
    expect(await claim()).toBeNull();

    // Older than the shop's posts: the oldest due job, seen as the usual claim sees it.
    await writeOrphan(clock);
    expect(await claim()).toMatchObject({ key: "orphan" });
    expect(await claim()).toBeNull();

    await t.prisma.job.create({
      data: { kind: "write-back", key: "a:failed", shop: A, state: "failed", attempts: 1, runAt: clock.now() },
    });
    expect(await claim()).toMatchObject({ key: "a:failed" });
    expect(await claim()).toBeNull();

    expect(await completeJob(t.prisma, posts[0]!, "w")).toBe(true);
    expect(await claim()).toMatchObject({ shop: A, kind: "post-lead" });
    expect(await claim()).toBeNull();
  });
});
