/**
 * Delivery records shared between a merchant's stores, by consent and proof: on a
 * real database, four stores (three on one seller account, one on another), each
 * with its own record of the same phone, all paired with each other. A store sees
 * another's record (Customer card, hold rule) only when they are paired, both
 * opted in, and both are on one seller account at one platform address.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { useTestDatabaseForApp } from "../helpers/app";
import type { TestDatabase } from "../helpers/db";
import { holdHistory, sharedRecord, sharingPeers } from "../../app/customers/sharing.server";
import { loadCustomerCard } from "../../app/customers/card.server";
import { customerHold } from "../../app/customers/risk";
import { readShopSettings } from "../../app/models/shop-settings";
import { pairKey } from "../../app/customers/pairing";

let db: TestDatabase;
const PHONE = "0677000111";
const NOW = new Date();
const PLATFORM = "https://seller.example.ma/api";
const RULE = { enabled: true, failures: 2, days: 90 };

// A and B: one merchant's two stores. D: the same account, never opted in. C: another merchant.
const STORES = {
  A: { domain: "atlas-a.myshopify.com", account: "ACC-1001" },
  B: { domain: "atlas-b.myshopify.com", account: "ACC-1001" },
  D: { domain: "atlas-d.myshopify.com", account: "ACC-1001" },
  C: { domain: "rif-c.myshopify.com", account: "ACC-2002" },
} as const;
type Store = keyof typeof STORES;

beforeAll(async () => {
  db = await useTestDatabaseForApp();
});
afterAll(() => db?.cleanup());

async function consent(store: Store, on: boolean) {
  const row = await db.prisma.shop.findUniqueOrThrow({ where: { domain: STORES[store].domain } });
  await db.prisma.shop.update({
    where: { domain: row.domain },
    data: { settings: JSON.stringify({ ...readShopSettings(row.settings), shareCustomerRecords: on }) },
  });
}

/** One refused and one returned order of the phone in the store, 10 days ago. */
async function badRecord(store: Store) {
  const shop = STORES[store].domain;
  const at = new Date(NOW.getTime() - 10 * 86_400_000);
  for (const [i, outcome] of (["refused", "returned"] as const).entries()) {
    await db.prisma.customerLead.create({
      data: {
        linkId: `${store}-${i}`,
        shop,
        phoneKey: PHONE,
        orderName: `#${store}${i}`,
        outcome,
        outcomeAt: at,
        orderedAt: at,
      },
    });
  }
  await db.prisma.customerRecord.create({
    data: { shop, phoneKey: PHONE, orders: 2, refused: 1, returned: 1, lastOutcome: "returned", lastOutcomeAt: at },
  });
}

const shopRow = (store: Store) => db.prisma.shop.findUniqueOrThrow({ where: { domain: STORES[store].domain } });
const holdIn = async (store: Store) =>
  customerHold(await holdHistory(db.prisma, await shopRow(store), PHONE), RULE, NOW).hold;

beforeEach(async () => {
  await db.prisma.customerLead.deleteMany();
  await db.prisma.customerRecord.deleteMany();
  await db.prisma.shop.deleteMany();
  await db.prisma.storePairing.deleteMany();
  for (const { domain, account } of Object.values(STORES)) {
    await db.prisma.shop.create({
      data: {
        domain,
        sellerAccount: account,
        sellerApiBaseUrl: PLATFORM,
        settings: JSON.stringify({ shareCustomerRecords: true }),
      },
    });
  }
  // Every store paired with every other, so the other rules are what these tests see.
  const domains = Object.values(STORES).map((s) => s.domain);
  for (const a of domains)
    for (const b of domains)
      if (a < b) await db.prisma.storePairing.create({ data: { ...pairKey(a, b), codeFrom: a } });
  await consent("D", false);
  // Only B, C and D know the customer; A is the store taking a new order.
  for (const store of ["B", "C", "D"] as const) await badRecord(store);
});

