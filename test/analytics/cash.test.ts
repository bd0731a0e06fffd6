/**
 * The cash ledger's pure parts: a parcel's state and days, ages and their bands,
 * the balance owed at a past day, the cash list's address, the CSV line, and how
 * the pages write counts and weeks in English and French.
 */
import { describe, expect, it } from "vitest";
import {
  AGE_BUCKETS,
  ageInDays,
  cashEntryOf,
  cashStateOf,
  deliveredDayRange,
  NO_DAYS,
  owedAgedAtLeast,
  owedAtEndOf,
  owedByAge,
  type CashLinkFields,
  type CashRow,
} from "../../app/analytics/cash";
import { bucketOfQuery, parseCashQuery } from "../../app/analytics/cash-query";
import { csvDialect } from "../../app/analytics/csv";
import { cashCsv } from "../../app/analytics/cash-csv";
import { isoWeekNumber } from "../../app/analytics/iso-week";
import {
  amountChange,
  foldLongTail,
  breakdownLine,
  OTHERS_KEY,
  rate,
  rateChange,
  type RollupRow,
} from "../../app/analytics/report";
import { formatterFor, t, type Locale, type MessageKey, type MessageParams } from "../../app/i18n";
import { weekLabel } from "../../app/components/analytics/format";
import { changeText } from "../../app/components/analytics/KeyFigures";

const link = (over: Partial<CashLinkFields> = {}): CashLinkFields => ({
  id: "l1",
  shop: "s",
  orderId: "1",
  orderName: "#1",
  leadRef: "L-1",
  state: "created",
  shippingStatus: "delivered",
  totalClient: "249.00",
  sellerProfit: "80.50",
  ...over,
});

describe("a parcel's place in the ledger", () => {
  it("is owed once delivered, paid when the platform paid, returned when it came back; nothing otherwise", () => {
    expect(cashStateOf({ state: "created", shippingStatus: "delivered" })).toBe("owed");
    expect(cashStateOf({ state: "damaged", shippingStatus: "paid" })).toBe("paid");
    expect(cashStateOf({ state: "created", shippingStatus: "returned" })).toBe("returned");
    for (const shippingStatus of ["pending", "picked_up", "shipped", "canceled", null])
      expect(cashStateOf({ state: "created", shippingStatus })).toBeNull();
    // A resent order (received again) has no parcel in the ledger, whatever its old status says.
    expect(cashStateOf({ state: "received", shippingStatus: "delivered" })).toBeNull();
  });

  it("keeps the first day each state was seen, and carries no money out of the ledger", () => {
    const delivered = cashEntryOf(link(), NO_DAYS, "2026-11-02");
    expect(delivered).toMatchObject({
      state: "owed",
      day: "2026-11-02",
      deliveredDay: "2026-11-02",
      paidDay: null,
      totalCents: 24900,
      profitCents: 8050,
    });
    const paid = cashEntryOf(link({ shippingStatus: "paid" }), delivered, "2026-11-09");
    expect(paid).toMatchObject({ state: "paid", day: "2026-11-09", deliveredDay: "2026-11-02", paidDay: "2026-11-09" });
    // Seen paid straight away (delivered between two syncs): delivered the same day.
    expect(cashEntryOf(link({ shippingStatus: "paid" }), NO_DAYS, "2026-11-09")).toMatchObject({
      deliveredDay: "2026-11-09",
      paidDay: "2026-11-09",
    });
    expect(cashEntryOf(link({ sellerProfit: null }), NO_DAYS, "2026-11-02").profitCents).toBeNull();
    expect(cashEntryOf(link({ sellerProfit: "-12.40" }), NO_DAYS, "2026-11-02").profitCents).toBe(-1240);
    const out = cashEntryOf(link({ state: "received" }), paid, "2026-11-10");
    expect(out).toMatchObject({
      state: null,
      day: null,
      deliveredDay: "2026-11-02",
      paidDay: "2026-11-09",
      totalCents: 0,
      profitCents: null,
    });
  });
});

