/**
 * mapOrderToLead at its bounds: the most lines one lead holds, the age past which a
 * reference list is refreshed, the titles a finding quotes, the prepared context.
 */
import { describe, expect, it } from "vitest";
import { buildMatchingContext, mapOrderToLead } from "../../app/leads";
import { MAX_LINE_ITEMS } from "../../app/leads/field-limits";
import type { MappingContext, ShopOrder } from "../../app/leads";
import { cityId, context, line, NOW, order, withAddress } from "./helpers";

const lines = (n: number) =>
  Array.from({ length: n }, (_, i) => line({ id: String(i + 1), variantId: String(9000 + i) }));
const ago = (ms: number) => new Date(NOW.getTime() - ms);
const HOUR = 60 * 60_000;

describe("the most lines one lead holds", () => {
  it(`sends ${MAX_LINE_ITEMS} lines and holds one more`, () => {
    const full = mapOrderToLead(order({ lineItems: lines(MAX_LINE_ITEMS) }), context());
    expect(full.decision).toBe("send");
    expect(full.lead?.items).toEqual([{ sku: "ARG-OIL-50", quantity: MAX_LINE_ITEMS }]);
    const over = mapOrderToLead(order({ lineItems: lines(MAX_LINE_ITEMS + 1) }), context());
    expect(over).toEqual({
      decision: "hold",
      findings: [
        expect.objectContaining({
          code: "too_many_items",
          severity: "blocking",
          params: { lineCount: MAX_LINE_ITEMS + 1, max: MAX_LINE_ITEMS },
        }),
      ],
      needsRefresh: [],
      productKeys: [],
    });
  });
});

describe("when a reference list is old enough to refresh", () => {
  const unknownCity = withAddress(order(), { city: "Bouknadel" });

  it.each<[string, Date, string[]]>([
    ["exactly the maximum age", ago(HOUR), []],
    ["a millisecond past it", ago(HOUR + 1), ["cities"]],
    ["an invalid date", new Date("not a date"), ["cities"]],
  ])("cities fetched %s", (_label, citiesFetchedAt, refresh) => {
    expect(mapOrderToLead(unknownCity, context({ citiesFetchedAt })).needsRefresh).toEqual(refresh);
  });

  it("follows the shop's maximum age", () => {
    const settings = { referenceMaxAgeMinutes: 5 };
    expect(mapOrderToLead(unknownCity, context({ settings, citiesFetchedAt: ago(5 * 60_000) })).needsRefresh).toEqual(
      [],
    );
    expect(mapOrderToLead(unknownCity, context({ settings, citiesFetchedAt: ago(6 * 60_000) })).needsRefresh).toEqual([
      "cities",
    ]);
  });
});

describe("the title a line finding quotes", () => {
  it.each<[string, Partial<Parameters<typeof line>[0]>, string]>([
    ["its name", { name: "  Coffret   argan  " }, "Coffret argan"],
    ["its title and variant title without a name", { name: "", title: "Shoe", variantTitle: "38" }, "Shoe - 38"],
    ["its title alone", { name: undefined, title: "Shoe", variantTitle: undefined }, "Shoe"],
    ["its id when it has no text", { name: " ", title: "", variantTitle: undefined }, "line 111"],
  ])("is %s", (_label, fields, title) => {
    const result = mapOrderToLead(order({ lineItems: [line({ sku: undefined, ...fields })] }), context());
    expect(result.findings.find((f) => f.code === "sku_missing")?.params).toMatchObject({ title });
  });
});

describe("buildMatchingContext", () => {
  it("returns the context it prepared, which maps like an unprepared one", () => {
    const base = context();
    const { now, recentLeads, ...rest } = base;
    const prepared = buildMatchingContext(rest);
    expect(prepared).toBe(rest);
    expect(mapOrderToLead(order(), { ...prepared, now, recentLeads })).toEqual(mapOrderToLead(order(), context()));
  });
});

