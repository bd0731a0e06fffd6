/**
 * The cash pages through their real loaders: Home's owed card and overdue
 * alert, the cash list (views, ages, pages both ways, a wrong address answered),
 * its CSV (a view, an Analytics period, a refused parameter), Analytics' owed
 * and paid figures against the previous period, and the Settings section's
 * three fields; every read scoped to the session's shop. Parcels reach the
 * ledger as the status sync tells it (lead events in the changing transaction).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { OrderLink } from "@prisma/client";
import { load, SHOP_A, SHOP_B, startAdminApp, stopAdminApp, submit, type AdminApp } from "./helpers";
import { snapshotOf } from "../../app/models/lead-events";
import { addDays, localDay } from "../../app/analytics/days";

const DAY = 86_400_000;
let app: AdminApp;
let seq = 0;
const today = () => localDay("Africa/Casablanca", new Date());

beforeAll(async () => {
  app = await startAdminApp();
});
afterAll(() => stopAdminApp(app));

/** A lead whose parcel moved to each (shipping, days ago) in turn, told to the ledger as the status sync does. */
async function parcel(
  shop: string,
  moves: [string, number][],
  amounts: { total?: string; profit?: string | null } = {},
): Promise<OrderLink> {
  const { applyLeadEvents } = await import("../../app/sync/lead-events.server");
  const db = app.db.prisma;
  seq++;
  let link = await db.orderLink.create({
    data: {
      shop,
      orderId: String(9_100_000 + seq),
      orderName: `#C${seq}`,
      payload: "{}",
      externalRef: `shopify:${9_100_000 + seq}`,
      state: "created",
      leadRef: `ATB-C${seq}`,
      confirmationStatus: "confirmed",
      shippingStatus: "shipped",
      totalClient: amounts.total ?? "300.00",
      createdAt: new Date(Date.now() - (moves[0][1] + 2) * DAY),
    },
  });
  for (const [shipping, daysAgo] of moves) {
    const before = link;
    link = await db.orderLink.update({
      where: { id: link.id },
      data: { shippingStatus: shipping, sellerProfit: amounts.profit === undefined ? "100.00" : amounts.profit },
    });
    await db.$transaction((tx) =>
      applyLeadEvents(tx, shop, [
        {
          linkId: link.id,
          kind: "status",
          before: snapshotOf(before),
          after: snapshotOf(link),
          at: new Date(Date.now() - daysAgo * DAY),
        },
      ]),
    );
  }
  return link;
}

let late: OrderLink, middle: OrderLink, fresh: OrderLink, paid: OrderLink, returned: OrderLink, otherShop: OrderLink;