const owed = (deliveredDay: string, profitCents: number, parcels = 1): CashRow => ({
  state: "owed",
  day: deliveredDay,
  deliveredDay,
  parcels,
  totalCents: 3 * profitCents,
  profitCents,
  unknownProfit: 0,
});

describe("ages and balances", () => {
  const today = "2026-11-26";

  it("bands days since delivery 0-7, 8-14, 15-30 and over 30, at their edges", () => {
    const rows = [
      owed("2026-11-19", 100),
      owed("2026-11-18", 200),
      owed("2026-11-12", 400),
      owed("2026-11-11", 800),
      owed("2026-10-27", 1600),
      owed("2026-10-26", 3200),
    ];
    expect(rows.map((r) => ageInDays(r.deliveredDay, today))).toEqual([7, 8, 14, 15, 30, 31]);
    const bands = owedByAge(rows, today);
    expect(Object.fromEntries(AGE_BUCKETS.map((b) => [b.id, bands[b.id].profitCents]))).toEqual({
      "0-7": 100,
      "8-14": 600,
      "15-30": 2400,
      "over-30": 3200,
    });
    expect(owedAgedAtLeast(rows, today, 15).profitCents).toBe(5600);
    // A delivery day after today (a clock ahead) is age 0, never negative.
    expect(ageInDays("2026-11-27", today)).toBe(0);
  });

  it("turns an age window into delivery days", () => {
    expect(deliveredDayRange(today, 15, null)).toEqual({ from: null, to: "2026-11-11" });
    expect(deliveredDayRange(today, 8, 14)).toEqual({ from: "2026-11-12", to: "2026-11-18" });
    expect(deliveredDayRange(today, 0, 7)).toEqual({ from: "2026-11-19", to: null });
  });

  it("rebuilds the balance owed at the end of a past day from what is owed now and what was paid after it", () => {
    const rows: CashRow[] = [
      owed("2026-11-20", 100),
      owed("2026-10-30", 200),
      {
        state: "paid",
        day: "2026-11-05",
        deliveredDay: "2026-10-25",
        parcels: 1,
        totalCents: 0,
        profitCents: 400,
        unknownProfit: 0,
      },
      {
        state: "paid",
        day: "2026-10-29",
        deliveredDay: "2026-10-20",
        parcels: 1,
        totalCents: 0,
        profitCents: 800,
        unknownProfit: 0,
      },
      {
        state: "returned",
        day: "2026-10-28",
        deliveredDay: "",
        parcels: 1,
        totalCents: 5000,
        profitCents: 0,
        unknownProfit: 0,
      },
    ];
    // End of 31 Oct: the parcel delivered 30 Oct (still owed) and the one delivered 25 Oct (paid 5 Nov); the other was paid 29 Oct.
    expect(owedAtEndOf(rows, "2026-10-31").profitCents).toBe(600);
    expect(owedAtEndOf(rows, "2026-11-26").profitCents).toBe(300);
    expect(owedAtEndOf(rows, "2026-10-19").parcels).toBe(0);
  });
});

describe("the cash list's address", () => {
  const parse = (q: string) => parseCashQuery(new URLSearchParams(q));

  it("reads the view and the page, and names an age band", () => {
    expect(parse("").query).toEqual({ state: "owed", minAge: null, maxAge: null, after: null, before: null });
    const { query, errors } = parse("state=owed&minAge=8&maxAge=14&after=2026-11-12~ckabc123");
    expect(errors).toEqual([]);
    expect(query).toMatchObject({ minAge: 8, maxAge: 14, after: { day: "2026-11-12", linkId: "ckabc123" } });
    expect(bucketOfQuery(query)).toBe("8-14");
    expect(bucketOfQuery(parse("minAge=15").query)).toBeNull();
  });

  it("answers a wrong parameter with what is wrong, and shows the default", () => {
    expect(parse("state=stolen").errors).toEqual(["bad_state"]);
    for (const q of ["minAge=-1", "minAge=ten", "minAge=20&maxAge=10", "maxAge=99999", "state=paid&minAge=3"]) {
      const { query, errors } = parse(q);
      expect(errors, q).toEqual(["bad_age"]);
      expect([query.minAge, query.maxAge]).toEqual([null, null]);
    }
    for (const q of [
      "after=nope",
      "after=2026-11-12~a~b",
      "after=2026-11-12~a&before=2026-11-12~b",
      "before=2026-13~x",
    ])
      expect(parse(q).errors, q).toEqual(["bad_cursor"]);
  });
});

