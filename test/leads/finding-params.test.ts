/**
 * The params of every finding mapOrderToLead produces: the admin translates findings from
 * their code and params, so a param that goes missing or wrong shows the merchant a wrong
 * sentence. Also the total-below-cost rule with quantities and several items.
 */
import { describe, expect, it } from "vitest";
import {
  type FindingCode,
  type MappingContext,
  type MappingResult,
  mapOrderToLead,
  type ShopOrder,
} from "../../app/leads";
import { catalogue, cities, context, line, order, withAddress } from "./helpers";

// Fresh lists per call: the mapper memoises its indexes per array, and each test must build its own.
const map = (o: ShopOrder, ctx: Partial<MappingContext> = {}): MappingResult =>
  mapOrderToLead(o, context({ catalogue: [...catalogue], cities: [...cities], ...ctx }));
const only = (r: MappingResult, code: FindingCode) => {
  expect(r.findings.map((f) => f.code)).toEqual([code]);
  return r.findings[0];
};
const amount = (value: string) => ({ currentTotal: { amount: value, currencyCode: "MAD" } });
const BASE = { lineItemId: "111", lineIndex: 0, title: "Huile d'argan 50 ml", quantity: 1 };

describe("orders that are skipped", () => {
  it("cancelled: when", () => {
    const f = only(map(order({ cancelledAt: "2026-03-10T10:00:00Z" })), "cancelled");
    expect(f).toMatchObject({ severity: "blocking", field: "order", params: { cancelledAt: "2026-03-10T10:00:00Z" } });
  });

  it("test order: no params", () => {
    expect(only(map(order({ test: true })), "test_order")).toMatchObject({
      severity: "blocking",
      field: "order",
      params: {},
    });
  });

  it("not COD: why, the gateways and the financial status", () => {
    expect(only(map(order({ paymentGatewayNames: ["shopify_payments", "paypal"] })), "not_cod").params).toEqual({
      reason: "other_gateway",
      gateways: "shopify_payments, paypal",
      financialStatus: "pending",
    });
    expect(only(map(order({ financialStatus: "paid" })), "not_cod").params).toEqual({
      reason: "already_paid",
      gateways: "Cash on Delivery (COD)",
      financialStatus: "paid",
    });
    expect(only(map(order({ paymentGatewayNames: [] })), "not_cod").params).toMatchObject({
      reason: "no_gateway",
      gateways: "",
    });
  });

  it("nothing to ship: how many lines the order had", () => {
    const r = map(
      order({ lineItems: [line({ giftCard: true }), line({ requiresShipping: false }), line({ quantity: 0 })] }),
    );
    expect(only(r, "no_shippable_items")).toMatchObject({
      severity: "blocking",
      field: "items",
      params: { lineCount: 3 },
    });
    expect(r).toMatchObject({ decision: "skip", needsRefresh: [], productKeys: [] });
  });
});

describe("items", () => {
  it("unknown SKU: the line, the SKU and what is unknown", () => {
    const f = only(map(order({ lineItems: [line({ sku: "NOPE-1", quantity: 2 })] })), "sku_unmatched");
    expect(f.params).toEqual({ ...BASE, quantity: 2, via: "sku", sku: "NOPE-1", unknown: "NOPE-1", mappingId: null });
    // "Huile d'argan 50 ml" without "cosmétique": the platform's 50 ml oil, to judge (not proven).
    expect(f.suggestions).toEqual([expect.objectContaining({ sku: "ARG-OIL-50", confidence: "likely" })]);
  });

  it("mapping to unknown items: the mapping and every unknown target", () => {
    const skuMappings = [
      {
        id: "m1",
        sourceKind: "variant" as const,
        sourceKey: "77",
        targets: [
          { sku: "GONE-1", quantity: 1 },
          { product_id: 9999, quantity: 1 },
        ],
      },
    ];
    const f = only(map(order({ lineItems: [line({ variantId: "77" })] }), { skuMappings }), "sku_unmatched");
    expect(f.params).toEqual({ ...BASE, via: "mapping", sku: "ARG-OIL-50", unknown: "GONE-1, #9999", mappingId: "m1" });
  });

  it("out of stock: the item's SKU, product and name, with the variant's name", () => {
    const r = map(order({ ...amount("500.00"), lineItems: [line({ sku: "SHAVER-3D", quantity: 2 })] }));
    expect(only(r, "item_out_of_stock")).toMatchObject({
      severity: "warning",
      field: "items",
      params: { ...BASE, quantity: 2, sku: "SHAVER-3D", productId: 1012, name: "Rasoir électrique 3D" },
    });
    const catalogue = [
      {
        id: 5,
        sku: "JLB",
        name: "Sandal",
        platform_price: "10.00",
        in_stock: true,
        variants: [{ sku: "JLB-SANDAL-38", name: "38", in_stock: false }],
      },
    ];
    const variant = map(order({ lineItems: [line({ sku: "JLB-SANDAL-38" })] }), { catalogue });
    expect(only(variant, "item_out_of_stock").params).toMatchObject({
      sku: "JLB-SANDAL-38",
      productId: 5,
      name: "Sandal (38)",
    });
  });

  it("no SKU: the line, and whether it was left out of the lead", () => {
    const mystery = line({ sku: "", id: "9", name: "Mystery" });
    const alone = only(map(order({ lineItems: [mystery] })), "sku_missing");
    expect(alone).toMatchObject({
      severity: "blocking",
      params: { lineItemId: "9", lineIndex: 0, title: "Mystery", quantity: 1, leftOut: false },
    });
    const beside = map(order({ lineItems: [line(), mystery] }), { settings: { holdPolicy: { sku_missing: "send" } } });
    expect(only(beside, "sku_missing")).toMatchObject({
      severity: "warning",
      params: { lineItemId: "9", lineIndex: 1, leftOut: true },
    });
    expect(beside.lead?.items).toEqual([{ sku: "ARG-OIL-50", quantity: 1 }]);
  });
});

