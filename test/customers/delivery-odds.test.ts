/**
 * No score crosses from one merchant to another except through a pairing: a store's
 * odds read its own customer outcomes, and another store's only while the two are
 * paired, both opted in and on one seller account (as the records' sharing); a
 * store's model is fitted on its own orders alone.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { useTestDatabaseForApp } from "../helpers/app";
import type { TestDatabase } from "../helpers/db";
import { oddsCustomer } from "../../app/customers/delivery-odds.server";
import { fitShopOdds, readOddsHistory } from "../../app/customers/odds-fit.server";
import { pairKey } from "../../app/customers/pairing";
import { readShopSettings } from "../../app/models/shop-settings";

let db: TestDatabase;
const PHONE = "0677000222";
const NOW = new Date();
const PLATFORM = "https://seller.example.ma/api";
const STORES = {
  A: { domain: "odds-a.myshopify.com", account: "ACC-1001" },
  B: { domain: "odds-b.myshopify.com", account: "ACC-1001" },
  C: { domain: "odds-c.myshopify.com", account: "ACC-2002" },
} as const;
type Store = keyof typeof STORES;

beforeAll(async () => {
  db = await useTestDatabaseForApp();
});
afterAll(() => db?.cleanup());

beforeEach(async () => {
  await db.prisma.customerLead.deleteMany();
  await db.prisma.orderLink.deleteMany();
  await db.prisma.oddsModel.deleteMany();
  await db.prisma.storePairing.deleteMany();
  await db.prisma.shop.deleteMany();
  for (const { domain, account } of Object.values(STORES))
    await db.prisma.shop.create({
      data: {
        domain,
        sellerAccount: account,
        sellerApiBaseUrl: PLATFORM,
        settings: JSON.stringify({ shareCustomerRecords: true }),
      },
    });
  // Every store paired with every other: the account and the consent decide.
  const domains = Object.values(STORES).map((s) => s.domain);
  for (const a of domains)
    for (const b of domains)
      if (a < b) await db.prisma.storePairing.create({ data: { ...pairKey(a, b), codeFrom: a } });
});

async function refusals(store: Store, count: number) {
  const at = new Date(NOW.getTime() - 5 * 86_400_000);
  for (let i = 0; i < count; i++)
    await db.prisma.customerLead.create({
      data: {
        linkId: `${store}-${i}`,
        shop: STORES[store].domain,
        phoneKey: PHONE,
        orderName: `#${i}`,
        outcome: "refused",
        outcomeAt: at,
        orderedAt: at,
      },
    });
}

const shopRow = (store: Store) => db.prisma.shop.findUniqueOrThrow({ where: { domain: STORES[store].domain } });
const failedIn = async (store: Store) =>
  (await oddsCustomer(db.prisma, await shopRow(store), PHONE, "new-link", NOW)).facts.failed;

async function consent(store: Store, on: boolean) {
  const row = await shopRow(store);
  await db.prisma.shop.update({
    where: { domain: row.domain },
    data: { settings: JSON.stringify({ ...readShopSettings(row.settings), shareCustomerRecords: on }) },
  });
}

describe("whose outcomes a store's odds read", () => {
  it("GIVEN another merchant's refusals of the phone THEN this store's odds never see them", async () => {
    await refusals("C", 3);
    expect(await failedIn("A")).toBe(0);
    await refusals("A", 1);
    expect(await failedIn("A")).toBe(1);
  });

  it("GIVEN the merchant's own other store, paired and both consenting THEN its refusals count, and stop counting when either says no", async () => {
    await refusals("B", 2);
    expect(await failedIn("A")).toBe(2);
    await consent("B", false);
    expect(await failedIn("A")).toBe(0);
    await consent("B", true);
    await db.prisma.storePairing.deleteMany();
    expect(await failedIn("A")).toBe(0);
  });
});

describe("whose orders a store's model learns from", () => {
  it("GIVEN settled orders in two stores THEN each store's fit reads its own only", async () => {
    const settled = (store: Store, n: number, shipping: string) =>
      Array.from({ length: n }, (_, i) => ({
        shop: STORES[store].domain,
        orderId: `${store}${i}`,
        orderName: `#${store}${i}`,
        payload: "{}",
        externalRef: `shopify:${store}${i}`,
        state: "created",
        confirmationStatus: "confirmed",
        shippingStatus: shipping,
        phone: PHONE,
        cityId: 101,
        totalClient: "199.00",
        totalCents: 19_900,
        leadJson: JSON.stringify({ items: [{ sku: "ARG-OIL-100", quantity: 1 }], address: "12 Rue Ibn Battouta" }),
        createdAt: new Date(NOW.getTime() - (30 - i) * 86_400_000),
      }));
    await db.prisma.orderLink.createMany({ data: [...settled("A", 4, "delivered"), ...settled("C", 9, "returned")] });
    expect((await readOddsHistory(db.prisma, STORES.A.domain)).map((o) => o.outcome)).toEqual([
      "delivered",
      "delivered",
      "delivered",
      "delivered",
    ]);
    const report = await fitShopOdds(db.prisma, STORES.A.domain, NOW);
    expect(report).toMatchObject({ orders: 4, settled: 4 });
    const model = JSON.parse((await db.prisma.oddsModel.findUniqueOrThrow({ where: { shop: STORES.A.domain } })).model);
    expect(model.shop).toEqual({ delivered: 4, settled: 4 });
    expect(await db.prisma.oddsModel.findUnique({ where: { shop: STORES.C.domain } })).toBeNull();
  });
});
