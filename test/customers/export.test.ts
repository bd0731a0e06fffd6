/**
 * Export on request from the Customer card: the route answers the delivery
 * record and the phone's orders in this shop, as JSON or CSV, through a real
 * session token on a real database; another shop's order is not found.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { PrismaClient } from "@prisma/client";
import { adminRequest } from "../helpers/admin";
import { SHOP_A, SHOP_B, startAdminApp, stopAdminApp, type AdminApp } from "../pages/helpers";

type ExportRoute = typeof import("../../app/routes/app.orders.$id.customer-export");

let app: AdminApp;
let db: PrismaClient;
let route: ExportRoute;
const PHONE = "0661234567";

beforeAll(async () => {
  app = await startAdminApp();
  db = app.db.prisma;
  route = await import("../../app/routes/app.orders.$id.customer-export");
});
afterAll(() => stopAdminApp(app));

let seq = 0;
function link(shop: string, data: Record<string, unknown> = {}) {
  seq += 1;
  return db.orderLink.create({
    data: {
      shop,
      orderId: String(4_400_000 + seq),
      orderName: `#${5000 + seq}`,
      payload: "{}",
      externalRef: `x-${seq}`,
      phone: PHONE,
      createdAt: new Date(Date.UTC(2026, 2, seq)),
      ...data,
    },
  });
}

async function get(shop: string, id: string, format?: string): Promise<Response> {
  const request = await adminRequest(shop, `/app/orders/${id}/customer-export${format ? `?format=${format}` : ""}`, {
    as: "fetch",
  });
  try {
    return await route.loader({ request, params: { id }, context: {} });
  } catch (thrown) {
    if (thrown instanceof Response) return thrown;
    throw thrown;
  }
}

describe("customer export from the Customer card", () => {
  let mine: Awaited<ReturnType<typeof link>>;
  let theirs: Awaited<ReturnType<typeof link>>;
  beforeAll(async () => {
    mine = await link(SHOP_A, {
      state: "created",
      leadRef: "ATB-1",
      confirmationStatus: "confirmed",
      shippingStatus: "delivered",
      totalClient: "249.00",
    });
    await link(SHOP_A, {
      state: "created",
      leadRef: "ATB-2",
      confirmationStatus: "canceled",
      shippingStatus: "pending",
      totalClient: "=1+1",
    });
    await link(SHOP_A, { phone: "0699999999" });
    theirs = await link(SHOP_B, { state: "created", leadRef: "RIF-9" });
    await db.customerRecord.create({
      data: {
        shop: SHOP_A,
        phoneKey: PHONE,
        orders: 2,
        delivered: 1,
        refused: 1,
        collectedCents: 24900n,
        standing: "trusted",
        lastOutcome: "refused",
      },
    });
    await db.customerRecord.create({ data: { shop: SHOP_B, phoneKey: PHONE, orders: 1, returned: 1 } });
  });

  it("answers the record and this shop's orders of the phone as JSON", async () => {
    const response = await get(SHOP_A, mine.id);
    expect(response.status).toBe(200);
    expect(response.headers.get("Content-Disposition")).toBe(`attachment; filename="customer-${PHONE}.json"`);
    expect(response.headers.get("Cache-Control")).toBe("no-store");
    const body = (await response.json()) as {
      shop: string;
      phoneKey: string;
      record: Record<string, unknown>;
      orders: { orderName: string; outcome: string | null }[];
    };
    expect(body).toMatchObject({ shop: SHOP_A, phoneKey: PHONE });
    expect(body.record).toMatchObject({
      standing: "trusted",
      orders: 2,
      collectedCents: 24900,
      counts: { delivered: 1, refused: 1, returned: 0 },
    });
    expect(body.orders.map((o) => [o.orderName, o.outcome])).toEqual([
      ["#5002", "refused"],
      ["#5001", "delivered"],
    ]);
  });

  it("answers the same as CSV, one table", async () => {
    const response = await get(SHOP_A, mine.id, "csv");
    expect(response.headers.get("Content-Type")).toBe("text/csv; charset=utf-8");
    const lines = (await response.text()).trimEnd().split("\r\n");
    expect(lines[0]).toBe(
      "kind,phone,order_id,order_name,ordered_at,state,lead_ref,confirmation_status,shipping_status,total_mad,outcome,field,value",
    );
    expect(lines).toContain(`record,${PHONE},,,,,,,,,,standing,trusted`);
    expect(lines).toContain(`record,${PHONE},,,,,,,,,,collected_mad,249.00`);
    expect(lines.filter((l) => l.startsWith("order,"))).toEqual([
      `order,${PHONE},4400002,#5002,2026-03-02T00:00:00.000Z,created,ATB-2,canceled,pending,0.00,refused,,`,
      `order,${PHONE},4400001,#5001,2026-03-01T00:00:00.000Z,created,ATB-1,confirmed,delivered,249.00,delivered,,`,
    ]);
  });

  it("finds no other shop's order, refuses an unknown format, and has nothing for an order without a phone", async () => {
    expect((await get(SHOP_A, theirs.id)).status).toBe(404);
    expect((await get(SHOP_B, mine.id)).status).toBe(404);
    expect((await get(SHOP_A, mine.id, "xml")).status).toBe(400);
    const noPhone = await link(SHOP_A, { phone: null });
    expect((await get(SHOP_A, noPhone.id)).status).toBe(404);
  });
});