describe("the amount to collect", () => {
  const total = (o: Parameters<typeof order>[0], settings?: object) =>
    mapOrderToLead(order(o), context({ settings })).lead?.total_client;
  const noCurrency = undefined as unknown as string;

  it("reads up to the largest amount the platform takes", () => {
    expect(total({ currentTotal: { amount: "999999999.99", currencyCode: "MAD" } })).toBe("999999999.99");
    const over = mapOrderToLead(order({ currentTotal: { amount: "1000000000.00", currencyCode: "MAD" } }), context());
    expect(over.findings.map((f) => [f.code, f.params])).toEqual([["total_invalid", { amount: "1000000000.00" }]]);
  });

  it.each<[string, Parameters<typeof order>[0], object | undefined]>([
    ["the total's currency when the order names none", { currency: noCurrency }, undefined],
    [
      "the shop's currency when neither names one",
      { currency: noCurrency, currentTotal: { amount: "149.00", currencyCode: noCurrency } },
      { shopCurrency: "mad" },
    ],
    ["a currency code in lower case", { currency: "mad" }, undefined],
  ])("knows a MAD shop from %s", (_label, o, settings) => {
    expect(total(o, settings)).toBe("149.00");
  });

  it("knows a MAD presentment from the order's presentment currency", () => {
    const eurShop = { currency: "EUR", currentTotal: { amount: "13.70", currencyCode: "EUR" } };
    expect(
      total({
        ...eurShop,
        currentTotalPresentment: { amount: "149.00", currencyCode: noCurrency },
        presentmentCurrency: "mad",
      }),
    ).toBe("149.00");
    expect(
      total({
        ...eurShop,
        currentTotalPresentment: { amount: "149.00", currencyCode: noCurrency },
        presentmentCurrency: "EUR",
      }),
    ).toBeUndefined();
  });

  it.each<[string, string | undefined, string | undefined, string]>([
    ["a part-paid order: what is still owed", "partially_paid", "MAD", "100.00"],
    ["an outstanding amount without currency: taken as MAD", "paid", noCurrency, "100.00"],
    ["an outstanding amount in another currency: the total", "paid", "EUR", "149.00"],
    ["a pending order, whatever its case: the total", "PENDING", "MAD", "149.00"],
    ["an order without financial status: the total", undefined, "MAD", "149.00"],
  ])("collects, for %s", (_label, financialStatus, currencyCode, expected) => {
    const o = { financialStatus, totalOutstanding: { amount: "100.00", currencyCode: currencyCode as string } };
    expect(total(o, { sendAllOrders: true })).toBe(expected);
  });
});

describe("the phone", () => {
  it("skips a blank phone field for the next one", () => {
    const o = order({ phone: "0612345679" });
    const result = mapOrderToLead(withAddress(o, { phone: "   " }), context());
    expect(result.phone).toBe("0612345679");
    expect(result.findings).toEqual([]);
  });
});

describe("where each finding points", () => {
  const fieldsOf = (o: ShopOrder, ctx: Partial<MappingContext> = {}) =>
    Object.fromEntries(mapOrderToLead(o, context(ctx)).findings.map((f) => [f.code, f.field]));

  it.each<[string, ShopOrder, Partial<MappingContext>, Record<string, string>]>([
    ["not COD", order({ paymentGatewayNames: ["Stripe"], financialStatus: "paid" }), {}, { not_cod: "order" }],
    [
      "unknown SKU, out of stock",
      order({ lineItems: [line({ sku: "NOPE" }), line({ id: "2", sku: "OOS-1" })] }),
      {
        catalogue: [{ id: 9, sku: "OOS-1", name: "Gone", platform_price: "1.00", in_stock: false, variants: [] }],
      },
      { sku_unmatched: "items", item_out_of_stock: "items" },
    ],
    [
      "no SKU, unverified phone, no name",
      order({
        lineItems: [line({ id: "2", sku: undefined })],
        shippingAddress: { city: "Casablanca", phone: "0791234567" },
      }),
      {},
      {
        sku_missing: "items",
        phone_unverified: "customer_phone",
        name_missing: "customer_name",
      },
    ],
    ["a misspelt city read in the address", withAddress(order(), { city: "Casablnaca" }), {}, { city_fuzzy: "city" }],
    [
      "a city read in the address",
      withAddress(order(), { city: "", address1: "Imm 4, Tanger" }),
      {},
      { city_from_address: "city" },
    ],
    [
      "an unreadable total",
      order({ currentTotal: { amount: "x", currencyCode: "MAD" } }),
      {},
      { total_invalid: "total_client" },
    ],
  ])("%s", (_label, o, ctx, expected) => {
    expect(fieldsOf(o, ctx)).toMatchObject(expected);
  });

  it("a possible duplicate points at the phone", () => {
    const recentLeads = [
      {
        orderId: "1",
        orderName: "#1000",
        phone: "0612345678",
        productKeys: ["product:1001"],
        createdAt: new Date(NOW.getTime() - 60_000),
      },
    ];
    const dup = mapOrderToLead(order(), context({ recentLeads }));
    expect(dup.findings.map((f) => [f.code, f.field])).toEqual([["possible_duplicate", "customer_phone"]]);
  });
});

