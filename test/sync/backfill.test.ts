/**
 * Backfill end to end: the job reads orders from a local fake of Shopify's Admin
 * GraphQL API (3 a page, through the real client stack), maps them with the shop's
 * cached catalogue and cities, and in a run stores each unknown order through the
 * webhook intake path. Progress lives in the job row.
 */
import { readFileSync } from "node:fs";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { useTestDatabaseForApp } from "../helpers/app";
import { storeOfflineSession } from "../helpers/admin";
import type { TestDatabase } from "../helpers/db";
import {
  startShopifyAdmin as startFakeAdminApi,
  type OrderRecord as FakeOrder,
  type RunningShopifyAdmin as FakeAdminApi,
} from "../../shopify-admin/index";
import { fromGraphqlOrder, fromWebhookOrder } from "../../app/leads";
import { graphqlOrderToWebhookShape } from "../../app/sync/backfill/order-shape";
import {
  initialPayload,
  ordersQuery,
  outcomeOf,
  progressOf,
  validateRange,
  type BackfillCounts,
} from "../../app/sync/backfill/progress";
import type { Worker } from "../../app/queue/worker.server";
import { BACKFILL_JOB } from "../../app/models/job-kinds";
import { type AdminFor } from "../../app/shopify/admin-graphql.server";
import { addDays } from "../../app/analytics/days";

const SHOP = "atlas-beauty.myshopify.com";
const NOW = new Date("2026-08-01T09:00:00Z");
const RANGE = { from: "2026-07-01", to: "2026-07-31" };
const seed = (name: string) => readFileSync(new URL(`../../sandbox/seed/${name}`, import.meta.url), "utf8");
const fixture = JSON.parse(
  readFileSync(new URL("../fixtures/leads/orders/graphql-order-backfill.json", import.meta.url), "utf8"),
) as Record<string, unknown>;

let db: TestDatabase;
let api: FakeAdminApi;
let adminFor: AdminFor;
let backfill: typeof import("../../app/sync/backfill/backfill.server");
let createWorker: typeof import("../../app/queue/worker.server").createWorker;
let createJobHandlers: typeof import("../../app/sync/job-handlers.server").createJobHandlers;
let createPipelineDeps: typeof import("../../app/sync/pipeline-deps.server").createPipelineDeps;

describe("GraphQL order -> webhook shape", () => {
  it("reads back exactly as the GraphQL adapter reads the node (fixture)", () => {
    expect(fromWebhookOrder(graphqlOrderToWebhookShape(fixture))).toEqual(fromGraphqlOrder(fixture));
  });

  it("keeps the fields intake and compliance read: numeric id, name, customer id, updated_at", () => {
    const shaped = graphqlOrderToWebhookShape({
      ...fixture,
      updatedAt: "2026-03-09T19:00:00Z",
      customer: { id: "gid://shopify/Customer/77", firstName: "Y" },
    });
    expect(shaped).toMatchObject({
      id: 5551234568001,
      name: "#1050",
      updated_at: "2026-03-09T19:00:00Z",
      customer: { id: 77, first_name: "Y" },
      tags: "backfill",
      financial_status: "pending",
    });
    // The webhook SKU is the variant's when the line has none.
    expect((shaped.line_items as { sku: string }[])[0].sku).toBe("SMW-X8-BLK");
  });

  it("is equivalent on the ORDERS_PAGE shape too (no legacyResourceId, edges or nodes)", () => {
    const node = {
      ...fixture,
      legacyResourceId: undefined,
      lineItems: { edges: (fixture.lineItems as { nodes: unknown[] }).nodes.map((node) => ({ node })) },
    };
    expect(fromWebhookOrder(graphqlOrderToWebhookShape(node))).toEqual(fromGraphqlOrder(node));
  });
});