describe("sharing delivery records between a merchant's stores", () => {
  it("is off by default", () => {
    expect(readShopSettings("{}").shareCustomerRecords).toBe(false);
  });

  it("shares when both stores consent on one seller account: the card shows it and the hold rule counts it", async () => {
    expect(await sharingPeers(db.prisma, STORES.A.domain)).toEqual([STORES.B.domain]);
    expect(await sharedRecord(db.prisma, STORES.A.domain, PHONE)).toMatchObject({
      stores: 1,
      orders: 2,
      counts: { refused: 1, returned: 1, delivered: 0 },
      lastOutcome: "returned",
    });
    const card = await loadCustomerCard(db.prisma, STORES.A.domain, PHONE);
    expect(card).toMatchObject({ orders: 0, risk: "high", shared: { stores: 1, orders: 2 } });
    expect(await holdIn("A")).toBe(true);
  });

  it("does not share when only one side consents", async () => {
    // D keeps its record to itself although A and B consent...
    expect(await sharingPeers(db.prisma, STORES.A.domain)).not.toContain(STORES.D.domain);
    // ...and sees none of theirs.
    expect(await sharingPeers(db.prisma, STORES.D.domain)).toEqual([]);
    await db.prisma.customerLead.deleteMany({ where: { shop: STORES.D.domain } });
    await db.prisma.customerRecord.deleteMany({ where: { shop: STORES.D.domain } });
    expect(await loadCustomerCard(db.prisma, STORES.D.domain, PHONE)).toMatchObject({
      orders: 0,
      risk: "new",
      shared: null,
    });
    expect(await holdIn("D")).toBe(false);
    // A store that opted out sees nothing either, even with consenting peers.
    await consent("A", false);
    expect(await sharedRecord(db.prisma, STORES.A.domain, PHONE)).toBeNull();
    expect(await holdIn("A")).toBe(false);
  });

  it("never shares across seller accounts, whatever both stores said", async () => {
    for (const store of ["A", "B", "D"] as const)
      expect(await sharingPeers(db.prisma, STORES[store].domain)).not.toContain(STORES.C.domain);
    expect(await sharingPeers(db.prisma, STORES.C.domain)).toEqual([]);
    // Nor with a store whose key was never verified (no account id).
    await db.prisma.shop.update({ where: { domain: STORES.B.domain }, data: { sellerAccount: null } });
    expect(await sharingPeers(db.prisma, STORES.A.domain)).toEqual([]);
    expect(await sharingPeers(db.prisma, STORES.B.domain)).toEqual([]);
    expect(await holdIn("A")).toBe(false);
  });

  it("does not share between stores that never paired, whatever their consent and account", async () => {
    await db.prisma.storePairing.deleteMany({ where: pairKey(STORES.A.domain, STORES.B.domain) });
    expect(await sharingPeers(db.prisma, STORES.A.domain)).toEqual([]);
    expect(await sharingPeers(db.prisma, STORES.B.domain)).not.toContain(STORES.A.domain);
    expect(await sharedRecord(db.prisma, STORES.A.domain, PHONE)).toBeNull();
    expect(await holdIn("A")).toBe(false);
  });

  it("does not share with a store whose key was verified at another platform address, even on the same account id", async () => {
    await db.prisma.shop.update({
      where: { domain: STORES.B.domain },
      data: { sellerApiBaseUrl: "http://127.0.0.1:4999" },
    });
    expect(await sharingPeers(db.prisma, STORES.A.domain)).toEqual([]);
    expect(await holdIn("A")).toBe(false);
    // The same address however it was typed (case, trailing slash) is the same platform.
    await db.prisma.shop.update({
      where: { domain: STORES.B.domain },
      data: { sellerApiBaseUrl: "HTTPS://Seller.Example.ma/api/" },
    });
    expect(await sharingPeers(db.prisma, STORES.A.domain)).toEqual([STORES.B.domain]);
  });

  it("stops sharing as soon as a store revokes its consent, or is uninstalled", async () => {
    expect(await holdIn("A")).toBe(true);
    await consent("B", false);
    expect(await sharingPeers(db.prisma, STORES.A.domain)).toEqual([]);
    expect((await loadCustomerCard(db.prisma, STORES.A.domain, PHONE))!.shared).toBeNull();
    expect(await holdIn("A")).toBe(false);
    await consent("B", true);
    expect(await holdIn("A")).toBe(true);
    await db.prisma.shop.update({ where: { domain: STORES.B.domain }, data: { uninstalledAt: new Date() } });
    expect(await holdIn("A")).toBe(false);
  });

  it("customers/redact erases the phone's rows in the shop that received it, and leaves the other store's own rows to that store's request", async () => {
    const { redactCustomer } = await import("../../app/customers/compliance.server");
    const link = await db.prisma.orderLink.create({
      data: {
        shop: STORES.B.domain,
        orderId: "9100001",
        orderName: "#B9",
        payload: "{}",
        externalRef: "b9",
        phone: PHONE,
      },
    });
    await db.prisma.$transaction((tx) =>
      redactCustomer(tx, STORES.B.domain, { customer: { id: 1 }, orders_to_redact: [link.orderId] }),
    );
    expect(await db.prisma.customerLead.count({ where: { shop: STORES.B.domain, phoneKey: PHONE } })).toBe(0);
    expect(await db.prisma.customerRecord.count({ where: { shop: STORES.B.domain, phoneKey: PHONE } })).toBe(0);
    // The other stores' rows are theirs: Shopify sends each store its own customers/redact.
    expect(
      await db.prisma.customerRecord.count({
        where: { shop: { in: [STORES.C.domain, STORES.D.domain] }, phoneKey: PHONE },
      }),
    ).toBe(2);
    // A no longer sees anything of B's.
    expect(await sharedRecord(db.prisma, STORES.A.domain, PHONE)).toBeNull();
    expect(await holdIn("A")).toBe(false);
  });
});