describe("cash pages", () => {
  beforeAll(async () => {
    late = await parcel(SHOP_A, [["delivered", 20]], { profit: "100.00" });
    middle = await parcel(SHOP_A, [["delivered", 10]], { total: "200.00", profit: "70.00" });
    fresh = await parcel(SHOP_A, [["delivered", 3]], { profit: null });
    paid = await parcel(
      SHOP_A,
      [
        ["delivered", 30],
        ["paid", 5],
      ],
      { profit: "90.00" },
    );
    returned = await parcel(SHOP_A, [["returned", 8]], { total: "150.00", profit: null });
    // Another shop's parcel, long overdue: never on SHOP_A's pages.
    otherShop = await parcel(SHOP_B, [["delivered", 40]], { profit: "999.00" });
  });

  it("Home: owed by the platform, of which overdue past the shop's threshold, as the alert counts them", async () => {
    const route = await import("../../app/routes/app._index");
    const { dashboard } = await load(route.loader, SHOP_A, "/app");
    expect(dashboard.cash).toMatchObject({
      hasLedger: true,
      owed: { parcels: 3, profitCents: 17000, totalCents: 80000, unknownProfit: 1 },
      overdueDays: 14,
      overdue: { parcels: 1, profitCents: 10000 },
    });
    expect(dashboard.cash.byAge["8-14"]).toMatchObject({ parcels: 1, profitCents: 7000 });
    // Imports the Home route and its dashboard on first use: slow on a loaded machine.
  }, 120_000);

  it("the cash list: owed parcels oldest first, an age window, paid and returned, and a wrong address answered", async () => {
    const route = await import("../../app/routes/app.cash");
    const owed = await load(route.loader, SHOP_A, "/app/cash");
    expect(owed.errors).toEqual([]);
    expect(owed.page.rows.map((r) => r.orderName)).toEqual([late.orderName, middle.orderName, fresh.orderName]);
    expect(owed.page.rows.map((r) => r.ageDays)).toEqual([20, 10, 3]);
    expect(owed.totals).toMatchObject({ parcels: 3, profitCents: 17000, unknownProfit: 1 });
    expect(owed.page.rows[2].profitCents).toBeNull();

    const longWait = await load(route.loader, SHOP_A, "/app/cash?state=owed&minAge=15");
    expect(longWait.page.rows.map((r) => r.orderName)).toEqual([late.orderName]);
    expect(longWait.totals.profitCents).toBe(10000);
    const band = await load(route.loader, SHOP_A, "/app/cash?state=owed&minAge=8&maxAge=14");
    expect([band.bucket, band.page.rows.map((r) => r.orderName)]).toEqual(["8-14", [middle.orderName]]);

    const paidView = await load(route.loader, SHOP_A, "/app/cash?state=paid");
    expect(paidView.page.rows).toMatchObject([
      {
        orderName: paid.orderName,
        paidDay: addDays(today(), -5),
        deliveredDay: addDays(today(), -30),
        profitCents: 9000,
      },
    ]);
    const returnedView = await load(route.loader, SHOP_A, "/app/cash?state=returned");
    expect(returnedView.page.rows).toMatchObject([
      { orderName: returned.orderName, returnedDay: addDays(today(), -8), totalCents: 15000 },
    ]);
    expect(returnedView.totals.totalCents).toBe(15000);

    const wrong = await load(route.loader, SHOP_A, "/app/cash?minAge=soon");
    expect(wrong.errors).toEqual(["bad_age"]);
    expect(wrong.page.rows).toHaveLength(3);
    // The other shop's parcel appears in no view of this one.
    for (const view of [owed, longWait, paidView, returnedView])
      expect(view.page.rows.map((r) => r.linkId)).not.toContain(otherShop.id);
    const theirs = await load(route.loader, SHOP_B, "/app/cash");
    expect(theirs.page.rows.map((r) => r.linkId)).toEqual([otherShop.id]);
    expect(theirs.overview.overdue.profitCents).toBe(99900);
  });

  it("pages through a view both ways, each page in the list's order", async () => {
    const { listCashParcels } = await import("../../app/analytics/cash-list.server");
    const { parseCashQuery } = await import("../../app/analytics/cash-query");
    for (let i = 0; i < 5; i++) await parcel(SHOP_A, [["delivered", 12]], { profit: "10.00" });
    const query = (search: string) => parseCashQuery(new URLSearchParams(search)).query;
    const whole = (await listCashParcels(app.db.prisma, SHOP_A, query(""), today(), 100)).rows.map((r) => r.linkId);
    expect(whole).toHaveLength(8);
    const forward: string[] = [];
    let page = await listCashParcels(app.db.prisma, SHOP_A, query(""), today(), 3);
    expect(page.previous).toBeNull();
    forward.push(...page.rows.map((r) => r.linkId));
    while (page.next) {
      page = await listCashParcels(app.db.prisma, SHOP_A, query(`after=${page.next}`), today(), 3);
      forward.push(...page.rows.map((r) => r.linkId));
    }
    expect(forward).toEqual(whole);
    // And back from the last page.
    const backward: string[] = [...page.rows.map((r) => r.linkId)];
    while (page.previous) {
      page = await listCashParcels(app.db.prisma, SHOP_A, query(`before=${page.previous}`), today(), 3);
      backward.unshift(...page.rows.map((r) => r.linkId));
    }
    expect(backward).toEqual(whole);
  });

  it("the CSV: a view, the parcels of an Analytics period, and a refused parameter", async () => {
    const route = await import("../../app/routes/app.cash.export");
    const { adminRequest } = await import("../helpers/admin");
    const call = async (search: string) =>
      route.loader({
        request: await adminRequest(SHOP_A, `/app/cash/export?${search}`, { as: "fetch" }),
        params: {},
        context: {},
      });
    const response = (await call("state=owed&minAge=15")) as Response;
    expect(response.headers.get("Content-Type")).toBe("text/csv; charset=utf-8");
    expect(response.headers.get("Content-Disposition")).toMatch(
      /^attachment; filename="atlas-beauty-cash-owed-from-15-days-\d{4}-\d{2}-\d{2}\.csv"$/,
    );
    const lines = (await response.text()).trim().split("\r\n");
    expect(lines).toEqual([
      "Order,Shopify order id,Lead,State,Delivered on,Paid on,Returned on,Days since delivery,Amount to collect (MAD),Seller profit (MAD)",
      `${late.orderName},${late.orderId},${late.leadRef},Owed,${addDays(today(), -20)},,,20,300.00,100.00`,
    ]);
    // A French reader's file opens in French Excel: ";" between fields, a decimal comma, French words.
    const french = (await ((await call("state=owed&minAge=15&locale=fr")) as Response).text()).trim().split("\r\n");
    expect(french[1]).toBe(
      `${late.orderName};${late.orderId};${late.leadRef};Dû;${addDays(today(), -20)};;;20;300,00;100,00`,
    );
    // The last 30 days: parcels delivered or returned in them (the paid one was delivered 30 days ago: the day before).
    const period = (await ((await call("period=30")) as Response).text()).trim().split("\r\n").slice(1);
    const names = period.map((l) => l.split(",")[0]);
    expect(names).toHaveLength(9);
    expect(names).toEqual(
      expect.arrayContaining([late.orderName, middle.orderName, fresh.orderName, returned.orderName]),
    );
    expect(names).not.toContain(paid.orderName);
    const refused = await call("minAge=-3").catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(Response);
    expect((refused as Response).status).toBe(400);
  });

  it("Analytics: owed at the end of the period against the end of the one before, and paid in each", async () => {
    const route = await import("../../app/routes/app.analytics");
    const report = await load(route.loader, SHOP_A, "/app/analytics?period=30");
    // Owed today: 3 parcels at first plus the 5 of the paging test.
    expect(report.cash.current.owedAtEnd).toMatchObject({ parcels: 8, profitCents: 17000 + 5 * 1000 });
    // At the end of the previous period (30 days ago): the parcel delivered that day, paid 5 days ago.
    expect(report.cash.previous.owedAtEnd).toMatchObject({ parcels: 1, profitCents: 9000 });
    expect(report.cash.current.paid).toMatchObject({ parcels: 1, profitCents: 9000 });
    expect(report.cash.current.returned).toMatchObject({ parcels: 1, totalCents: 15000 });
    // The last 7 days: at the end of the week before, the parcels delivered 10 to 30 days ago were owed, the paid one included.
    const week = await load(route.loader, SHOP_A, `/app/analytics?from=${addDays(today(), -6)}&to=${today()}`);
    expect(week.cash.previous.owedAtEnd).toMatchObject({ parcels: 8, profitCents: 10000 + 7000 + 5 * 1000 + 9000 });
    expect(week.cash.current.paid.parcels).toBe(1);
  });

  it("Settings: when to mark paid, the overdue delay and the Flow switch are saved, checked, and move the alert", async () => {
    const settings = await import("../../app/routes/app.settings");
    const bad = await submit(settings.action, SHOP_A, "/app/settings", {
      intent: "save",
      apiKey: "",
      baseUrl: "",
      "writeBack.markPaidWhen": "someday",
      paymentOverdueDays: "0",
    });
    expect(bad).toMatchObject({
      ok: false,
      fieldErrors: { "writeBack.markPaidWhen": { code: "invalid" }, paymentOverdueDays: { code: "min", min: 1 } },
    });
    const saved = await submit(settings.action, SHOP_A, "/app/settings", {
      intent: "save",
      apiKey: "",
      baseUrl: "",
      "writeBack.markPaidWhen": "paid",
      paymentOverdueDays: "7",
      "flowTriggers.paymentOverdue": "false",
    });
    expect(saved).toMatchObject({
      ok: true,
      settings: {
        writeBack: { markPaidWhen: "paid", markPaid: true },
        paymentOverdueDays: 7,
        flowTriggers: { paymentOverdue: false },
      },
    });
    const page = await load(settings.loader, SHOP_A, "/app/settings");
    expect(page.form).toMatchObject({
      "writeBack.markPaidWhen": "paid",
      paymentOverdueDays: "7",
      "flowTriggers.paymentOverdue": "false",
    });

    // Seven days: the parcels delivered 10 and 12 days ago are overdue too.
    const home = await import("../../app/routes/app._index");
    const { dashboard } = await load(home.loader, SHOP_A, "/app");
    expect(dashboard.cash.overdue).toMatchObject({ parcels: 7, profitCents: 10000 + 7000 + 5 * 1000 });
    expect(app.shopifyCalls).toEqual([]);
  });
});