describe("CSV of the ledger", () => {
  it("writes exact amounts, an empty unknown profit, and defuses formulas in text, in English or as French Excel reads it", () => {
    const rows: Parameters<typeof cashCsv>[0] = [
      {
        linkId: "a",
        orderId: "1",
        orderName: "=HYPERLINK(1)",
        leadRef: "L-1",
        state: "owed",
        day: "2026-11-02",
        deliveredDay: "2026-11-02",
        paidDay: null,
        returnedDay: null,
        totalCents: 24950,
        profitCents: null,
        ageDays: 24,
      },
      {
        linkId: "b",
        orderId: "2",
        orderName: "#2",
        leadRef: null,
        state: "paid",
        day: "2026-11-09",
        deliveredDay: "2026-11-01",
        paidDay: "2026-11-09",
        returnedDay: null,
        totalCents: 10000,
        profitCents: -1240,
        ageDays: null,
      },
    ];
    expect(cashCsv(rows).split("\r\n")).toEqual([
      "\uFEFFOrder,Shopify order id,Lead,State,Delivered on,Paid on,Returned on,Days since delivery,Amount to collect (MAD),Seller profit (MAD)",
      "'=HYPERLINK(1),1,L-1,Owed,2026-11-02,,,24,249.50,",
      "#2,2,,Paid,2026-11-01,2026-11-09,,,100.00,-12.40",
      "",
    ]);
    expect(cashCsv(rows, csvDialect("fr")).split("\r\n")).toEqual([
      "\uFEFFCommande;Identifiant Shopify de la commande;Lead;État;Livré le;Payé le;Retourné le;Jours depuis la livraison;Montant à encaisser (MAD);Bénéfice vendeur (MAD)",
      "'=HYPERLINK(1);1;L-1;Dû;2026-11-02;;;24;249,50;",
      "#2;2;;Payé;2026-11-01;2026-11-09;;;100,00;-12,40",
      "",
    ]);
  });
});

const translate = (locale: Locale) => (key: MessageKey, params?: MessageParams) => t(locale, key, params);

describe("counts and weeks as the pages write them", () => {
  it("counts in the merchant's language (French: 0 and 1 are singular), numbers in its format", () => {
    expect(t("en", "cash.days", { count: 1 })).toBe("1 day");
    expect(t("en", "cash.days", { count: 0 })).toBe("0 days");
    expect(t("fr", "cash.days", { count: 0 })).toBe("0 jour");
    expect(t("fr", "cash.days", { count: 1234 })).toBe("1\u202f234 jours");
    expect(t("fr", "home.cash.parcels", { count: 2 })).toBe("2 colis livrés et pas encore payés.");
    expect(t("en", "home.cash.overdue.title", { count: 1, days: 30 })).toBe(
      "Payment overdue: 1 parcel delivered more than 30 days ago is not paid",
    );
    expect(t("en", "cash.summary.unknownProfit", { count: 3 })).toBe(
      "3 parcels without their seller profit yet are not in the amount.",
    );
  });

  it("numbers ISO weeks, the week belonging to the year of its Thursday", () => {
    expect(isoWeekNumber("2026-11-16")).toBe(47);
    expect(isoWeekNumber("2026-11-22")).toBe(47);
    expect(isoWeekNumber("2026-12-28")).toBe(53);
    expect(isoWeekNumber("2027-01-04")).toBe(1);
    expect(isoWeekNumber("2025-12-29")).toBe(1);
    expect(isoWeekNumber("2021-01-03")).toBe(53);
  });

  it("labels a week S47 · 16-22 nov in French and W47 · 16-22 Nov in English, months named when it spans two", () => {
    const week = (locale: Locale, monday: string, form?: "axis") =>
      weekLabel(formatterFor(locale), translate(locale), monday, form);
    expect(week("fr", "2026-11-16")).toBe("S47 · 16-22 nov");
    expect(week("en", "2026-11-16")).toBe("W47 · 16-22 Nov");
    expect(week("en", "2026-11-30")).toBe("W49 · 30 Nov-6 Dec");
    expect(week("fr", "2026-12-28")).toBe("S53 · 28 déc-3 janv");
    // The charts' axis: the week's number alone, so it is never cut (the table below has the days).
    expect(week("en", "2026-11-30", "axis")).toBe("W49");
    expect(week("fr", "2026-11-30", "axis")).toBe("S49");
    // The numbers in the locale's digits (ar-XB writes Eastern Arabic ones).
    expect(week("ar-XB", "2026-11-16")).toContain("٤٧");
    expect(week("ar-XB", "2026-11-16")).not.toMatch(/\d/);
  });
});

