/**
 * The pure parts of Analytics: the platform's statuses grouped as the contract
 * defines them, the funnel and its losses, rates with their denominators, the
 * median from a histogram, sorting, weeks, periods and the CSV files.
 */
import { describe, expect, it } from "vitest";
import { statusGroupOf, sentBucket, STATUS_GROUPS } from "../../app/vocabulary/status-groups";
import { addFact, factOf, nonZero, rowsOf, signedCents, type RollupDelta } from "../../app/analytics/contribution";
import {
  histogramMedian,
  sortLines,
  summarise,
  weeklySeries,
  breakdownLine,
  type RollupRow,
} from "../../app/analytics/report";
import { parsePeriod, presetPeriod } from "../../app/analytics/period";
import { breakdownCsv, csvDialect, funnelCsv, weeksCsv } from "../../app/analytics/csv";
import { isDay, weekOf } from "../../app/analytics/days";

const row = (statusGroup: string, orders: number, extra: Partial<RollupRow> = {}): RollupRow => ({
  statusGroup,
  deliveryDays: -1,
  orders,
  totalCents: 0,
  profitCents: 0,
  ...extra,
});

describe("status groups", () => {
  it("reads the parcel once it exists, the call before", () => {
    expect(sentBucket("confirmed", "delivered")).toBe("delivered");
    expect(sentBucket("confirmed", "paid")).toBe("delivered");
    expect(sentBucket("confirmed", "returned")).toBe("returned");
    expect(sentBucket("confirmed", "shipped")).toBe("in_transit");
    expect(sentBucket("confirmed", "picked_up")).toBe("preparing");
    expect(sentBucket("confirmed", "pending")).toBe("preparing");
    expect(sentBucket("confirmed", "canceled")).toBe("parcel_cancelled");
    expect(sentBucket("canceled", "pending")).toBe("call_cancelled");
    for (const s of ["wrong", "fake", "duplicate"]) expect(sentBucket(s, "pending")).toBe("rejected");
    for (const s of ["no_answer_1", "no_answer_2", "no_answer_3"]) expect(sentBucket(s, "pending")).toBe("unreachable");
    for (const s of ["new", "callback", null]) expect(sentBucket(s, "pending")).toBe("awaiting");
  });

  it("puts every state in one group, damaged leads apart, and orders in progress in none", () => {
    expect(statusGroupOf({ state: "damaged", confirmationStatus: "new", shippingStatus: "pending" })).toBe(
      "damaged.awaiting",
    );
    expect(statusGroupOf({ state: "created", confirmationStatus: "confirmed", shippingStatus: "shipped" })).toBe(
      "in_transit",
    );
    expect(
      ["held", "failed", "invalid", "cancelled", "skipped"].map((state) =>
        statusGroupOf({ state, confirmationStatus: null, shippingStatus: null }),
      ),
    ).toEqual(["held", "failed", "invalid", "cancelled", "skipped"]);
    for (const state of ["received", "posting", "retrying"])
      expect(statusGroupOf({ state, confirmationStatus: "new", shippingStatus: "pending" })).toBeNull();
    expect(new Set(STATUS_GROUPS).size).toBe(STATUS_GROUPS.length);
  });
});

describe("contributions", () => {
  const link = {
    id: "l1",
    shop: "s.myshopify.com",
    createdAt: new Date("2026-06-09T23:30:00Z"), // 00:30 on June 10th in Casablanca (UTC+1)
    state: "created",
    confirmationStatus: "confirmed",
    shippingStatus: "delivered",
    cityId: null,
    productKeys: '["product:2","product:1","product:1"]',
    totalClient: "249.90",
    sellerProfit: "-12.5",
  };

  it("counts an order once for the shop, once in its city and once per product, in exact cents", () => {
    const fact = factOf(link, "Africa/Casablanca", "2026-06-13");
    expect(fact).toMatchObject({
      day: "2026-06-10",
      cityId: 0,
      productKeys: ["product:1", "product:2"],
      statusGroup: "delivered",
      totalCents: 24990,
      profitCents: -1250,
    });
    const deltas = new Map<string, RollupDelta>();
    addFact(deltas, fact, 1);
    expect(
      nonZero(deltas).map((d) => [d.grain, d.cityId, d.productKey, d.statusGroup, d.deliveryDays, d.orders]),
    ).toEqual([
      ["shop", -1, "", "delivered", 3, 1],
      ["city", 0, "", "delivered", 3, 1],
      ["product", -1, "product:1", "delivered", 3, 1],
      ["product", -1, "product:2", "delivered", 3, 1],
    ]);
    // A move subtracts exactly what was added.
    addFact(deltas, fact, -1);
    expect(nonZero(deltas)).toEqual([]);
  });

  it("keeps in city and product rows only the outcome their tables show", () => {
    const outcome = (state: string, confirmationStatus: string | null, shippingStatus: string | null) =>
      rowsOf(
        factOf({ ...link, state, confirmationStatus, shippingStatus, productKeys: '["product:1"]' }, "UTC", null),
      ).map((r) => `${r.grain}:${r.statusGroup}`);
    expect(outcome("damaged", "no_answer_2", "pending")).toEqual([
      "shop:damaged.unreachable",
      "city:ordered",
      "product:ordered",
    ]);
    expect(outcome("created", "confirmed", "shipped")).toEqual([
      "shop:in_transit",
      "city:in_transit",
      "product:in_transit",
    ]);
    expect(outcome("created", "confirmed", "returned")).toEqual(["shop:returned", "city:returned", "product:returned"]);
    expect(outcome("skipped", null, null)).toEqual(["shop:skipped", "city:skipped", "product:skipped"]);
    expect(outcome("posting", null, null)).toEqual([]);
  });

  it("reads signed decimals exactly and anything else as zero", () => {
    expect([
      signedCents("0.1"),
      signedCents("-3.05"),
      signedCents("1e3"),
      signedCents(null),
      signedCents(" 12 "),
    ]).toEqual([10, -305, 0, 0, 1200]);
  });
});

