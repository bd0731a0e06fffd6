/**
 * A write-back due while the app is uninstalled waits instead of being dropped,
 * and runs once the shop installs the app again: the Shopify order then carries
 * the lead's tags (real client stack -> Admin stand-in on loopback).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { useTestDatabaseForApp } from "../helpers/app";
import { storeOfflineSession } from "../helpers/admin";
import type { TestDatabase } from "../helpers/db";
import { connectTestShop, SHOP, testPipeline } from "../helpers/pipeline";
import { shopifyAdminControl, startShopifyAdmin, type RunningShopifyAdmin } from "../../shopify-admin/index";

let db: TestDatabase;
let admin: RunningShopifyAdmin;

beforeAll(async () => {
  db = await useTestDatabaseForApp();
  admin = await startShopifyAdmin({ quiet: true });
  await admin.installFetchRewrite();
  const app = await import("../../app/shopify.server");
  await storeOfflineSession(app.sessionStorage, SHOP);
});

afterAll(async () => {
  await admin?.close();
  await db?.cleanup();
});

describe("write-back while the app is uninstalled", () => {
  it("waits, then writes the order's tags after the reinstall", async () => {
    const app = await import("../../app/shopify.server");
    const { writeBackJobFor } = await import("../../app/models/job-kinds");
    const { enqueueJob } = await import("../../app/queue/jobs.server");
    const { reinstateShop } = await import("../../app/sync/shop-lifecycle.server");
    const { UNINSTALLED_WAIT_MS } = await import("../../app/sync/write-back-task.server");

    // GIVEN a shop with tag write-back on, a lead in motion, and the app uninstalled
    await connectTestShop(db.prisma, {
      apiKey: "unused-in-this-test",
      baseUrl: "http://127.0.0.1:9",
      settings: { writeBack: { tags: true, fulfillment: false, markPaid: false, cancel: false } },
    });
    const order = admin.addOrder({ lines: [{ sku: "ARGAN-50", quantity: 1 }], tags: ["vip"] }, SHOP);
    const control = shopifyAdminControl(admin.url);
    const orderId = order.id.split("/").pop()!;
    const link = await db.prisma.orderLink.create({
      data: {
        shop: SHOP,
        orderId,
        orderName: "#7001",
        payload: "{}",
        externalRef: `shopify:${SHOP}:${orderId}`,
        state: "created",
        leadRef: "ATB-7001",
        confirmationStatus: "confirmed",
        shippingStatus: "pending",
        postedAt: new Date(),
      },
    });
    const uninstalledAt = new Date();
    await db.prisma.shop.update({ where: { domain: SHOP }, data: { uninstalledAt } });
    const pipeline = testPipeline(db.prisma, {
      adminFor: async (shop) => (await app.unauthenticated.admin(shop)).admin,
    });
    await db.prisma.$transaction((tx) => enqueueJob(tx, writeBackJobFor(SHOP, orderId, link.id)));

    // WHEN the worker runs the job
    await pipeline.drain({ kinds: ["write-back"], timeoutMs: 5_000 });

    // THEN nothing is written, and the job waits (not done, not dead, no attempt spent)
    const waiting = await db.prisma.job.findFirstOrThrow({ where: { kind: "write-back", shop: SHOP } });
    expect(waiting.state).toBe("pending");
    expect(waiting.attempts).toBe(0);
    expect(waiting.runAt.getTime()).toBeGreaterThanOrEqual(uninstalledAt.getTime() + UNINSTALLED_WAIT_MS - 60_000);
    const tagsBefore = (await control.order(SHOP, orderId)).tags;

    // WHEN the shop installs the app again
    const reinstated = await reinstateShop(db.prisma, SHOP);
    expect(reinstated.reinstalled).toBe(true);
    await pipeline.drain({ kinds: ["write-back"], timeoutMs: 10_000 });

    // THEN the job ran and the order carries the lead's tags
    const done = await db.prisma.job.findFirstOrThrow({ where: { kind: "write-back", shop: SHOP } });
    expect(done.state).toBe("done");
    const tagsAfter = (await control.order(SHOP, orderId)).tags;
    expect(tagsBefore).toEqual(["vip"]);
    expect(tagsAfter.length).toBeGreaterThan(tagsBefore.length);
    expect(tagsAfter).toContain("vip");
  });
});