describe("change against the previous period", () => {
  it("is relative for amounts, in points for rates, and says when there is nothing to compare", () => {
    expect(amountChange(11_000, 10_000)).toEqual({ kind: "relative", ratio: 0.1 });
    expect(amountChange(5_000, -10_000)).toEqual({ kind: "relative", ratio: 1.5 });
    expect(amountChange(0, 0)).toEqual({ kind: "same" });
    expect(amountChange(500, 0)).toEqual({ kind: "new" });
    expect(rateChange(rate(3, 4), rate(1, 2))).toEqual({ kind: "points", points: 25 });
    expect(rateChange(rate(1, 2), rate(0, 0))).toEqual({ kind: "none" });
    const change = (locale: Locale, c: Parameters<typeof changeText>[2]) =>
      changeText(formatterFor(locale), translate(locale), c);
    expect(change("en", amountChange(8_760, 10_000))).toBe("↓ 12.4%");
    expect(change("fr", rateChange(rate(2, 3), rate(1, 2)))).toBe("↑ 16,7 pts");
    expect(change("en", rateChange(rate(3, 4), rate(1, 2)))).toBe("↑ 25 pts");
    expect(change("fr", { kind: "same" })).toBe("Inchangé");
    expect(change("en", { kind: "none" })).toBeNull();
  });
});

describe("the long tail in Others", () => {
  const row = (key: string, orders: number, delivered = 0): RollupRow[] => [
    { productKey: key, statusGroup: "awaiting", deliveryDays: -1, orders, totalCents: 100 * orders, profitCents: 0 },
    ...(delivered
      ? [
          {
            productKey: key,
            statusGroup: "delivered",
            deliveryDays: 2,
            orders: delivered,
            totalCents: 1000 * delivered,
            profitCents: 300 * delivered,
          },
        ]
      : []),
  ];
  const lineOf = (key: string, s: Parameters<typeof breakdownLine>[2]) => breakdownLine(key, key, s);

  it("keeps the ten lines with most orders and adds up the rest, with its real rates", () => {
    const rows = [
      ...Array.from({ length: 10 }, (_, i) => row(`big-${i}`, 50 + i)).flat(),
      ...row("tail-a", 1, 1),
      ...row("tail-b", 1),
      ...row("tail-c", 2, 1),
    ];
    const lines = foldLongTail(rows, (r) => r.productKey!, lineOf);
    expect(lines).toHaveLength(11);
    const others = lines.find((l) => l.key === OTHERS_KEY)!;
    expect(others).toMatchObject({
      others: 3,
      orders: 6,
      delivered: 2,
      collectedCents: 2000,
      profitCents: 600,
      medianDeliveryDays: 2,
    });
    expect(lines.filter((l) => l.key.startsWith("big-"))).toHaveLength(10);
  });

  it("folds nothing when it would add up one line", () => {
    const rows = Array.from({ length: 11 }, (_, i) => row(`p-${i}`, 1 + i)).flat();
    expect(foldLongTail(rows, (r) => r.productKey!, lineOf).some((l) => l.key === OTHERS_KEY)).toBe(false);
  });
});