describe("backfill state (pure)", () => {
  it("asks Shopify for whole days, the last one included", () => {
    expect(ordersQuery("2026-01-01", "2026-01-31")).toBe("created_at:>=2026-01-01 created_at:<2026-02-01");
    expect(addDays("2024-02-28", 1)).toBe("2024-02-29");
  });

  it("refuses impossible ranges", () => {
    expect(validateRange("2026-01-01", "2026-01-31", "2026-11-01")).toBeNull();
    expect(validateRange("2026-02-30", "2026-03-01", "2026-11-01")).toBe("from_invalid");
    expect(validateRange("2026-01-01", "31/01/2026", "2026-11-01")).toBe("to_invalid");
    expect(validateRange("2026-02-01", "2026-01-01", "2026-11-01")).toBe("range_reversed");
    expect(validateRange("2026-12-01", "2026-12-02", "2026-11-01")).toBe("in_future");
  });

  it("estimates progress from a dry run's total, else from the dates", () => {
    const base = initialPayload({ ...RANGE, dryRun: false, now: NOW });
    const counts = (scanned: number): BackfillCounts => ({ ...base.counts, scanned });
    expect(progressOf(base)).toBe(0);
    expect(progressOf({ ...base, expectedTotal: 8, counts: counts(2) })).toBe(0.25);
    expect(progressOf({ ...base, lastOrderAt: "2026-07-16T12:00:00Z", counts: counts(5) })).toBeCloseTo(0.5, 2);
    expect(progressOf({ ...base, finishedAt: NOW.toISOString() })).toBe(1);
  });

  it("counts not-COD orders apart from other skips", () => {
    const finding = (code: string) => ({ code }) as never;
    expect(outcomeOf({ decision: "send", findings: [] })).toBe("wouldSend");
    expect(outcomeOf({ decision: "hold", findings: [] })).toBe("wouldHold");
    expect(outcomeOf({ decision: "skip", findings: [finding("not_cod")] })).toBe("notCod");
    expect(outcomeOf({ decision: "skip", findings: [finding("cancelled")] })).toBe("skipped");
  });
});

