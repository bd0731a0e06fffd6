/**
 * Data retention: what is older than the shop's setting goes, orders still on
 * their way stay, other shops are untouched.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase, type TestDatabase } from "../helpers/db";
import { createPipelineDeps } from "../../app/sync/pipeline-deps.server";
import { purgeShopData } from "../../app/sync/retention.server";

const SHOP = "atlas-beauty.myshopify.com";
const OTHER = "rif-market.myshopify.com";
const NOW = new Date("2026-11-22T12:00:00Z");
const daysAgo = (n: number) => new Date(NOW.getTime() - n * 24 * 3600 * 1000);
let db: TestDatabase;

beforeAll(async () => {
  db = await createTestDatabase();
});
afterAll(() => db.cleanup());

async function link(shop: string, orderId: string, createdAt: Date, fields: Record<string, unknown>) {
  const row = await db.prisma.orderLink.create({
    data: {
      shop,
      orderId,
      orderName: `#${orderId}`,
      payload: "{}",
      externalRef: `shopify:${orderId}`,
      createdAt,
      ...fields,
    },
  });
  await db.prisma.timelineEvent.create({
    data: { shop, linkId: row.id, kind: "received", message: "x", at: createdAt },
  });
  return row;
}

describe("retention", () => {
  it("deletes what is older than the setting, keeps orders still in motion and other shops' data", async () => {
    for (const shop of [SHOP, OTHER])
      await db.prisma.shop.create({ data: { domain: shop, settings: JSON.stringify({ retentionDays: 90 }) } });
    const oldFinal = await link(SHOP, "1", daysAgo(120), { state: "created", leadRef: "ATB-1", statusFinal: true });
    const oldHeld = await link(SHOP, "2", daysAgo(120), { state: "held" });
    const oldMoving = await link(SHOP, "3", daysAgo(120), { state: "created", leadRef: "ATB-3", statusFinal: false });
    const oldPosting = await link(SHOP, "4", daysAgo(120), { state: "posting" });
    const recent = await link(SHOP, "5", daysAgo(10), { state: "created", leadRef: "ATB-5", statusFinal: true });
    const otherOld = await link(OTHER, "6", daysAgo(120), { state: "held" });
    await db.prisma.apiCall.createMany({
      data: [
        { shop: SHOP, method: "GET", path: "/v1/me", status: 200, durationMs: 5, attempt: 1, at: daysAgo(100) },
        { shop: SHOP, method: "GET", path: "/v1/me", status: 200, durationMs: 5, attempt: 1, at: daysAgo(1) },
      ],
    });

    const report = await purgeShopData(createPipelineDeps(db.prisma, { clock: () => NOW }), SHOP);

    expect(report).toMatchObject({ orders: 2, apiCalls: 1 });
    const left = (await db.prisma.orderLink.findMany({ select: { id: true } })).map((l) => l.id).sort();
    expect(left).toEqual([oldMoving.id, oldPosting.id, recent.id, otherOld.id].sort());
    expect(await db.prisma.timelineEvent.count({ where: { linkId: { in: [oldFinal.id, oldHeld.id] } } })).toBe(0);
    expect(await db.prisma.apiCall.count({ where: { shop: SHOP } })).toBe(1);
  });

  it("moves the reconciliation's coverage start past the horizon and every order it removed, never back", async () => {
    const shop = "coverage-shop.myshopify.com";
    await db.prisma.shop.create({
      data: { domain: shop, installedAt: daysAgo(400), settings: JSON.stringify({ retentionDays: 90 }) },
    });
    // Shopify's clock ahead of this machine's: the order's created_at is later than its row.
    const ahead = new Date(daysAgo(91).getTime() + 2 * 24 * 3600 * 1000);
    await link(shop, "71", daysAgo(91), { state: "held", orderCreatedAt: ahead });

    await purgeShopData(createPipelineDeps(db.prisma, { clock: () => NOW }), shop);

    // No pass had run: the ledger is made, its coverage start past the order removed.
    const ledger = await db.prisma.syncLedger.findUniqueOrThrow({ where: { shop } });
    expect(ledger.coverageFrom.getTime()).toBe(ahead.getTime() + 1);
    // A later coverage start (a pass that found the bound reached) is kept.
    await db.prisma.syncLedger.update({ where: { shop }, data: { coverageFrom: daysAgo(5) } });
    await purgeShopData(createPipelineDeps(db.prisma, { clock: () => NOW }), shop);
    expect((await db.prisma.syncLedger.findUniqueOrThrow({ where: { shop } })).coverageFrom).toEqual(daysAgo(5));
  });
});