describe("the lead's shape", () => {
  it("leaves out the city, the total and the address rather than sending them empty", () => {
    const o = order({
      shippingAddress: undefined,
      billingAddress: undefined,
      phone: "0612345678",
      currency: "EUR",
      currentTotal: { amount: "1.00", currencyCode: "EUR" },
      currentTotalPresentment: undefined,
    });
    const result = mapOrderToLead(o, context());
    expect(Object.keys(result.lead ?? {}).sort()).toEqual(["customer_name", "customer_phone", "external_ref", "items"]);
    expect(Object.keys(result).sort()).toEqual([
      "decision",
      "findings",
      "lead",
      "needsRefresh",
      "phone",
      "productKeys",
    ]);
    expect(result.findings.map((f) => f.code)).toEqual(["name_missing", "city_missing", "currency_not_mad"]);
  });

  it("leaves out the lead and phone of an order without a usable phone, and keeps its amount to collect", () => {
    const result = mapOrderToLead(withAddress(order(), { phone: undefined }), context());
    expect(Object.keys(result).sort()).toEqual([
      "city",
      "decision",
      "findings",
      "needsRefresh",
      "productKeys",
      "totalClient",
    ]);
    expect(result.totalClient).toBe("149.00");
  });

  it("sends two different items as two, with their product keys sorted", () => {
    const result = mapOrderToLead(
      order({ lineItems: [line({ id: "1", sku: "ARG-OIL-100" }), line({ id: "2", sku: "ARG-OIL-50" })] }),
      context(),
    );
    expect(result.lead?.items).toEqual([
      { sku: "ARG-OIL-100", quantity: 1 },
      { sku: "ARG-OIL-50", quantity: 1 },
    ]);
    expect(result.productKeys).toEqual(["product:1001", "product:1002"]);
  });

  it("blocks a line without SKU that is the whole order, whatever the shop's policy", () => {
    const result = mapOrderToLead(
      order({ lineItems: [line({ sku: undefined })] }),
      context({ settings: { holdPolicy: { sku_missing: "send" } } }),
    );
    expect(result.findings).toEqual([
      expect.objectContaining({
        code: "sku_missing",
        severity: "blocking",
        params: expect.objectContaining({ leftOut: false }),
      }),
    ]);
  });

  it("adds what the customer typed to the address when a shop alias read it", () => {
    const aliases = [
      { alias: "Bouknadel", cityId: cityId("Salé") },
      { alias: "Rabat ville", cityId: cityId("Rabat") },
    ];
    const alias = mapOrderToLead(withAddress(order(), { city: "Bouknadel" }), context({ cityAliases: aliases }));
    expect(alias.lead?.address).toBe("12 Rue Ibnou Mounir, Bouknadel");
    const sameAsName = mapOrderToLead(withAddress(order(), { city: "Rabat ville" }), context({ cityAliases: aliases }));
    expect(sameAsName.lead).toMatchObject({ city: cityId("Rabat"), address: "12 Rue Ibnou Mounir" });
  });

  it("knows a MAD shop from its total without a presentment to fall back on", () => {
    const o = order({ currency: undefined as unknown as string, currentTotalPresentment: undefined });
    expect(mapOrderToLead(o, context()).lead?.total_client).toBe("149.00");
  });
});
