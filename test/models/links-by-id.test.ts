/**
 * shopLinksByIds reads links by primary key and keeps the shop's own: however
 * the ids are mixed, another shop's link never comes back.
 */
import { afterAll, beforeAll, expect, it } from "vitest";
import { shopLinkIds, shopLinksByIds } from "../../app/models/links-by-id.server";
import { createTestDatabase, type TestDatabase } from "../helpers/db";

let db: TestDatabase;
const A = "a-shop.myshopify.com";
const B = "b-shop.myshopify.com";
const link = (shop: string, i: number) => ({
  shop,
  orderId: String(i),
  orderName: `#${i}`,
  payload: "{}",
  externalRef: `shopify:${i}`,
  state: "created",
});

beforeAll(async () => {
  db = await createTestDatabase();
  await db.prisma.orderLink.createMany({ data: Array.from({ length: 700 }, (_, i) => link(i % 2 === 0 ? A : B, i)) });
});
afterAll(async () => {
  await db.cleanup();
});

it("GIVEN ids of two shops' links and unknown ids WHEN one shop's are asked THEN only its own come back, over more than one read", async () => {
  const all = await db.prisma.orderLink.findMany({ select: { id: true, shop: true } });
  const ids = [...all.map((l) => l.id), "no-such-link"];
  const ofA = await shopLinksByIds(db.prisma, A, ids, { id: true, orderName: true });
  expect(ofA).toHaveLength(350);
  expect(new Set(ofA.map((l) => l.id))).toEqual(new Set(all.filter((l) => l.shop === A).map((l) => l.id)));
  // The columns asked for, and the shop (read to check it).
  expect(Object.keys(ofA[0]).sort()).toEqual(["id", "orderName", "shop"].sort());
  expect(await shopLinkIds(db.prisma, B, ids)).toEqual(new Set(all.filter((l) => l.shop === B).map((l) => l.id)));
  expect(await shopLinksByIds(db.prisma, A, [], { id: true })).toEqual([]);
});
