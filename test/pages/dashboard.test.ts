/**
 * Home: exact figures from seeded OrderLink rows, the 14-day chart, onboarding
 * steps and alerts, through the real Home loader where it matters. The rows are
 * written directly (not through the pipeline), so the analytics rollups Home
 * reads are rebuilt from them, in the time zone the figures are asked in.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { PrismaClient } from "@prisma/client";
import { load, SHOP_A, SHOP_B, startAdminApp, stopAdminApp, type AdminApp } from "./helpers";

type DashboardModule = typeof import("../../app/pages/home.server");

let app: AdminApp;
let dashboard: DashboardModule;
let rollups: typeof import("../../app/analytics/rollups.server");
let seq = 0;

beforeAll(async () => {
  app = await startAdminApp();
  dashboard = await import("../../app/pages/home.server");
  rollups = await import("../../app/analytics/rollups.server");
});
afterAll(() => stopAdminApp(app));

interface LinkSeed {
  state: string;
  confirmationStatus?: string;
  shippingStatus?: string;
  totalClient?: string;
  createdAt: string;
  statusFinal?: boolean;
}

async function seedLinks(db: PrismaClient, shop: string, links: LinkSeed[], timeZone = "Africa/Casablanca") {
  for (const link of links) {
    seq += 1;
    const sent = link.state === "created" || link.state === "damaged";
    await db.orderLink.create({
      data: {
        shop,
        orderId: `gid://shopify/Order/${seq}`,
        orderName: `#${1000 + seq}`,
        payload: "{}",
        externalRef: `shopify:${seq}`,
        state: link.state,
        leadRef: sent ? `ATB-${seq}` : null,
        confirmationStatus: sent ? (link.confirmationStatus ?? "new") : null,
        shippingStatus: sent ? (link.shippingStatus ?? "pending") : null,
        totalClient: link.totalClient ?? "100.00",
        statusFinal: link.statusFinal ?? false,
        createdAt: new Date(link.createdAt),
      },
    });
  }
  await rollups.rebuildRollups(db, shop, { timeZone });
}

const NOW = new Date("2026-03-10T12:00:00Z");

describe("figures", () => {
  beforeAll(async () => {
    const db = app.db.prisma;
    await seedLinks(
      db,
      SHOP_A,
      [
        // today
        {
          state: "created",
          confirmationStatus: "confirmed",
          shippingStatus: "delivered",
          totalClient: "249.00",
          createdAt: "2026-03-10T08:00:00Z",
        },
        {
          state: "created",
          confirmationStatus: "confirmed",
          shippingStatus: "shipped",
          totalClient: "100.00",
          createdAt: "2026-03-10T09:00:00Z",
        },
        { state: "damaged", confirmationStatus: "new", totalClient: "50.50", createdAt: "2026-03-10T00:00:00Z" },
        { state: "held", createdAt: "2026-03-10T10:00:00Z" },
        { state: "created", confirmationStatus: "canceled", totalClient: "80.00", createdAt: "2026-03-10T11:59:00Z" },
        // three days ago
        {
          state: "created",
          confirmationStatus: "confirmed",
          shippingStatus: "paid",
          totalClient: "199.99",
          createdAt: "2026-03-07T15:00:00Z",
        },
        {
          state: "created",
          confirmationStatus: "confirmed",
          shippingStatus: "returned",
          totalClient: "120.00",
          createdAt: "2026-03-07T16:00:00Z",
        },
        { state: "invalid", createdAt: "2026-03-07T17:00:00Z" },
        { state: "created", confirmationStatus: "no_answer_2", createdAt: "2026-03-07T18:00:00Z" },
        // twenty days ago
        {
          state: "created",
          confirmationStatus: "confirmed",
          shippingStatus: "delivered",
          totalClient: "1000.00",
          createdAt: "2026-02-18T10:00:00Z",
        },
        { state: "damaged", confirmationStatus: "fake", createdAt: "2026-02-18T11:00:00Z" },
        // outside every window
        {
          state: "created",
          confirmationStatus: "confirmed",
          shippingStatus: "delivered",
          totalClient: "500.00",
          createdAt: "2026-01-29T10:00:00Z",
        },
        {
          state: "created",
          confirmationStatus: "confirmed",
          shippingStatus: "delivered",
          totalClient: "7.00",
          createdAt: "2026-03-09T23:59:59Z",
        },
      ],
      "UTC",
    );
    // Another shop's orders never count.
    await seedLinks(db, SHOP_B, [
      {
        state: "created",
        confirmationStatus: "confirmed",
        shippingStatus: "delivered",
        totalClient: "999.00",
        createdAt: "2026-03-10T08:00:00Z",
      },
    ]);
  });

  it("counts today, 7 and 30 days exactly, in integer cents, each rate as Analytics divides it", async () => {
    const result = await dashboard.loadDashboard(app.db.prisma, SHOP_A, { now: NOW, timeZone: "UTC" });
    expect(result.figures.today).toEqual({
      sent: 4,
      held: 1,
      damaged: 1,
      confirmed: 2,
      confirmationRate: { part: 2, whole: 4, rate: 2 / 4 },
      delivered: 1,
      shipped: 2,
      deliveryRate: { part: 1, whole: 2, rate: 0.5 },
      collectedCents: 24900,
    });
    // + yesterday's 7.00 delivered lead (sent, confirmed, delivered)
    expect(result.figures.last7).toEqual({
      sent: 8,
      held: 2,
      damaged: 1,
      confirmed: 5,
      confirmationRate: { part: 5, whole: 8, rate: 5 / 8 },
      delivered: 3,
      shipped: 5,
      deliveryRate: { part: 3, whole: 5, rate: 3 / 5 },
      collectedCents: 24900 + 19999 + 700,
    });
    expect(result.figures.last30).toEqual({
      sent: 10,
      held: 2,
      damaged: 2,
      confirmed: 6,
      confirmationRate: { part: 6, whole: 10, rate: 6 / 10 },
      delivered: 4,
      shipped: 6,
      deliveryRate: { part: 4, whole: 6, rate: 4 / 6 },
      collectedCents: 24900 + 19999 + 700 + 100000,
    });
    expect(result.hasLeads).toBe(true);
  });

  it("GIVEN the same orders WHEN Home and Analytics load today, 7 and 30 days THEN each figure they both show is the same, counts included", async () => {
    const { loadAnalytics } = await import("../../app/analytics/report.server");
    const home = await dashboard.loadDashboard(app.db.prisma, SHOP_A, { now: NOW, timeZone: "UTC" });
    const periods = { today: "from=2026-03-10&to=2026-03-10", last7: "period=7", last30: "period=30" } as const;
    for (const [period, search] of Object.entries(periods) as [keyof typeof periods, string][]) {
      const analytics = await loadAnalytics(app.db.prisma, SHOP_A, new URLSearchParams(search), {
        now: NOW,
        timeZone: "UTC",
      });
      expect(analytics.period, period).toMatchObject(home.periods[period]);
      const s = analytics.current;
      expect(home.figures[period], period).toMatchObject({
        sent: s.steps.sent,
        confirmed: s.steps.confirmed,
        confirmationRate: s.confirmationRate,
        delivered: s.steps.delivered,
        shipped: s.steps.shipped,
        deliveryRate: s.deliveryRate,
        collectedCents: s.collectedCents,
      });
    }
    // Not a vacuous agreement: the month has leads in every figure.
    expect(home.figures.last30.confirmationRate.whole).toBeGreaterThan(0);
  });

  it("charts 14 days of leads by outcome, oldest first", async () => {
    const { chart } = await dashboard.loadDashboard(app.db.prisma, SHOP_A, { now: NOW, timeZone: "UTC" });
    expect(chart).toHaveLength(14);
    expect(chart[0].day).toBe("2026-02-25");
    expect(chart[13]).toEqual({ day: "2026-03-10", delivered: 1, inDelivery: 1, awaiting: 0, lost: 1, damaged: 1 });
    expect(chart[12]).toEqual({ day: "2026-03-09", delivered: 1, inDelivery: 0, awaiting: 0, lost: 0, damaged: 0 });
    expect(chart[10]).toEqual({ day: "2026-03-07", delivered: 1, inDelivery: 0, awaiting: 1, lost: 1, damaged: 0 });
    const total = chart.reduce((n, d) => n + d.delivered + d.inDelivery + d.awaiting + d.lost + d.damaged, 0);
    expect(total).toBe(8);
  });

  it("cuts days at the merchant's midnight (Africa/Casablanca by default)", async () => {
    // 2026-06-10 10:00 UTC is 11:00 in Casablanca (UTC+1): an order at 23:30 UTC the day
    // before arrived at 00:30 local time, today.
    const db = app.db.prisma;
    const shop = "tz-check.myshopify.com";
    await seedLinks(db, shop, [{ state: "created", createdAt: "2026-06-09T23:30:00Z" }]);
    const now = new Date("2026-06-10T10:00:00Z");
    expect((await dashboard.loadDashboard(db, shop, { now })).figures.today.sent).toBe(1);
    await rollups.rebuildRollups(db, shop, { timeZone: "UTC" });
    expect((await dashboard.loadDashboard(db, shop, { now, timeZone: "UTC" })).figures.today.sent).toBe(0);
  });

  it("reads amounts exactly and ignores unreadable ones", () => {
    expect(dashboard.decimalToCents("199.99")).toBe(19999);
    expect(dashboard.decimalToCents("0.1")).toBe(10);
    expect(dashboard.decimalToCents("12")).toBe(1200);
    expect(dashboard.decimalToCents("1e3")).toBe(0);
    expect(dashboard.decimalToCents(null)).toBe(0);
  });
});

describe("onboarding", () => {
  it("moves step by step and links each step to where it is done", async () => {
    const db = app.db.prisma;
    const shop = "onboarding.myshopify.com";
    const steps = async () =>
      Object.fromEntries((await dashboard.loadDashboard(db, shop)).onboarding.steps.map((s) => [s.id, s.done]));

    await db.shop.create({ data: { domain: shop } });
    expect(await steps()).toEqual({
      enter_key: false,
      key_verified: false,
      catalogue_synced: false,
      first_order_sent: false,
    });
    const first = await dashboard.loadDashboard(db, shop);
    expect(first.onboarding.steps.map((s) => s.href)).toEqual([
      "/app/settings",
      "/app/settings",
      "/app/mappings",
      "/app/orders",
    ]);
    expect(first.hasLeads).toBe(false);

    await db.shop.update({
      where: { domain: shop },
      data: { sellerApiKeyCipher: "v1.x.y.z", keyVerifiedAt: new Date() },
    });
    expect(await steps()).toMatchObject({ enter_key: true, key_verified: true, catalogue_synced: false });

    // A paused key is no longer "verified".
    await db.shop.update({ where: { domain: shop }, data: { pausedReason: "key_rejected", pausedAt: new Date() } });
    expect(await steps()).toMatchObject({ enter_key: true, key_verified: false });
    await db.shop.update({ where: { domain: shop }, data: { pausedReason: null, pausedAt: null } });

    await db.shop.update({ where: { domain: shop }, data: { catalogueFetchedAt: new Date() } });
    expect(await steps()).toMatchObject({ catalogue_synced: false });
    await db.shop.update({ where: { domain: shop }, data: { citiesFetchedAt: new Date() } });
    expect(await steps()).toMatchObject({ catalogue_synced: true, first_order_sent: false });

    await seedLinks(db, shop, [{ state: "created", createdAt: new Date().toISOString() }]);
    const done = await dashboard.loadDashboard(db, shop);
    expect(done.onboarding.complete).toBe(true);
    expect(done.hasLeads).toBe(true);
  });

  it("is what the Home loader returns for the session's shop", async () => {
    const route = await import("../../app/routes/app._index");
    const data = await load(route.loader, "fresh-shop.myshopify.com", "/app").catch((e: unknown) => e);
    // No offline session for this shop: authenticate.admin would need a token exchange.
    expect(data).toBeInstanceOf(Response);

    const home = await load(route.loader, SHOP_A, "/app");
    expect(home.shop).toBe(SHOP_A);
    expect(home.dashboard.onboarding.steps.find((s) => s.id === "first_order_sent")?.done).toBe(true);
    expect(home.dashboard.onboarding.steps.find((s) => s.id === "enter_key")?.done).toBe(false);
    expect(await app.db.prisma.shop.count({ where: { domain: SHOP_A } })).toBe(1);
    expect(app.shopifyCalls.every((url) => url.includes("fresh-shop"))).toBe(true);
  });
});

describe("alerts", () => {
  const shop = "alerts.myshopify.com";
  const now = new Date("2026-03-10T12:00:00Z");
  const kinds = async () => (await dashboard.loadDashboard(app.db.prisma, shop, { now })).alerts;

  beforeAll(() =>
    app.db.prisma.shop.create({ data: { domain: shop, settings: JSON.stringify({ statusSyncMinutes: 10 }) } }),
  );

  it("raises none for a quiet shop", async () => {
    expect(await kinds()).toEqual([]);
  });

  it("shows a paused shop's reason", async () => {
    await app.db.prisma.shop.update({
      where: { domain: shop },
      data: { pausedReason: "key_revoked", pausedAt: new Date("2026-03-10T11:00:00Z") },
    });
    expect(await kinds()).toEqual([{ kind: "paused", reason: "key_revoked", since: "2026-03-10T11:00:00.000Z" }]);
    await app.db.prisma.shop.update({ where: { domain: shop }, data: { pausedReason: null, pausedAt: null } });
  });

  it("flags a growing backlog by count or by age, and dead letters", async () => {
    const db = app.db.prisma;
    const job = (i: number, state: string, runAt: Date, forShop = shop) =>
      db.job.create({ data: { kind: "post-lead", key: `${forShop}:${state}:${i}`, shop: forShop, state, runAt } });
    const recent = new Date(now.getTime() - 60_000);
    for (let i = 0; i < 50; i++) await job(i, "pending", recent);
    // Another shop's backlog is not this shop's.
    for (let i = 0; i < 60; i++) await job(i, "pending", recent, "other.myshopify.com");
    expect(await kinds()).toEqual([]);

    await job(50, "pending", recent);
    expect(await kinds()).toEqual([{ kind: "backlog", pending: 51, oldestMinutes: 1 }]);

    await db.job.deleteMany({ where: { shop, state: "pending" } });
    await job(0, "pending", new Date(now.getTime() - 16 * 60_000));
    // A job scheduled later (a retry's backoff) is not overdue.
    await job(1, "pending", new Date(now.getTime() + 60 * 60_000));
    expect(await kinds()).toEqual([{ kind: "backlog", pending: 2, oldestMinutes: 16 }]);
    await db.job.deleteMany({ where: { shop } });

    await job(0, "dead", recent);
    await job(1, "dead", recent);
    expect(await kinds()).toEqual([{ kind: "dead", count: 2 }]);
    await db.job.deleteMany({ where: { shop } });
  });

  it("flags a stale status sync only while leads are in motion", async () => {
    const db = app.db.prisma;
    // Last sync 31 minutes ago with a 10-minute interval: stale if anything moves.
    await db.shop.update({
      where: { domain: shop },
      data: { lastStatusSyncAt: new Date(now.getTime() - 31 * 60_000) },
    });
    await seedLinks(db, shop, [{ state: "created", createdAt: "2026-03-10T10:00:00Z", statusFinal: true }]);
    expect(await kinds()).toEqual([]);

    await seedLinks(db, shop, [{ state: "created", createdAt: "2026-03-10T10:00:00Z" }]);
    expect(await kinds()).toEqual([{ kind: "stale", minutesSince: 31, expectedMinutes: 10 }]);

    await db.shop.update({
      where: { domain: shop },
      data: { lastStatusSyncAt: new Date(now.getTime() - 29 * 60_000) },
    });
    expect(await kinds()).toEqual([]);

    // Never synced: stale once a lead has waited longer than three intervals.
    await db.shop.update({ where: { domain: shop }, data: { lastStatusSyncAt: null } });
    expect(await kinds()).toEqual([{ kind: "stale", minutesSince: null, expectedMinutes: 10 }]);
  });
});