describe("backfill job against the fake Admin API", () => {
  let orders: FakeOrder[];
  const silent = { info: () => {}, warn: () => {}, error: () => {} };

  beforeAll(async () => {
    db = await useTestDatabaseForApp();
    api = await startFakeAdminApi();
    await api.installFetchRewrite();
    const app = await import("../../app/shopify.server");
    await storeOfflineSession(app.sessionStorage, SHOP);
    adminFor = async (shop) => (await app.unauthenticated.admin(shop)).admin;
    backfill = await import("../../app/sync/backfill/backfill.server");
    ({ createWorker } = await import("../../app/queue/worker.server"));
    ({ createJobHandlers } = await import("../../app/sync/job-handlers.server"));
    ({ createPipelineDeps } = await import("../../app/sync/pipeline-deps.server"));

    await db.prisma.shop.create({
      data: {
        domain: SHOP,
        catalogueJson: seed("products.json"),
        catalogueFetchedAt: NOW,
        citiesJson: seed("cities.json"),
        citiesFetchedAt: NOW,
      },
    });
    const cod = (sku: string, fields: Record<string, unknown> = {}) =>
      api.addOrder({
        lines: [{ sku, quantity: 1, title: sku }],
        fields: { createdAt: "2026-07-10T10:00:00Z", ...fields },
      });
    orders = [
      cod("ARG-OIL-50"),
      cod("AMLOU-250", { createdAt: "2026-07-12T10:00:00Z" }),
      cod("ZZZ-UNKNOWN", { createdAt: "2026-07-13T10:00:00Z" }), // held: SKU not in the catalogue
      cod("SAVON-NOIR-200", {
        createdAt: "2026-07-14T10:00:00Z",
        paymentGatewayNames: ["shopify_payments"],
        displayFinancialStatus: "PAID",
      }),
      cod("GHASSOUL-500", { createdAt: "2026-07-15T10:00:00Z", cancelledAt: "2026-07-15T11:00:00Z" }),
      cod("ROSE-WATER-250", { createdAt: "2026-07-20T10:00:00Z" }), // sent already (link below)
      cod("ARG-OIL-100", { createdAt: "2026-07-25T10:00:00Z" }),
    ];
    const sentId = orders[5].id.split("/").pop()!;
    await db.prisma.orderLink.create({
      data: {
        shop: SHOP,
        orderId: sentId,
        orderName: orders[5].name,
        payload: "{}",
        externalRef: `shopify:${sentId}`,
        state: "created",
        leadRef: "ATB-1",
      },
    });
  });

  afterAll(async () => {
    await api?.close();
    await db?.cleanup();
  });

  beforeEach(async () => {
    api.state.throttleNext = 0;
    api.requests.length = 0;
    // Each test starts from the one order sent before the app's backfill.
    await db.prisma.job.deleteMany();
    await db.prisma.timelineEvent.deleteMany();
    await db.prisma.orderLink.deleteMany({ where: { state: { not: "created" } } });
  });

  function worker(options: { pagesPerAttempt?: number } = {}): Worker {
    const deps = { ...createPipelineDeps(db.prisma, { clock: () => NOW }), adminFor };
    const handlers = createJobHandlers(deps);
    if (options.pagesPerAttempt) {
      handlers[BACKFILL_JOB] = (job, ctx) =>
        backfill.runBackfillJob(deps, job, ctx, { pagesPerAttempt: options.pagesPerAttempt });
    }
    return createWorker({
      db: db.prisma,
      handlers,
      kinds: [BACKFILL_JOB],
      logger: silent,
      backoff: { baseMs: 1, capMs: 5 },
    });
  }

  const linkCount = () => db.prisma.orderLink.count({ where: { shop: SHOP } });
  const postLeadJobs = () => db.prisma.job.count({ where: { kind: "post-lead", shop: SHOP } });

  it("dry run: counts over 3 pages of 3 with their amounts and age, stores nothing, and says how far it got", async () => {
    const started = await backfill.startBackfill(db.prisma, SHOP, { ...RANGE, dryRun: true }, NOW);
    expect(started).toMatchObject({ ok: true, backfill: { active: true, state: "pending", progress: 0 } });

    expect(await worker().drain()).toBe(1);

    const view = await backfill.readBackfill(db.prisma, SHOP);
    expect(view).toMatchObject({ state: "done", active: false, progress: 1, payload: { dryRun: true, pages: 3 } });
    // Placed more than 7 days before NOW (the default limit), two that would be sent wait for the merchant's word.
    expect(view!.payload.counts).toEqual({
      scanned: 7,
      wouldSend: 1,
      wouldWait: 2,
      wouldHold: 1,
      // 398 MAD each, the stand-in order's total.
      wouldSendCents: 39_800,
      wouldWaitCents: 79_600,
      wouldHoldCents: 39_800,
      notCod: 1,
      skipped: 1,
      alreadySent: 1,
      alreadyInApp: 0,
      created: 0,
    });
    expect(view!.payload.oldestOrderAt).toBe("2026-07-10T10:00:00Z");
    expect(api.requests.map((r) => [r.operationName, r.variables.first, r.variables.query])).toEqual(
      Array(3).fill(["OrdersPage", 3, "created_at:>=2026-07-01 created_at:<2026-08-01"]),
    );
    expect(api.requests.map((r) => r.variables.after ?? null)[0]).toBeNull();
    expect(await linkCount()).toBe(1);
    expect(await postLeadJobs()).toBe(0);
  });

  it("run: stores each unknown order once through intake (received + post-lead job); a rerun creates none", async () => {
    await backfill.startBackfill(db.prisma, SHOP, { ...RANGE, dryRun: true }, NOW);
    await worker().drain();
    // A run after the dry run of the same days knows its total.
    const started = await backfill.startBackfill(db.prisma, SHOP, { ...RANGE, dryRun: false }, NOW);
    expect(started).toMatchObject({ ok: true, backfill: { payload: { dryRun: false, expectedTotal: 7 } } });
    await worker().drain();

    const view = await backfill.readBackfill(db.prisma, SHOP);
    expect(view!.payload.counts).toMatchObject({
      scanned: 7,
      created: 6,
      alreadySent: 1,
      alreadyInApp: 0,
      wouldSend: 1,
      wouldWait: 2,
      wouldHold: 1,
    });
    expect(await linkCount()).toBe(7);
    expect(await postLeadJobs()).toBe(6);

    const first = orders[0];
    const id = first.id.split("/").pop()!;
    const link = await db.prisma.orderLink.findUniqueOrThrow({ where: { shop_orderId: { shop: SHOP, orderId: id } } });
    expect(link).toMatchObject({ state: "received", orderName: first.name });
    // The stored payload reads exactly like the GraphQL order: the pipeline sees no difference.
    expect(fromWebhookOrder(JSON.parse(link.payload))).toEqual(fromGraphqlOrder(first));
    expect(await db.prisma.job.findUnique({ where: { key: `post-lead:${SHOP}:${id}` } })).toMatchObject({
      state: "pending",
      payload: JSON.stringify({ orderId: id }),
    });
    const timeline = await db.prisma.timelineEvent.findMany({ where: { linkId: link.id }, orderBy: { at: "asc" } });
    expect(timeline.map((e) => e.message)).toContain("Imported with the past orders from Jul 1, 2026 to Jul 31, 2026");
    expect(timeline.map((e) => e.text)).toContain(
      JSON.stringify({
        key: "timeline.text.imported",
        params: { from: { date: "2026-07-01" }, to: { date: "2026-07-31" } },
      }),
    );

    // Again: a run needs a preview of its days first; then every order is known.
    expect(await backfill.startBackfill(db.prisma, SHOP, { ...RANGE, dryRun: false }, NOW)).toEqual({
      ok: false,
      error: "preview_first",
    });
    await backfill.startBackfill(db.prisma, SHOP, { ...RANGE, dryRun: true }, NOW);
    await worker().drain();
    await backfill.startBackfill(db.prisma, SHOP, { ...RANGE, dryRun: false }, NOW);
    await worker().drain();
    const again = await backfill.readBackfill(db.prisma, SHOP);
    expect(again!.payload.counts).toMatchObject({ scanned: 7, created: 0, alreadySent: 1, alreadyInApp: 6 });
    expect(await linkCount()).toBe(7);
    expect(await postLeadJobs()).toBe(6);
  });

  it("refuses a second backfill while one is active", async () => {
    await backfill.startBackfill(db.prisma, SHOP, { ...RANGE, dryRun: true }, NOW);
    expect(await backfill.startBackfill(db.prisma, SHOP, { ...RANGE, dryRun: false }, NOW)).toEqual({
      ok: false,
      error: "already_running",
    });
    expect(
      await backfill.startBackfill(db.prisma, SHOP, { from: "2026-07-31", to: "2026-07-01", dryRun: true }, NOW),
    ).toEqual({
      ok: false,
      error: "range_reversed",
    });
  });

  it("keeps its progress between attempts: a page budget yields and resumes from the saved cursor", async () => {
    await backfill.startBackfill(db.prisma, SHOP, { ...RANGE, dryRun: true }, NOW);
    const w = worker({ pagesPerAttempt: 1 });
    expect(await w.runOnce()).toBe(true);
    const midway = await backfill.readBackfill(db.prisma, SHOP);
    expect(midway).toMatchObject({
      state: "pending",
      active: true,
      attempts: 0,
      payload: { pages: 1, counts: { scanned: 3 } },
    });
    expect(midway!.payload.cursor).toBeTruthy();
    expect(midway!.progress).toBeGreaterThan(0);
    expect(midway!.progress).toBeLessThan(1);

    expect(await w.drain()).toBe(2);
    const done = await backfill.readBackfill(db.prisma, SHOP);
    expect(done).toMatchObject({
      state: "done",
      payload: { pages: 3, counts: { scanned: 7, wouldSend: 1, wouldWait: 2 } },
    });
    // Each page was read once: the second and third started from the saved cursor.
    expect(api.requests.map((r) => r.variables.after ?? null)).toEqual([null, expect.any(String), expect.any(String)]);
    expect(new Set(api.requests.map((r) => r.variables.after)).size).toBe(3);
  });

  it("reschedules itself when Shopify throttles, without spending an attempt, then finishes", async () => {
    await backfill.startBackfill(db.prisma, SHOP, { ...RANGE, dryRun: true }, NOW);
    api.state.throttleNext = 1;
    const before = Date.now();
    expect(await worker().runOnce()).toBe(true);

    const job = await db.prisma.job.findUniqueOrThrow({ where: { key: `backfill:${SHOP}` } });
    expect(job).toMatchObject({ state: "pending", attempts: 0 });
    expect(job.lastError).toMatch(/^Shopify is busy: the backfill continues in \d+ s$/);
    // The fake's bucket is empty and refills 100 points/s: about 9 s for a 930-point page.
    expect(job.runAt.getTime() - before).toBeGreaterThanOrEqual(5_000);
    const waiting = await backfill.readBackfill(db.prisma, SHOP);
    expect(waiting).toMatchObject({ active: true, payload: { pages: 0, cursor: null } });
    expect(waiting!.payload.throttledUntil).toBeTruthy();
    expect(await worker().drain()).toBe(0); // not due yet

    await db.prisma.job.update({ where: { id: job.id }, data: { runAt: new Date() } });
    expect(await worker().drain()).toBe(1);
    const done = await backfill.readBackfill(db.prisma, SHOP);
    expect(done).toMatchObject({ state: "done", payload: { pages: 3, throttledUntil: null, counts: { scanned: 7 } } });
  });
});
