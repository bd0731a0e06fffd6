/**
 * Backfill page: starting a dry run or a run queues the shop's one backfill job;
 * the page reads its progress from the job row (so a reload shows where it is);
 * every call is scoped to the session's shop. The job itself: test/sync/backfill.test.ts.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { load, SHOP_A, SHOP_B, startAdminApp, stopAdminApp, submit, type AdminApp } from "./helpers";

type BackfillRoute = typeof import("../../app/routes/app.backfill");

let app: AdminApp;
let route: BackfillRoute;
const start = (shop: string, fields: Record<string, string>) =>
  submit(route.action, shop, "/app/backfill", { intent: "start", ...fields });
const jobOf = (shop: string) => app.db.prisma.job.findUnique({ where: { key: `backfill:${shop}` } });

beforeAll(async () => {
  app = await startAdminApp();
  route = await import("../../app/routes/app.backfill");
});
afterAll(() => stopAdminApp(app));

describe("backfill page", () => {
  it("shows no backfill before the first, and today's date for the form", async () => {
    const data = await load(route.loader, SHOP_A, "/app/backfill");
    expect(data.backfill).toBeNull();
    expect(data.today).toMatch(/^\d{4}-\d{2}-\d{2}$/);
  });

  it("refuses a reversed or malformed range and queues nothing", async () => {
    expect(await start(SHOP_A, { from: "2026-02-01", to: "2026-01-01", dryRun: "true" })).toEqual({
      intent: "start",
      ok: false,
      error: "range_reversed",
    });
    expect(await start(SHOP_A, { from: "01/01/2026", to: "2026-01-31", dryRun: "true" })).toEqual({
      intent: "start",
      ok: false,
      error: "from_invalid",
    });
    expect(await jobOf(SHOP_A)).toBeNull();
  });

  it("queues a dry run as the shop's backfill job, and refuses another while it is active", async () => {
    const result = await start(SHOP_A, { from: "2026-01-01", to: "2026-01-31", dryRun: "true" });
    expect(result).toMatchObject({
      intent: "start",
      ok: true,
      backfill: {
        state: "pending",
        active: true,
        progress: 0,
        payload: { from: "2026-01-01", to: "2026-01-31", dryRun: true, cursor: null },
      },
    });
    expect(await jobOf(SHOP_A)).toMatchObject({ kind: "backfill", shop: SHOP_A, state: "pending" });
    expect(await start(SHOP_A, { from: "2026-01-01", to: "2026-01-31", dryRun: "false" })).toEqual({
      intent: "start",
      ok: false,
      error: "already_running",
    });
  });

  it("shows the progress stored on the job row after a reload", async () => {
    // GIVEN the worker is two pages into the dry run
    const job = (await jobOf(SHOP_A))!;
    const payload = JSON.parse(job.payload) as Record<string, unknown>;
    await app.db.prisma.job.update({
      where: { id: job.id },
      data: {
        state: "running",
        payload: JSON.stringify({
          ...payload,
          pages: 2,
          cursor: "Y3Vyc29yOjU=",
          lastOrderAt: "2026-01-16T12:00:00Z",
          counts: { ...(payload.counts as object), scanned: 6, wouldSend: 4, notCod: 1, alreadySent: 1 },
        }),
      },
    });

    // WHEN the page is loaded again
    const data = await load(route.loader, SHOP_A, "/app/backfill");

    // THEN it reads where the job is
    expect(data.backfill).toMatchObject({
      state: "running",
      active: true,
      payload: { pages: 2, counts: { scanned: 6, wouldSend: 4, notCod: 1 } },
    });
    expect(data.backfill!.progress).toBeCloseTo(0.5, 1);
  });

  it("offers the run with the dry run's total once the dry run is finished", async () => {
    const job = (await jobOf(SHOP_A))!;
    const payload = JSON.parse(job.payload) as Record<string, unknown>;
    await app.db.prisma.job.update({
      where: { id: job.id },
      data: {
        state: "done",
        payload: JSON.stringify({ ...payload, pages: 3, finishedAt: "2026-02-01T10:00:00.000Z" }),
      },
    });
    expect((await load(route.loader, SHOP_A, "/app/backfill")).backfill).toMatchObject({ active: false, progress: 1 });

    const run = await start(SHOP_A, { from: "2026-01-01", to: "2026-01-31", dryRun: "false" });
    expect(run).toMatchObject({
      ok: true,
      backfill: { payload: { dryRun: false, expectedTotal: 6, pages: 0, finishedAt: null } },
    });
  });

  it("resumes a backfill that died, from where it stopped", async () => {
    const job = (await jobOf(SHOP_A))!;
    await app.db.prisma.job.update({
      where: { id: job.id },
      data: { state: "dead", attempts: 10, lastError: "Shopify rejected OrdersPage" },
    });
    expect((await load(route.loader, SHOP_A, "/app/backfill")).backfill).toMatchObject({
      state: "dead",
      active: false,
      lastError: "Shopify rejected OrdersPage",
    });

    expect(await submit(route.action, SHOP_A, "/app/backfill", { intent: "resume" })).toEqual({
      intent: "resume",
      ok: true,
    });
    expect(await jobOf(SHOP_A)).toMatchObject({ state: "pending", attempts: 0 });
  });

  it("keeps shops apart: another shop sees none of it and runs its own", async () => {
    expect((await load(route.loader, SHOP_B, "/app/backfill")).backfill).toBeNull();
    expect(await submit(route.action, SHOP_B, "/app/backfill", { intent: "resume" })).toEqual({
      intent: "resume",
      ok: false,
    });
    const result = await start(SHOP_B, { from: "2026-01-01", to: "2026-01-31", dryRun: "true" });
    expect(result).toMatchObject({ ok: true });
    expect(await jobOf(SHOP_B)).toMatchObject({ shop: SHOP_B, state: "pending" });
    expect(await jobOf(SHOP_A)).toMatchObject({ shop: SHOP_A, state: "pending" });
  });
});
