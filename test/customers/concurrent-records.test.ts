/**
 * A customer's record is a recount of its rows: two transactions counting one
 * phone at the same time (two workers, two status-sync batches) must not leave
 * the total of whichever wrote last. Transactions run at once for real (and
 * would interleave without a lock).
 */
import type { PrismaClient } from "@prisma/client";
import { afterAll, beforeAll, expect, it } from "vitest";
import { createPrismaClient } from "../../app/db/client";
import { applyCustomerEvents } from "../../app/customers/records.server";
import { createTestDatabase, type TestDatabase } from "../helpers/db";
import { type LeadEvent } from "../../app/models/lead-events";

const SHOP = "atlas-beauty.myshopify.com";
const PHONE_KEY = "0612345678";
const LINKS = 24;

let t: TestDatabase;
let clients: PrismaClient[];
beforeAll(async () => {
  t = await createTestDatabase();
  // Two pools, as two workers.
  clients = [t.prisma, createPrismaClient(t.url)];
});
afterAll(async () => {
  await clients[1].$disconnect();
  await t.cleanup();
});

it("GIVEN one phone's leads answered in concurrent transactions on two clients THEN its record counts every one", async () => {
  const ids: string[] = [];
  for (let i = 0; i < LINKS; i++) {
    const link = await t.prisma.orderLink.create({
      data: {
        shop: SHOP,
        orderId: String(7_700_000 + i),
        orderName: `#${7700 + i}`,
        payload: "{}",
        externalRef: `x-${i}`,
        phone: PHONE_KEY,
        state: "created",
        leadRef: `ATB-${i}`,
      },
    });
    ids.push(link.id);
  }
  // Only linkId and at are read by the customer-record handler.
  const answered = (linkId: string) => [{ linkId, kind: "answered", at: new Date() } as unknown as LeadEvent];

  // Four at a time, two on each client: as many as two workers run in parallel.
  for (let i = 0; i < ids.length; i += 4) {
    await Promise.all(
      ids.slice(i, i + 4).map((id, j) =>
        clients[j % clients.length].$transaction((tx) => applyCustomerEvents(tx, SHOP, answered(id)), {
          maxWait: 20_000,
          timeout: 20_000,
        }),
      ),
    );
  }

  expect(await t.prisma.customerLead.count({ where: { shop: SHOP, phoneKey: PHONE_KEY } })).toBe(LINKS);
  const record = await t.prisma.customerRecord.findUniqueOrThrow({
    where: { shop_phoneKey: { shop: SHOP, phoneKey: PHONE_KEY } },
  });
  expect(record).toMatchObject({ orders: LINKS, inProgress: LINKS });
});
