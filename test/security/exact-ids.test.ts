/**
 * Shopify's ids are 64-bit: its own sample orders/create payload has the id
 * 820982911946154508, which JSON.parse rounds (to ...500), so two orders whose
 * ids differed only in their last digits were one order and the second was
 * dropped as a redelivery. Through the real webhook routes, the pipeline and
 * the sandbox: order, customer, line and variant ids beyond 2^53 stay exact.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { webhookOrder } from "../helpers/orders";
import { startOrderWorld, type OrderWorld } from "./order-world";

let world: OrderWorld;
beforeAll(async () => {
  world = await startOrderWorld();
});
afterAll(() => world?.close());

const FIRST = "820982911946154508";
const SECOND = "820982911946154509";
// Both round to the same double: a variant mapping keyed on one must not catch the other.
const MAPPED_VARIANT = "820982911946154700";
const OTHER_VARIANT = "820982911946154701";

interface Ids {
  order: string;
  customer: string;
  line: string;
  variant: string;
}
const FIRST_IDS: Ids = {
  order: FIRST,
  customer: "820982911946154777",
  line: "820982911946155001",
  variant: MAPPED_VARIANT,
};
const SECOND_IDS: Ids = {
  order: SECOND,
  customer: "820982911946154778",
  line: "820982911946155002",
  variant: OTHER_VARIANT,
};

/** The order's body as Shopify writes it: its ids as bare JSON numbers (put in the text: a JS number cannot hold them). */
function orderBody(ids: Ids, phone: string, extra: Record<string, unknown> = {}): string {
  const order = webhookOrder({
    id: 1,
    phone,
    items: [{ sku: null, quantity: 1, price: "199.00", title: "Huile d'argan 100 ml" }],
  });
  const placeholders = {
    ...order,
    ...extra,
    id: "@order@",
    customer: { ...(order.customer as object), id: "@customer@" },
    line_items: (order.line_items as Record<string, unknown>[]).map((line) => ({
      ...line,
      id: "@line@",
      variant_id: "@variant@",
    })),
  };
  return JSON.stringify(placeholders).replace(/"@(order|customer|line|variant)@"/g, (_, name: keyof Ids) => ids[name]);
}

describe("ids beyond 2^53", () => {
  it("keeps two orders whose ids differ in the last digit as two orders, each with its own customer, lines and variants", async () => {
    const prisma = world.app.db.prisma;
    await prisma.skuMapping.create({
      data: {
        shop: world.shop,
        sourceKind: "variant",
        sourceKey: MAPPED_VARIANT,
        targets: JSON.stringify([{ sku: "ARG-OIL-100", quantity: 1 }]),
      },
    });
    expect(await world.post("orders/create", orderBody(FIRST_IDS, "0612345601"))).toBe(200);
    expect(await world.post("orders/create", orderBody(SECOND_IDS, "0612345602"))).toBe(200);

    const links = await prisma.orderLink.findMany({ where: { shop: world.shop }, orderBy: { orderId: "asc" } });
    expect(links.map((l) => [l.orderId, l.customerId])).toEqual([
      [FIRST, FIRST_IDS.customer],
      [SECOND, SECOND_IDS.customer],
    ]);

    await world.pipeline.drain();
    const [first, second] = await prisma.orderLink.findMany({
      where: { shop: world.shop },
      orderBy: { orderId: "asc" },
    });
    // The first line's variant is mapped; the second order's variant, one apart, is not.
    expect(first.state).toBe("created");
    expect(JSON.parse(first.leadJson!)).toMatchObject({ items: [{ sku: "ARG-OIL-100", quantity: 1 }] });
    expect(second.state).toBe("held");
    const finding = (JSON.parse(second.findings) as { code: string; params: Record<string, unknown> }[]).find(
      (f) => f.code === "sku_missing",
    );
    expect(finding?.params.lineItemId).toBe(SECOND_IDS.line);
    // The snapshot keeps every id exactly.
    expect(second.payload).toContain(`"id":"${SECOND}"`);
    expect(second.payload).toContain(`"variant_id":"${OTHER_VARIANT}"`);
    expect(first.externalRef).not.toBe(second.externalRef);
  });

  it("applies an orders/updated to the order it names, not to its neighbour", async () => {
    const prisma = world.app.db.prisma;
    const later = new Date(Date.now() + 60_000).toISOString();
    const body = orderBody({ ...SECOND_IDS, variant: MAPPED_VARIANT }, "0612345602", {
      updated_at: later,
      name: "#corrected",
    });
    expect(await world.post("orders/updated", body)).toBe(200);
    const [first, second] = await prisma.orderLink.findMany({
      where: { shop: world.shop },
      orderBy: { orderId: "asc" },
    });
    expect(first.orderName).not.toBe("#corrected");
    expect(second.orderName).toBe("#corrected");
    await world.pipeline.drain();
    expect((await prisma.orderLink.findUniqueOrThrow({ where: { id: second.id } })).state).toBe("created");
  });
});
