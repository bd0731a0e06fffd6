/**
 * Retention and the reconciliation together: an order the app purged is never taken
 * in again. A shop installed long ago whose passes run every interval (its coverage
 * start still the install, its watermark minutes old) receives an order, which is
 * posted (one lead) and finished; retention purges it; the merchant then edits it in
 * Shopify (the Shopify Admin stand-in), so the next pass lists it as updated. The
 * pass must leave it: still one lead on the platform, no link again. Real parts: the
 * stand-in through the app's Admin client, the sandbox, the worker, a real database.
 */
import { describe, expect, it } from "vitest";
import type { ActionFunctionArgs } from "@remix-run/node";
import { sandboxControl } from "../../sandbox/index";
import { webhookOrder } from "../helpers/orders";
import { SHOP } from "../helpers/pipeline";
import { useReconcileWorld } from "../helpers/reconcile-world";
import { signedWebhookRequest } from "../helpers/webhooks";

const DAY = 24 * 3600_000;
// Installed 400 days ago, keeping 30 days of orders.
const world = useReconcileWorld({ installedAgoMs: 400 * DAY, settings: { retentionDays: 30 } });

const leadsFor = async (externalRef: string) =>
  (await sandboxControl(world().sandbox.url).leads("ACC-1001")).filter((l) => l.external_ref === externalRef);

describe("an order retention purged", () => {
  it("GIVEN a finished order purged by retention WHEN Shopify reports it updated THEN the next pass leaves it: one lead", async () => {
    const { db, control, deps, drain, reconcile } = world();
    // The passes ran all along: the coverage start is the install, the watermark minutes old.
    await reconcile();
    await db.prisma.syncLedger.update({
      where: { shop: SHOP },
      data: { coverageFrom: new Date(Date.now() - 400 * DAY), watermark: new Date(Date.now() - 10 * 60_000) },
    });
    // Placed 100 days ago, received, sent on the merchant's word, its lead finished.
    const placedAt = new Date(Date.now() - 100 * DAY);
    const order = webhookOrder({ id: 7_480_000_000_001, phone: "0661234501", createdAt: placedAt.toISOString() });
    await control.placeOrder(SHOP, order, { deliver: false });
    const { action } = await import("../../app/routes/webhooks.orders.create");
    const request = signedWebhookRequest({ topic: "orders/create", shop: SHOP, body: order });
    expect((await action({ request, params: {}, context: {} } as ActionFunctionArgs)).status).toBe(200);
    await drain();
    // Older than the shop's limit for sending unasked: held until the merchant's word sends it.
    const held = await db.prisma.orderLink.findUniqueOrThrow({
      where: { shop_orderId: { shop: SHOP, orderId: String(order.id) } },
    });
    expect(held.state).toBe("held");
    const { resendOrder } = await import("../../app/sync/order-actions.server");
    await resendOrder(db.prisma, SHOP, held.id, { by: "merchant", sendStale: true });
    await drain();
    const link = await db.prisma.orderLink.findUniqueOrThrow({
      where: { shop_orderId: { shop: SHOP, orderId: String(order.id) } },
    });
    expect(link.state).toBe("created");
    expect(await leadsFor(link.externalRef)).toHaveLength(1);
    // 100 days on: its lead finished long ago, and so did its jobs.
    await db.prisma.orderLink.update({ where: { id: link.id }, data: { statusFinal: true, createdAt: placedAt } });
    await db.prisma.job.updateMany({ where: { shop: SHOP, state: "done" }, data: { updatedAt: placedAt } });

    const { purgeShopData } = await import("../../app/sync/retention.server");
    expect(await purgeShopData(deps, SHOP)).toMatchObject({ orders: 1 });
    const ledger = await db.prisma.syncLedger.findUniqueOrThrow({ where: { shop: SHOP } });

    // The merchant archives it with a note: Shopify lists it as updated now.
    await control.editOrder(SHOP, String(order.id), { note: "archived" }, { deliver: false });
    await reconcile();

    expect(await leadsFor(link.externalRef)).toHaveLength(1);
    expect(
      await db.prisma.orderLink.findUnique({ where: { shop_orderId: { shop: SHOP, orderId: String(order.id) } } }),
    ).toBeNull();
    // Retention moved the coverage start past what it removed.
    expect(ledger.coverageFrom.getTime()).toBeGreaterThan(placedAt.getTime());
    const last = await db.prisma.job.findUniqueOrThrow({ where: { key: `reconcile:${SHOP}` } });
    expect(last.lastError).toBeNull();
    // The pass after it did not move the coverage start back.
    expect((await db.prisma.syncLedger.findUniqueOrThrow({ where: { shop: SHOP } })).coverageFrom).toEqual(
      ledger.coverageFrom,
    );
    // Three drains of the worker: a bound a loaded machine meets.
  }, 300_000);
});
