/**
 * The way back to Shopify, one hop shorter: a lead answered or a status the
 * platform changed wakes the order's write-back in the commit that records it
 * (its lead event still waiting to be told), due at the next 2 s boundary so
 * the ones woken together run as one batch; with every write-back toggle off
 * nothing is woken.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { startSandbox, sandboxControl } from "../../sandbox/index";
import { useTestDatabaseForApp } from "../helpers/app";
import type { TestDatabase } from "../helpers/db";
import { webhookOrder } from "../helpers/orders";
import { connectTestShop, SHOP, testPipeline, type TestPipeline } from "../helpers/pipeline";
import { createWorker } from "../../app/queue/worker.server";
import { enqueueJob } from "../../app/queue/jobs.server";
import { refreshLeadJobFor } from "../../app/models/job-kinds";
import { WRITE_BACK_EVERY_MS } from "../../app/sync/write-back-task.server";

let db: TestDatabase;
let sandbox: Awaited<ReturnType<typeof startSandbox>>;
let control: ReturnType<typeof sandboxControl>;
let pipeline: TestPipeline;
let apiKey: string;
let nextId = 5_570_000_000_000;

beforeAll(async () => {
  db = await useTestDatabaseForApp();
  sandbox = await startSandbox({ port: 0, quiet: true, rateLimitPerMinute: 100_000 });
  control = sandboxControl(sandbox.url);
  pipeline = testPipeline(db.prisma);
});
afterAll(async () => {
  await sandbox.close();
  await db.cleanup();
});
beforeEach(async () => {
  const { keys } = await control.reset();
  apiKey = keys.find((k) => k.account === "ACC-1001")!.key;
  await control.config({ rate_limit_per_minute: 100_000 });
  for (const table of ["job", "pendingLeadEvent", "timelineEvent", "orderLink"] as const)
    await (db.prisma[table] as { deleteMany(): Promise<unknown> }).deleteMany();
});

/** Runs due jobs of these kinds only, and tells no lead event (no worker task). */
const run = (kinds: string[]) =>
  createWorker({
    db: db.prisma,
    handlers: pipeline.handlers,
    kinds,
    logger: { info: () => {}, warn: () => {}, error: () => {} },
  }).drain({ timeoutMs: 60_000 });

async function postedLead(settings: Record<string, unknown> = {}) {
  await connectTestShop(db.prisma, { apiKey, baseUrl: sandbox.url, settings });
  const { intakeOrderCreated } = await import("../../app/sync/order-intake.server");
  await db.prisma.$transaction((tx) => intakeOrderCreated(tx, SHOP, webhookOrder({ id: nextId++ })));
  await run(["post-lead"]);
  return db.prisma.orderLink.findFirstOrThrow({ where: { shop: SHOP, leadRef: { not: null } } });
}

const writeBacks = () => db.prisma.job.findMany({ where: { kind: "write-back", shop: SHOP } });
const onBoundary = (at: Date) => at.getTime() % WRITE_BACK_EVERY_MS === 0;

describe("the way back to Shopify", () => {
  it("GIVEN write-back on WHEN a lead is answered THEN its write-back waits from the answer's commit, its lead event not yet told", async () => {
    const link = await postedLead();
    const [job] = await writeBacks();
    expect(job).toMatchObject({ state: "pending", payload: JSON.stringify({ linkId: link.id }) });
    expect(onBoundary(job.runAt)).toBe(true);
    expect(job.runAt.getTime() - link.postedAt!.getTime()).toBeGreaterThan(0);
    expect(job.runAt.getTime() - link.postedAt!.getTime()).toBeLessThanOrEqual(WRITE_BACK_EVERY_MS);
    const events = await db.prisma.pendingLeadEvent.findMany({ where: { linkId: link.id } });
    expect(events.map((e) => JSON.parse(e.event).kind)).toEqual(["answered"]);
  });

  it("GIVEN write-back on WHEN the platform's event says a lead moved THEN the re-read wakes its write-back in the commit that records the status", async () => {
    const link = await postedLead();
    await db.prisma.job.deleteMany({ where: { kind: "write-back" } });
    await db.prisma.pendingLeadEvent.deleteMany();
    await control.advance(link.leadRef!, { confirmation_status: "confirmed" });
    await enqueueJob(db.prisma, refreshLeadJobFor(SHOP, link.leadRef!));
    await run(["refresh-lead"]);

    const moved = await db.prisma.orderLink.findUniqueOrThrow({ where: { id: link.id } });
    expect(moved.confirmationStatus).toBe("confirmed");
    const [job] = await writeBacks();
    expect(job).toMatchObject({ state: "pending" });
    expect(onBoundary(job.runAt)).toBe(true);
    expect(job.runAt.getTime() - moved.statusCheckedAt!.getTime()).toBeLessThanOrEqual(WRITE_BACK_EVERY_MS);
    const events = await db.prisma.pendingLeadEvent.findMany({ where: { linkId: link.id } });
    expect(events.map((e) => JSON.parse(e.event).kind)).toEqual(["status"]);
  });

  it("GIVEN every write-back toggle off WHEN a lead is answered and then moves THEN no write-back is woken", async () => {
    const off = { writeBack: { tags: false, fulfillment: false, markPaid: false, cancel: false } };
    const link = await postedLead(off);
    await control.advance(link.leadRef!, { confirmation_status: "confirmed" });
    await enqueueJob(db.prisma, refreshLeadJobFor(SHOP, link.leadRef!));
    await run(["refresh-lead"]);
    expect((await db.prisma.orderLink.findUniqueOrThrow({ where: { id: link.id } })).confirmationStatus).toBe(
      "confirmed",
    );
    expect(await writeBacks()).toEqual([]);
  });
});