describe("summary", () => {
  const rows = [
    row("skipped", 4),
    row("held", 2),
    row("failed", 1),
    row("invalid", 1),
    row("cancelled", 1),
    row("awaiting", 3),
    row("damaged.awaiting", 1),
    row("unreachable", 2),
    row("call_cancelled", 2),
    row("rejected", 1),
    row("preparing", 2),
    row("parcel_cancelled", 1),
    row("in_transit", 2),
    row("delivered", 3, { deliveryDays: 2, totalCents: 60000, profitCents: 21000 }),
    row("delivered", 2, { deliveryDays: 5, totalCents: 40000, profitCents: 14000 }),
    row("damaged.delivered", 1, { deliveryDays: 9, totalCents: 10000, profitCents: -500 }),
    row("returned", 2, { totalCents: 30000 }),
  ];

  it("is a funnel whose steps include each other and whose losses add up", () => {
    const s = summarise(rows);
    expect(s.steps).toEqual({ orders: 27, sent: 22, confirmed: 13, shipped: 10, delivered: 6 });
    expect(s.skipped).toBe(4);
    expect(s.damaged).toBe(2);
    expect(s.losses).toEqual({
      held: 2,
      failed: 1,
      refused_to_send: 1,
      cancelled_before_sending: 1,
      unreachable: 2,
      cancelled_on_call: 2,
      rejected_on_call: 1,
      cancelled_before_shipping: 1,
      returned: 2,
    });
    expect(s.inProgress).toEqual({ awaiting_call: 4, preparing: 2, in_transit: 2 });
    // orders = sent + lost before sending; sent = confirmed + lost or awaiting; and so on.
    expect(s.steps.orders).toBe(s.steps.sent + 2 + 1 + 1 + 1);
    expect(s.steps.sent).toBe(s.steps.confirmed + 2 + 2 + 1 + s.inProgress.awaiting_call);
    expect(s.steps.confirmed).toBe(s.steps.shipped + 1 + s.inProgress.preparing);
    expect(s.steps.shipped).toBe(s.steps.delivered + 2 + s.inProgress.in_transit);
    expect(s.deliveryRate).toEqual({ part: 6, whole: 10, rate: 0.6 });
    expect(s.returnRate).toEqual({ part: 2, whole: 10, rate: 0.2 });
    // Only delivered parcels bring money in.
    expect([s.collectedCents, s.profitCents]).toEqual([110000, 34500]);
    // Days 2,2,2,5,5,9: the two middle values are 2 and 5.
    expect(s.medianDeliveryDays).toBe(3.5);
    expect(summarise([]).deliveryRate).toEqual({ part: 0, whole: 0, rate: null });
  });

  it("takes the median of a histogram", () => {
    expect(histogramMedian(new Map())).toBeNull();
    expect(histogramMedian(new Map([[4, 1]]))).toBe(4);
    expect(
      histogramMedian(
        new Map([
          [1, 2],
          [3, 1],
        ]),
      ),
    ).toBe(1);
    expect(
      histogramMedian(
        new Map([
          [7, 1],
          [1, 1],
        ]),
      ),
    ).toBe(4);
  });

  it("sorts table lines by a figure, lines without one last", () => {
    const lines = [
      breakdownLine("a", "Agadir", summarise([row("delivered", 1, { deliveryDays: 1 }), row("returned", 1)])),
      breakdownLine("b", "Berkane", summarise([row("awaiting", 5)])),
      breakdownLine("c", "Casablanca", summarise([row("delivered", 3, { deliveryDays: 1 })])),
    ];
    expect(sortLines(lines, "deliveryRate", "desc").map((l) => l.key)).toEqual(["c", "a", "b"]);
    expect(sortLines(lines, "deliveryRate", "asc").map((l) => l.key)).toEqual(["a", "c", "b"]);
    expect(sortLines(lines, "orders", "desc").map((l) => l.key)).toEqual(["b", "c", "a"]);
    expect(sortLines(lines, "label", "asc").map((l) => l.key)).toEqual(["a", "b", "c"]);
  });

  it("cuts weeks on Mondays and fills the empty ones", () => {
    expect(weekOf("2026-03-01")).toBe("2026-02-23"); // a Sunday
    expect(weekOf("2026-03-02")).toBe("2026-03-02");
    const weeks = weeklySeries(
      [row("delivered", 2, { day: "2026-03-03", totalCents: 500 }), row("returned", 2, { day: "2026-03-17" })],
      "2026-03-01",
      "2026-03-18",
    );
    expect(weeks.map((w) => [w.week, w.orders, w.deliveryRate.rate, w.collectedCents])).toEqual([
      ["2026-02-23", 0, null, 0],
      ["2026-03-02", 2, 1, 500],
      ["2026-03-09", 0, null, 0],
      ["2026-03-16", 2, 0, 0],
    ]);
  });
});

