/**
 * Activity page: the Seller Order API call log (newest first, keyset pages, status
 * filter, exact time of a 5xx) and the job queue (counts, last error, attempts,
 * retry of one job or of every dead one), each scoped to the session's shop.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { load, SHOP_A, SHOP_B, startAdminApp, stopAdminApp, submit, type AdminApp } from "./helpers";

type ActivityRoute = typeof import("../../app/routes/app.activity");

let app: AdminApp;
let route: ActivityRoute;
const T0 = Date.parse("2026-03-10T12:00:00.000Z");
const FIVE_HUNDRED_AT = "2026-03-10T12:55:31.042Z";

beforeAll(async () => {
  app = await startAdminApp();
  route = await import("../../app/routes/app.activity");
  const statuses = [201, 200, 202, 422, 429, 0, 401];
  // 60 calls a minute apart for A, the 500 among them, and two in the same millisecond.
  await app.db.prisma.apiCall.createMany({
    data: [
      ...Array.from({ length: 60 }, (_, i) => ({
        shop: SHOP_A,
        method: i % 2 ? "GET" : "POST",
        path: i % 2 ? "/v1/leads?limit=100" : "/v1/leads",
        status: statuses[i % statuses.length],
        durationMs: 100 + i,
        attempt: 1,
        apiVersion: "1.3",
        at: new Date(T0 + i * 60_000),
      })),
      {
        shop: SHOP_A,
        method: "POST",
        path: "/v1/leads",
        status: 500,
        durationMs: 812,
        attempt: 2,
        apiVersion: "1.3",
        at: new Date(FIVE_HUNDRED_AT),
      },
      // Same millisecond as call 11: the pair straddles the first page's end (rows 50 and 51).
      {
        shop: SHOP_A,
        method: "GET",
        path: "/v1/me",
        status: 200,
        durationMs: 40,
        attempt: 1,
        apiVersion: "1.3",
        at: new Date(T0 + 11 * 60_000),
      },
      {
        shop: SHOP_B,
        method: "POST",
        path: "/v1/leads",
        status: 503,
        durationMs: 5,
        attempt: 1,
        apiVersion: "1.3",
        at: new Date(T0),
      },
    ],
  });
});
afterAll(() => stopAdminApp(app));

describe("Seller Order API calls", () => {
  it("pages newest first with a cursor, every call once", async () => {
    const first = await load(route.loader, SHOP_A, "/app/activity");
    expect(first.calls.calls).toHaveLength(50);
    expect(first.calls.nextCursor).toBeTruthy();
    const ats = first.calls.calls.map((c) => c.at);
    expect([...ats].sort().reverse()).toEqual(ats);

    const second = await load(
      route.loader,
      SHOP_A,
      `/app/activity?calls=${encodeURIComponent(first.calls.nextCursor!)}`,
    );
    expect(second.calls.calls).toHaveLength(12);
    expect(second.calls.nextCursor).toBeNull();
    const ids = [...first.calls.calls, ...second.calls.calls].map((c) => c.id);
    expect(new Set(ids).size).toBe(62);
    expect(first.calls.calls[49].at).toBe(second.calls.calls[0].at);
    expect(await app.db.prisma.apiCall.count({ where: { shop: SHOP_A } })).toBe(62);
  });

  it("shows a 500 with its exact time to the millisecond", async () => {
    const data = await load(route.loader, SHOP_A, "/app/activity?status=server");
    expect(data.statusClass).toBe("server");
    expect(data.calls.calls).toEqual([
      expect.objectContaining({
        status: 500,
        method: "POST",
        path: "/v1/leads",
        at: FIVE_HUNDRED_AT,
        exactTime: "2026-03-10 12:55:31.042 UTC",
        attempt: 2,
      }),
    ]);
    const all = await load(route.loader, SHOP_A, "/app/activity");
    expect(all.calls.calls.filter((c) => c.exactTime !== null).map((c) => c.status)).toEqual([500]);
    // The shop's wall clock (Casablanca), written by the page in the reader's format.
    expect(all.calls.calls[0].time).toMatch(/^2026-03-10 \d\d:\d\d:\d\d$/);
  });

  it("filters by status class", async () => {
    const classOf = async (status: string) =>
      (await load(route.loader, SHOP_A, `/app/activity?status=${status}`)).calls.calls.map((c) => c.status);
    expect(new Set(await classOf("rate_limited"))).toEqual(new Set([429]));
    expect(new Set(await classOf("no_answer"))).toEqual(new Set([0]));
    expect(new Set(await classOf("client"))).toEqual(new Set([422, 401]));
    expect(new Set(await classOf("success"))).toEqual(new Set([200, 201, 202]));
    expect((await load(route.loader, SHOP_A, "/app/activity?status=bogus")).statusClass).toBe("all");
  });

  it("shows another shop none of these calls", async () => {
    const data = await load(route.loader, SHOP_B, "/app/activity");
    expect(data.calls.calls.map((c) => c.status)).toEqual([503]);
  });
});

describe("job queue", () => {
  let deadId: string;
  let doneId: string;
  let otherShopDeadId: string;

  beforeAll(async () => {
    const db = app.db.prisma;
    const link = await db.orderLink.create({
      data: {
        shop: SHOP_A,
        orderId: "5550000000001",
        orderName: "#1001",
        payload: "{}",
        externalRef: "shopify:5550000000001",
        state: "failed",
      },
    });
    const job = (data: {
      kind: string;
      key: string;
      shop: string;
      state: string;
      attempts?: number;
      lastError?: string;
      payload?: unknown;
    }) => db.job.create({ data: { ...data, payload: JSON.stringify(data.payload ?? {}), maxAttempts: 10 } });
    deadId = (
      await job({
        kind: "post-lead",
        key: `post-lead:${SHOP_A}:5550000000001`,
        shop: SHOP_A,
        state: "dead",
        attempts: 10,
        lastError: "Sending failed after 10 attempts: platform answered 500",
        payload: { linkId: link.id },
      })
    ).id;
    await job({
      kind: "write-back",
      key: `write-back:${SHOP_A}:1`,
      shop: SHOP_A,
      state: "dead",
      attempts: 3,
      lastError: "Shopify refused",
    });
    await job({ kind: "sync-statuses", key: `sync-statuses:${SHOP_A}`, shop: SHOP_A, state: "pending" });
    await job({
      kind: "refresh-lead",
      key: `refresh-lead:${SHOP_A}:X`,
      shop: SHOP_A,
      state: "failed",
      attempts: 2,
      lastError: "timeout",
    });
    doneId = (await job({ kind: "post-lead", key: `post-lead:${SHOP_A}:2`, shop: SHOP_A, state: "done", attempts: 1 }))
      .id;
    otherShopDeadId = (
      await job({ kind: "post-lead", key: `post-lead:${SHOP_B}:9`, shop: SHOP_B, state: "dead", attempts: 10 })
    ).id;
  });

  it("counts every state and lists what waits or failed, with attempts and the last error", async () => {
    const { jobs } = await load(route.loader, SHOP_A, "/app/activity");
    expect(jobs.counts).toEqual({ pending: 1, running: 0, done: 1, failed: 1, dead: 2 });
    expect(jobs.jobs.map((j) => j.state).sort()).toEqual(["dead", "dead", "failed", "pending"]);
    expect(jobs.jobs.find((j) => j.id === deadId)).toMatchObject({
      kind: "post-lead",
      orderName: "#1001",
      attempts: 10,
      maxAttempts: 10,
      lastError: "Sending failed after 10 attempts: platform answered 500",
      retryable: true,
    });
    const dead = await load(route.loader, SHOP_A, "/app/activity?jobState=dead");
    expect(dead.jobs.jobs).toHaveLength(2);
  });

  it("retries one dead job with a fresh budget, refuses a finished one, and 404s another shop's", async () => {
    expect(await submit(route.action, SHOP_A, "/app/activity", { intent: "retryJob", id: deadId })).toEqual({
      intent: "retryJob",
      ok: true,
    });
    expect(await app.db.prisma.job.findUnique({ where: { id: deadId } })).toMatchObject({
      state: "pending",
      attempts: 0,
      lastError: null,
    });

    expect(await submit(route.action, SHOP_A, "/app/activity", { intent: "retryJob", id: doneId })).toEqual({
      intent: "retryJob",
      ok: false,
    });
    const error = await submit(route.action, SHOP_A, "/app/activity", {
      intent: "retryJob",
      id: otherShopDeadId,
    }).catch((e: unknown) => e);
    expect(error instanceof Response && error.status).toBe(404);
    expect(await app.db.prisma.job.findUnique({ where: { id: otherShopDeadId } })).toMatchObject({ state: "dead" });
  });

  it("retries every dead job of the shop, and only of the shop", async () => {
    expect(await submit(route.action, SHOP_A, "/app/activity", { intent: "retryAllDead" })).toEqual({
      intent: "retryAllDead",
      ok: true,
      count: 1,
    });
    expect(await app.db.prisma.job.count({ where: { shop: SHOP_A, state: "dead" } })).toBe(0);
    expect(await app.db.prisma.job.count({ where: { shop: SHOP_B, state: "dead" } })).toBe(1);
  });
});
