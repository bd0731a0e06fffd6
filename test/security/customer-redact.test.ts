/**
 * customers/redact leaves nothing of the customer (issue: reasons and timeline
 * messages kept the phone), and customers/data_request exports all of it.
 * A customer's orders go through the real pipeline (signed webhooks, worker,
 * sandbox over loopback, a merchant's correction and resend), then every table of
 * the database, listed from its catalogue, is searched for their personal data.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ActionFunctionArgs } from "@remix-run/node";
import { startSandbox } from "../../sandbox/index";
import { useTestDatabaseForApp } from "../helpers/app";
import { appTables, type TestDatabase } from "../helpers/db";
import { webhookOrder } from "../helpers/orders";
import { connectTestShop, SHOP, testPipeline, type TestPipeline } from "../helpers/pipeline";
import { signedWebhookRequest } from "../helpers/webhooks";

type Action = (args: ActionFunctionArgs) => Promise<Response>;

let db: TestDatabase;
let sandbox: Awaited<ReturnType<typeof startSandbox>>;
let pipeline: TestPipeline;
let routes: Record<"create" | "dataRequest" | "redact", Action>;

const CUSTOMER_ID = 99_001;
const customer = {
  firstName: "Zineb",
  lastName: "Alaoui-Tazi",
  address1: "27 Derb Sidi Bouloukat",
  mobile: "0661234599",
  landline: "0522 98 76 54",
  email: "zineb.alaoui@example.ma",
  correctedAddress: "Riad Zitoun Lakdim 14",
};
/** Every spelling of the customer's data the app could have kept. */
const PERSONAL = [
  customer.firstName,
  customer.lastName,
  customer.address1,
  customer.correctedAddress,
  customer.email,
  "661234599", // 0661234599, +212661234599, 212661234599
  "522 98 76 54",
  "522987654",
];
const other = { firstName: "Youssef", lastName: "Berrada", mobile: "0677001122" };

const ORDER_A = 8_880_000_000_001;
const ORDER_B = 8_880_000_000_002;
const ORDER_OTHER = 8_880_000_000_003;

beforeAll(async () => {
  db = await useTestDatabaseForApp();
  sandbox = await startSandbox({ port: 0, quiet: true, rateLimitPerMinute: 6000 });
  await connectTestShop(db.prisma, {
    shop: SHOP,
    apiKey: sandbox.keys.find((k) => k.account === "ACC-1001")!.key,
    baseUrl: sandbox.url,
  });
  routes = {
    create: (await import("../../app/routes/webhooks.orders.create")).action,
    dataRequest: (await import("../../app/routes/webhooks.customers.data_request")).action,
    redact: (await import("../../app/routes/webhooks.customers.redact")).action,
  };
  pipeline = testPipeline(db.prisma);
  // The shop's Flow has workflows on the app's triggers: their payloads carry personal data too.
  const { recordTriggerUsage } = await import("../../app/flow/flow-triggers.server");
  await recordTriggerUsage(db.prisma, SHOP, { shopify_domain: SHOP, has_enabled_flow: true });
});
afterAll(async () => {
  await sandbox?.close();
  await db?.cleanup();
});

async function deliver(route: Action, topic: string, body: Record<string, unknown>): Promise<number> {
  const request = signedWebhookRequest({
    topic,
    shop: SHOP,
    body,
    url: `https://cod-lead-sync.test/webhooks/${topic}`,
  });
  return (await route({ request, params: {}, context: {} })).status;
}

function customerOrder(id: number, phone: string, who = customer): Record<string, unknown> {
  const body = webhookOrder({
    id,
    customerId: who === customer ? CUSTOMER_ID : 55_001,
    firstName: who.firstName,
    lastName: who.lastName,
    phone,
    city: "Marakech",
  });
  const email = who === customer ? customer.email : "youssef.b@example.ma";
  Object.assign(body, { email, contact_email: email, note: `Appeler ${who.firstName} avant livraison` });
  Object.assign(body.customer as Record<string, unknown>, { email, phone });
  if (who === customer)
    for (const key of ["shipping_address", "billing_address"])
      (body[key] as Record<string, unknown>).address1 = customer.address1;
  return body;
}

/** Every row of every table, as text, with the table it came from. */
async function everyRow(): Promise<{ table: string; text: string }[]> {
  const tables = await appTables(db.prisma);
  expect(tables).toEqual(
    expect.arrayContaining(["OrderLink", "TimelineEvent", "Job", "ApiCall", "DataRequest", "Shop"]),
  );
  const rows: { table: string; text: string }[] = [];
  for (const name of tables) {
    const found = await db.prisma.$queryRawUnsafe<Record<string, unknown>[]>(`SELECT * FROM "${name}"`);
    for (const row of found)
      rows.push({
        table: name,
        text: JSON.stringify(row, (_k, v: unknown) => (typeof v === "bigint" ? String(v) : v)),
      });
  }
  return rows;
}
const where = (rows: { table: string; text: string }[], needle: string) =>
  rows.filter((r) => r.text.includes(needle)).map((r) => r.table);