describe("periods", () => {
  const today = "2026-03-10";
  const parse = (q: string) => parsePeriod(new URLSearchParams(q), today);

  it("takes 7, 30 or 90 days ending today and compares with as many days before", () => {
    expect(parse("period=7").period).toEqual({
      from: "2026-03-04",
      to: today,
      days: 7,
      preset: 7,
      previous: { from: "2026-02-25", to: "2026-03-03" },
    });
    expect(parse("").period).toEqual(presetPeriod(30, today));
    expect(parse("period=12").period.preset).toBe(30);
    expect(parse("from=2026-01-01&to=2026-01-31").period).toMatchObject({
      days: 31,
      preset: null,
      previous: { from: "2025-12-01", to: "2025-12-31" },
    });
  });

  it("says what is wrong with a custom period", () => {
    expect(parse("from=2026-02-30&to=2026-03-01").error).toBe("bad_from");
    expect(parse("from=2026-03-01").error).toBe("bad_to");
    expect(parse("from=2026-03-05&to=2026-03-01").error).toBe("reversed");
    expect(parse("from=2026-03-05&to=2026-03-11").error).toBe("future");
    expect(parse("from=2025-01-01&to=2026-03-01").error).toBe("too_long");
    expect(parse("from=2026-13-01&to=2026-03-01").period.preset).toBe(30);
    expect([isDay("2024-02-29"), isDay("2026-02-29"), isDay("26-01-01")]).toEqual([true, false, false]);
  });
});

describe("CSV", () => {
  it("writes amounts from cents and every rate beside its two counts, headers in English for an English reader", () => {
    const s = summarise([
      row("delivered", 3, { deliveryDays: 2, totalCents: 74970, profitCents: -150 }),
      row("returned", 1),
      row("held", 1),
    ]);
    const csv = breakdownCsv("cityId", [breakdownLine("101", '=Casa, "Anfa"', s)]);
    expect(csv.startsWith("\uFEFF")).toBe(true);
    expect(csv.split("\r\n")[1]).toBe(`101,"'=Casa, ""Anfa""",5,4,3,1,0.7500,0.2500,749.70,-1.50,2`);
    const funnel = funnelCsv(s, summarise([]));
    expect(funnel).toContain("Step,Delivered,3,0,0.7500,3,4\r\n");
    expect(funnel).toContain("Lost,held for a fix,1,0,0.2000,1,5\r\n");
    expect(
      weeksCsv([
        {
          week: "2026-03-02",
          orders: 4,
          deliveryRate: { part: 3, whole: 4, rate: 0.75 },
          collectedCents: 5,
          profitCents: 0,
        },
      ]),
    ).toBe(
      "\uFEFFWeek starting,Orders,Shipped,Delivered,Delivery rate (delivered / shipped),Collected (MAD),Seller profit (MAD)\r\n2026-03-02,4,4,3,0.7500,0.05,0.00\r\n",
    );
  });

  it("GIVEN a French reader WHEN a table is exported THEN French Excel reads it: ';' between fields, decimal commas, French headers", () => {
    const s = summarise([
      row("delivered", 3, { deliveryDays: 2, totalCents: 74970, profitCents: -150 }),
      row("returned", 1),
    ]);
    const fr = csvDialect("fr");
    const [header, line] = breakdownCsv("cityId", [breakdownLine("101", "Casablanca; Anfa", s)], fr).split("\r\n");
    expect(header).toBe(
      "\uFEFFIdentifiant de la ville;Nom;Commandes;Expédiées;Livrées;Retournées;Taux de livraison (livrées / expédiées);Taux de retour (retournées / expédiées);Encaissé (MAD);Bénéfice vendeur (MAD);Délai médian de livraison (jours)",
    );
    expect(line).toBe(`101;"Casablanca; Anfa";4;4;3;1;0,7500;0,2500;749,70;-1,50;2`);
    expect(funnelCsv(s, summarise([]), fr)).toContain("Étape;Livrées;3;0;0,7500;3;4\r\n");
  });
});
