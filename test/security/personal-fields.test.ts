/**
 * Personal values masked in what the order-page extensions see: a name or address over ~50 KB made `new RegExp(value)` throw
 * ("regular expression too large"), so the status endpoint answered 500 for
 * that order on every load. Masking is now plain string search (its time
 * against the text's length: `npm run bench -- complexity`).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { maskPersonal } from "../../app/pages/order-status-view.server";
import { adminRequest } from "../helpers/admin";
import { webhookOrder } from "../helpers/orders";
import { startOrderWorld, type OrderWorld } from "./order-world";

let world: OrderWorld;
let statusRoute: typeof import("../../app/routes/api.orders.$orderId.status");

beforeAll(async () => {
  world = await startOrderWorld();
  statusRoute = await import("../../app/routes/api.orders.$orderId.status");
});
afterAll(() => world?.close());

describe("personal values over 50 KB", () => {
  it("are masked, case-insensitively, without a RegExp built from them", () => {
    const name = `Fatima ${"Zahra".repeat(20_000)}`;
    const text = `Order of ${name.toUpperCase()} for ${name}, call 06 12 34 56 78.`;
    expect(maskPersonal(text, [name])).toBe("Order of ••• for •••, call •••.");
    // Special characters are text, not patterns.
    expect(maskPersonal("a.b*c (x) a.b*c", ["a.b*c"])).toBe("••• (x) •••");
  });

  it("leave the order page's status endpoint answering 200, the values masked", async () => {
    const huge = `Fatima ${"Zahra".repeat(15_000)}`;
    const body = webhookOrder({
      id: 8_880_000_000_001,
      firstName: huge,
      lastName: "Benali",
      address1: `${"Rue des Orangers ".repeat(4_000)}`,
      city: "Atlantis",
    });
    expect(await world.post("orders/create", body)).toBe(200);
    await world.pipeline.drain();
    const link = await world.app.db.prisma.orderLink.findUniqueOrThrow({
      where: { shop_orderId: { shop: world.shop, orderId: String(body.id) } },
    });
    expect(["held", "created", "damaged"]).toContain(link.state);

    const request = await adminRequest(world.shop, `/api/orders/${body.id}/status`, {
      as: "fetch",
      headers: { Origin: "https://extensions.shopifycdn.com" },
    });
    const response = (await statusRoute.loader({
      request,
      params: { orderId: String(body.id) },
      context: {},
    })) as Response;
    expect(response.status).toBe(200);
    const text = await response.text();
    expect(text).not.toContain("ZahraZahra");
    expect(text).not.toContain("Rue des Orangers Rue");
    expect(text.length).toBeLessThan(20_000);
  });
});
