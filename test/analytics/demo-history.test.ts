/**
 * The demo's sixty days of settled orders: written before the app starts and
 * recounted into the rollups, they give Home and Analytics real-looking figures
 * (every step of the funnel reached, money collected) and leave nothing for the
 * status sync to chase.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase, type TestDatabase } from "../helpers/db";
import { seedDemoHistory } from "../../scripts/dev/demo/history";
import { loadAnalytics } from "../../app/analytics/report.server";
import { loadDashboard } from "../../app/pages/home.server";

const SHOP = "atlas-beauty.myshopify.com";
const NOW = new Date("2026-11-24T10:00:00Z");
let database: TestDatabase;

beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(() => database?.cleanup());

describe("demo history", () => {
  it("fills 60 days with settled orders that Home and Analytics count", async () => {
    const db = database.prisma;
    const written = await seedDemoHistory(db, SHOP, { now: NOW });
    expect(written).toBeGreaterThan(400);
    // Nothing left in motion: the sync never asks the sandbox about these references.
    expect(await db.orderLink.count({ where: { shop: SHOP, leadRef: { not: null }, statusFinal: false } })).toBe(0);

    const report = await loadAnalytics(db, SHOP, new URLSearchParams("period=90"), { now: NOW });
    expect(report.current.steps.orders + report.current.skipped).toBe(written);
    const { steps } = report.current;
    expect(steps.delivered).toBeGreaterThan(0);
    expect(
      steps.orders > steps.sent &&
        steps.sent > steps.confirmed &&
        steps.confirmed > steps.shipped &&
        steps.shipped > steps.delivered,
    ).toBe(true);
    expect(report.current.collectedCents).toBeGreaterThan(0);
    expect(report.current.profitCents).toBeGreaterThan(0);
    expect(report.current.medianDeliveryDays).not.toBeNull();
    expect(report.cities.length).toBeGreaterThan(5);
    expect(report.products.length).toBeGreaterThan(5);
    // The 30-day view compares with the month before, which has orders too.
    const month = await loadAnalytics(db, SHOP, new URLSearchParams("period=30"), { now: NOW });
    expect(month.previous.steps.orders).toBeGreaterThan(0);

    const home = await loadDashboard(db, SHOP, { now: NOW });
    expect(home.hasLeads).toBe(true);
    expect(home.figures.last30.delivered).toBeGreaterThan(0);

    // Every cash state: the last days' parcels owed, older ones paid, a few never paid (overdue), some returned.
    const states = await db.cashParcel.groupBy({ by: ["state"], where: { shop: SHOP }, _count: { _all: true } });
    const count = Object.fromEntries(states.map((s) => [s.state, s._count._all]));
    expect(count.owed).toBeGreaterThan(10);
    expect(count.paid).toBeGreaterThan(count.owed);
    expect(count.returned).toBeGreaterThan(10);
    expect(home.cash.owed.profitCents).toBeGreaterThan(home.cash.overdue.profitCents);
    expect(home.cash.overdue.parcels).toBeGreaterThan(0);
    expect(home.cash.byAge["0-7"].parcels).toBeGreaterThan(0);
    // The days come from each parcel's timeline: paid after it was delivered, never in the future.
    const paid = await db.cashParcel.findMany({ where: { shop: SHOP, state: "paid" } });
    expect(paid.every((p) => p.deliveredDay! < p.paidDay! && p.paidDay! <= "2026-11-24")).toBe(true);
    expect(report.cash.current.paid.parcels).toBeGreaterThan(0);
    // The overdue check is queued, to fire "Payment overdue" for the parcels never paid.
    expect(await db.job.count({ where: { key: `payment-overdue:${SHOP}`, state: "pending" } })).toBe(1);
  });
});