describe("a customer's personal data", () => {
  it("is exported on customers/data_request and gone from every table after customers/redact", async () => {
    // GIVEN order A sent as a lead, order B held for a fixed-line phone (its reason quotes the number),
    // then corrected by the merchant and sent again, and another customer's order
    expect(await deliver(routes.create, "orders/create", customerOrder(ORDER_A, customer.mobile))).toBe(200);
    expect(await deliver(routes.create, "orders/create", customerOrder(ORDER_B, customer.landline))).toBe(200);
    expect(
      await deliver(routes.create, "orders/create", customerOrder(ORDER_OTHER, other.mobile, other as typeof customer)),
    ).toBe(200);
    await pipeline.drain();
    const held = await db.prisma.orderLink.findUniqueOrThrow({
      where: { shop_orderId: { shop: SHOP, orderId: String(ORDER_B) } },
    });
    expect(held.state).toBe("held");
    expect(held.reason).toContain("522 98 76 54");
    const { resendOrder, setOrderOverrides } = await import("../../app/sync/order-actions.server");
    await setOrderOverrides(
      db.prisma,
      SHOP,
      held.id,
      { phone: customer.mobile, address: customer.correctedAddress },
      { by: "merchant" },
    );
    await resendOrder(db.prisma, SHOP, held.id, { by: "merchant" });
    await pipeline.drain();
    const links = await db.prisma.orderLink.findMany({ where: { shop: SHOP }, orderBy: { orderId: "asc" } });
    expect(links.map((l) => l.leadRef === null)).toEqual([false, false, false]);
    // The personal data is indeed spread over several tables before the erasure.
    const before = await everyRow();
    for (const needle of [customer.lastName, "661234599", "522 98 76 54"])
      expect(where(before, needle).length, needle).toBeGreaterThan(0);
    // (Job: the Flow trigger "Order needs attention" carries the hold's reason for the merchant's workflows.)
    expect(new Set(where(before, "522 98 76 54"))).toEqual(new Set(["OrderLink", "TimelineEvent", "Job"]));

    // WHEN Shopify asks for the customer's data
    const gdpr = {
      shop_id: 1,
      shop_domain: SHOP,
      customer: { id: CUSTOMER_ID, email: customer.email, phone: customer.mobile },
    };
    expect(
      await deliver(routes.dataRequest, "customers/data_request", {
        ...gdpr,
        orders_requested: [ORDER_A, ORDER_B],
        data_request: { id: 1 },
      }),
    ).toBe(200);
    // THEN the stored export holds the snapshot, lead, corrections, reason, findings and timeline of both orders
    const { dataRequestExport, listDataRequests } = await import("../../app/customers/compliance.server");
    const [listed] = await listDataRequests(db.prisma, SHOP);
    expect(listed).toMatchObject({ customerId: String(CUSTOMER_ID), ordersRequested: 2, ordersHeld: 2 });
    const exported = await dataRequestExport(db.prisma, SHOP, listed.id);
    const text = JSON.stringify(exported);
    for (const needle of [
      customer.firstName,
      customer.lastName,
      customer.address1,
      customer.correctedAddress,
      customer.email,
      "661234599",
      "522 98 76 54",
    ]) {
      expect(text, needle).toContain(needle);
    }
    const orderB = exported!.orders.find((o) => o.orderId === String(ORDER_B))!;
    expect(orderB.timeline.some((e) => e.message.includes("522 98 76 54"))).toBe(true);
    expect(orderB.corrections).toMatchObject({ address: customer.correctedAddress });
    expect(text).not.toContain(other.lastName);

    // WHEN Shopify asks to erase the customer
    expect(await deliver(routes.redact, "customers/redact", { ...gdpr, orders_to_redact: [ORDER_A, ORDER_B] })).toBe(
      200,
    );

    // THEN no table holds any of the customer's personal data, in any spelling
    const after = await everyRow();
    for (const needle of PERSONAL) expect(where(after, needle), needle).toEqual([]);
    // AND the other customer's order is untouched (the search does see data that is there)
    expect(where(after, other.lastName)).toContain("OrderLink");
    expect(where(after, "677001122").length).toBeGreaterThan(0);
    // AND the erased orders keep what the merchant needs: order name, lead reference, state, the step history
    const erased = await db.prisma.orderLink.findUniqueOrThrow({
      where: { shop_orderId: { shop: SHOP, orderId: String(ORDER_B) } },
    });
    expect(erased.leadRef).toBe(links[1].leadRef);
    expect(erased.orderName).toBe(links[1].orderName);
    const kinds = (
      await db.prisma.timelineEvent.findMany({ where: { linkId: erased.id }, orderBy: { at: "asc" } })
    ).map((e) => e.kind);
    expect(kinds).toContain("held");
    expect(kinds.at(-1)).toBe("redacted");
    // AND the earlier export was emptied
    expect((await dataRequestExport(db.prisma, SHOP, listed.id))!.orders).toEqual([]);
  });
});