describe("phone, name and city", () => {
  it.each([
    ["0791234567", "phone_unverified", "warning", { phone: "0791234567" }],
    ["0522123456", "phone_landline", "blocking", { raw: "0522123456", lineType: "fixed_line" }],
    ["+33612345678", "phone_foreign", "blocking", { raw: "+33612345678", callingCode: "33", country: "FR" }],
    [" 123 ", "phone_invalid", "blocking", { raw: "123" }],
    ["", "phone_missing", "blocking", {}],
  ] as const)("phone %j: %s", (phone, code, severity, params) => {
    const f = only(map(withAddress(order(), { phone })), code);
    expect(f).toMatchObject({ severity, field: "customer_phone" });
    expect(f.params).toEqual(params);
  });

  it("no name: the placeholder sent", () => {
    const f = only(map(withAddress(order(), { firstName: "", lastName: "" })), "name_missing");
    expect(f).toMatchObject({ severity: "warning", field: "customer_name", params: { name: "Client #1001" } });
  });

  it("city: what was typed, what it was read as and where", () => {
    expect(only(map(withAddress(order(), { city: "" })), "city_missing")).toMatchObject({
      severity: "blocking",
      field: "city",
      params: {},
    });
    const unmatched = only(map(withAddress(order(), { city: "Bouknadel" })), "city_unmatched");
    expect(unmatched.params).toEqual({ input: "Bouknadel" });
    // A town the platform does not deliver: no city is near enough to propose.
    expect(unmatched.suggestions).toBeUndefined();
    const fuzzy = only(map(withAddress(order(), { city: "Casablnaca" })), "city_fuzzy");
    expect(fuzzy.params).toEqual({ input: "Casablnaca", cityId: 101, city: "Casablanca", score: 0.9 });
    expect(
      only(map(withAddress(order(), { city: "", address1: "12 rue X, Rabat" })), "city_from_address").params,
    ).toEqual({
      source: "address1",
      cityField: null,
      cityId: 102,
      city: "Rabat",
    });
    expect(
      only(map(withAddress(order(), { city: "Quartier", address1: "12 rue X, Rabat" })), "city_from_address").params,
    ).toMatchObject({
      cityField: "Quartier",
    });
  });
});

describe("amount", () => {
  it("not in MAD: the currency", () => {
    const eur = order({
      currency: "EUR",
      currentTotal: { amount: "13.70", currencyCode: "EUR" },
      currentTotalPresentment: undefined,
      presentmentCurrency: "EUR",
    });
    expect(only(map(eur), "currency_not_mad")).toMatchObject({
      severity: "blocking",
      field: "total_client",
      params: { currency: "EUR" },
    });
  });

  it("unreadable: the amount as written", () => {
    expect(only(map(order(amount("1,49"))), "total_invalid").params).toEqual({ amount: "1,49" });
  });

  it("below cost counts each item's price times its quantity", () => {
    // ARG-OIL-50 at 45.00 × 3 plus Casablanca's 20.00 delivery fee: 155.00.
    const three = (total: string) => map(order({ ...amount(total), lineItems: [line({ quantity: 3 })] }));
    expect(only(three("150.00"), "total_below_cost").params).toEqual({
      total: "150.00",
      minimum: "155.00",
      itemsCost: "135.00",
      deliveryFee: "20.00",
    });
    expect(only(three("154.99"), "total_below_cost").params).toMatchObject({ minimum: "155.00" });
    expect(three("155.00").findings).toEqual([]);
  });

  it("below cost sums every item of the order", () => {
    // ARG-OIL-50 (45.00) + AMLOU-250 × 2 (2 × 38.00) + 20.00 delivery: 141.00.
    const lines = [line(), line({ id: "112", variantId: "4002", sku: "AMLOU-250", quantity: 2 })];
    const r = (total: string) => map(order({ ...amount(total), lineItems: lines }));
    expect(only(r("140.00"), "total_below_cost").params).toMatchObject({ minimum: "141.00", itemsCost: "121.00" });
    expect(r("141.00").findings).toEqual([]);
  });
});

describe("possible duplicate", () => {
  const recent = {
    phone: "0612345678",
    productKeys: ["product:1001"],
    createdAt: new Date("2026-03-10T11:55:00Z"),
    orderId: "42",
  };

  it("names the other order, how long ago and the window", () => {
    const f = only(map(order(), { recentLeads: [{ ...recent, orderName: "#1042" }] }), "possible_duplicate");
    expect(f).toMatchObject({
      field: "customer_phone",
      params: { otherOrderId: "42", otherOrder: "#1042", minutesAgo: 5 },
    });
    expect(f.params.windowMinutes).toBeGreaterThanOrEqual(5);
    const unnamed = only(
      map(order(), { recentLeads: [recent], settings: { duplicateWindowMinutes: 30 } }),
      "possible_duplicate",
    );
    expect(unnamed.params).toEqual({ otherOrderId: "42", otherOrder: "42", minutesAgo: 5, windowMinutes: 30 });
  });
});
