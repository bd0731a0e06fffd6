/**
 * The status sync's cost follows what changed: a cycle writes only the leads
 * whose status moved, queues no write-back job while write-back is off, and
 * the interval between cycles stretches with the leads in motion.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { startSandbox, sandboxControl } from "../../sandbox/index";
import { useTestDatabaseForApp } from "../helpers/app";
import type { TestDatabase } from "../helpers/db";
import { webhookOrder } from "../helpers/orders";
import { connectTestShop, SHOP, testPipeline, type TestPipeline } from "../helpers/pipeline";
import { loadTrackedLinks, WRITE_BATCH } from "../../app/sync/status-sync.server";
import { nextSyncMinutes } from "../../app/sync/sync-schedule.server";
import { isInProcessWorkerEnabled } from "../../app/queue/in-process.server";
import { parseWorkerEnv } from "../../app/env.server";

const WRITE_BACK_OFF = { writeBack: { tags: false, fulfillment: false, markPaid: false, cancel: false } };

let db: TestDatabase;
let sandbox: Awaited<ReturnType<typeof startSandbox>>;
let control: ReturnType<typeof sandboxControl>;
let pipeline: TestPipeline;
let nextId = 5_570_000_000_000;

async function seedLeads(count: number) {
  const { intakeOrderCreated } = await import("../../app/sync/order-intake.server");
  for (let i = 0; i < count; i++) {
    const body = webhookOrder({ id: nextId++, phone: `06${String(20000000 + i).padStart(8, "0")}` });
    await db.prisma.$transaction((tx) => intakeOrderCreated(tx, SHOP, body));
  }
  await pipeline.drain({ kinds: ["post-lead"] });
  return db.prisma.orderLink.findMany({ where: { shop: SHOP, leadRef: { not: null } }, orderBy: { createdAt: "asc" } });
}

async function runSync() {
  const { syncShopStatuses } = await import("../../app/sync/status-sync.server");
  const shop = await db.prisma.shop.findUniqueOrThrow({ where: { domain: SHOP } });
  return syncShopStatuses(pipeline.deps, shop, pipeline.deps.connect(shop).client);
}

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
  await control.config({ rate_limit_per_minute: 100_000 });
  await db.prisma.job.deleteMany();
  await db.prisma.timelineEvent.deleteMany();
  await db.prisma.orderLink.deleteMany();
  await connectTestShop(db.prisma, {
    apiKey: keys.find((k) => k.account === "ACC-1001")!.key,
    baseUrl: sandbox.url,
    settings: WRITE_BACK_OFF,
  });
});

describe("status sync cost", () => {
  it("reads every lead in motion once, page after page, including leads that share a reference across a page's end", async () => {
    // 1,200 tracked links over 3 pages; 30 of them share one reference across the first page's end (500).
    const refOf = (i: number) => `ATB-${String(i < 490 ? i : i < 520 ? 490 : i).padStart(6, "0")}`;
    const link = (i: number, extra: object = {}) => ({
      shop: SHOP,
      orderId: String(8_000_000 + i),
      orderName: `#T${i}`,
      payload: "{}",
      externalRef: `shopify:${8_000_000 + i}`,
      state: "created",
      leadRef: refOf(i),
      confirmationStatus: "new",
      shippingStatus: "pending",
      ...extra,
    });
    await db.prisma.orderLink.createMany({ data: Array.from({ length: 1200 }, (_, i) => link(i)) });
    // Not in motion: final, no lead, not posted, or another shop's.
    await db.prisma.orderLink.createMany({
      data: [
        link(2000, { statusFinal: true }),
        link(2001, { leadRef: null, state: "held" }),
        link(2002, { state: "failed" }),
        { ...link(2003), shop: "other-shop.myshopify.com" },
      ],
    });
    const tracked = await loadTrackedLinks(db.prisma, SHOP);
    const orderIds = tracked.map((l) => Number(l.orderId) - 8_000_000);
    expect(new Set(orderIds).size).toBe(orderIds.length);
    expect(orderIds.sort((a, b) => a - b)).toEqual(Array.from({ length: 1200 }, (_, i) => i));
  });

  it("writes only the leads that changed, and none on a cycle where nothing moved", async () => {
    const links = await seedLeads(6);
    await control.advance(links[0].leadRef!, { confirmation_status: "confirmed" });
    await control.advance(links[1].leadRef!, { confirmation_status: "no_answer_1" });
    const untouched = await db.prisma.orderLink.findUniqueOrThrow({ where: { id: links[5].id } });

    const first = await runSync();
    expect(first).toMatchObject({ tracked: 6, updated: 2, rowsWritten: 2 });
    expect(first.wallMs).toBeGreaterThanOrEqual(0);
    // An unchanged lead's row is not touched.
    expect((await db.prisma.orderLink.findUniqueOrThrow({ where: { id: links[5].id } })).updatedAt).toEqual(
      untouched.updatedAt,
    );

    const second = await runSync();
    expect(second).toMatchObject({ tracked: 6, updated: 0, rowsWritten: 0 });
  });

  it("writes every changed lead, once, when the changes span several transactions", async () => {
    const count = WRITE_BATCH * 2 + 5;
    const links = await seedLeads(count);
    for (const link of links) await control.advance(link.leadRef!, { confirmation_status: "confirmed" });

    const cycle = await runSync();
    expect(cycle).toMatchObject({ tracked: count, updated: count, rowsWritten: count });
    const rows = await db.prisma.timelineEvent.groupBy({
      by: ["linkId"],
      where: { kind: "status_changed" },
      _count: true,
    });
    expect(rows).toHaveLength(count);
    expect(rows.every((r) => r._count === 1)).toBe(true);
    expect(await db.prisma.orderLink.count({ where: { confirmationStatus: "confirmed" } })).toBe(count);
    // Hundreds of orders posted, advanced and synced: minutes on a loaded machine.
  }, 600_000);

  it("queues no write-back job while every write-back toggle is off", async () => {
    const links = await seedLeads(3);
    for (const link of links) await control.advance(link.leadRef!, { confirmation_status: "confirmed" });
    const report = await runSync();
    expect(report.updated).toBe(3);
    expect(await db.prisma.job.count({ where: { kind: "write-back" } })).toBe(0);
  });
});

describe("interval between cycles", () => {
  const base = { settingMinutes: 10, ratePerMinute: 60, eventsConfigured: false };
  it("keeps the shop's setting while the leads in motion are few", () => {
    expect(nextSyncMinutes({ ...base, tracked: 200 })).toBe(10);
  });
  it("stretches so a cycle's list calls fit in a quarter of the key's rate", () => {
    // 10,000 leads: 100 list calls; a quarter of 60/min is 15 calls a minute.
    expect(nextSyncMinutes({ ...base, settingMinutes: 1, tracked: 10_000 })).toBe(Math.ceil(100 / 15));
    expect(nextSyncMinutes({ ...base, tracked: 50_000 })).toBe(Math.ceil(500 / 15));
  });
  it("stretches with the leads in motion even on a fast key", () => {
    expect(nextSyncMinutes({ ...base, settingMinutes: 1, ratePerMinute: 60_000, tracked: 10_000 })).toBe(2);
  });
  it("polls far less when platform events are the primary source", () => {
    expect(nextSyncMinutes({ ...base, tracked: 200, eventsConfigured: true })).toBe(60);
    expect(nextSyncMinutes({ ...base, settingMinutes: 24 * 60, tracked: 10, eventsConfigured: true })).toBe(24 * 60);
  });
});

describe("where jobs run", () => {
  it("runs them in their own process in production unless WORKER_IN_PROCESS=true", () => {
    expect(isInProcessWorkerEnabled(parseWorkerEnv({ NODE_ENV: "production" }))).toBe(false);
    expect(isInProcessWorkerEnabled(parseWorkerEnv({ NODE_ENV: "production", WORKER_IN_PROCESS: "true" }))).toBe(true);
    expect(isInProcessWorkerEnabled(parseWorkerEnv({ NODE_ENV: "development" }))).toBe(true);
    expect(isInProcessWorkerEnabled(parseWorkerEnv({ NODE_ENV: "development", WORKER_IN_PROCESS: "false" }))).toBe(
      false,
    );
  });
  it("runs several jobs at once by default, and names a malformed count instead of falling back", () => {
    expect(parseWorkerEnv({}).WORKER_CONCURRENCY).toBe(4);
    expect(parseWorkerEnv({ WORKER_CONCURRENCY: "8" }).WORKER_CONCURRENCY).toBe(8);
    expect(() => parseWorkerEnv({ WORKER_CONCURRENCY: "zero" })).toThrow(/WORKER_CONCURRENCY/);
  });
});
