import { describe, expect, it } from "vitest";
import {
  type FindingCode,
  type MappingContext,
  type MappingResult,
  mapOrderToLead,
  parseExternalRef,
  type RecentLead,
  type ShopOrder,
} from "../../app/leads";
import { checkLeadInput } from "../../app/seller-api/lead-input";
import { context, FRESH, line, NOW, order, withAddress, cityId } from "./helpers";

function map(o: ShopOrder, ctx: Partial<MappingContext> = {}): MappingResult {
  const result = mapOrderToLead(o, context(ctx));
  // Every lead the mapper produces must pass the client's own request validation.
  if (result.lead) expect(checkLeadInput(result.lead)).toEqual({ ok: true, value: result.lead });
  return result;
}

const codes = (r: MappingResult) => r.findings.map((f) => f.code);
const finding = (r: MappingResult, code: FindingCode) => r.findings.find((f) => f.code === code);
const STALE = new Date(NOW.getTime() - 2 * 60 * 60_000);

describe("mapOrderToLead: a plain COD order", () => {
  it("sends a clean lead with no findings", () => {
    const result = map(order());
    expect(result).toEqual({
      decision: "send",
      findings: [],
      needsRefresh: [],
      productKeys: ["product:1001"],
      phone: "0612345678",
      totalClient: "149.00",
      city: { id: cityId("Casablanca"), name: "Casablanca", score: 1, via: "name" },
      lead: {
        customer_name: "Fatima Zahra",
        customer_phone: "0612345678",
        city: cityId("Casablanca"),
        address: "12 Rue Ibnou Mounir",
        total_client: "149.00",
        items: [{ sku: "ARG-OIL-50", quantity: 1 }],
        external_ref: "shopify:5551234567890 #1001",
      },
    });
  });

  it("gives every finding a code, severity, field, message and params", () => {
    const result = map(
      withAddress(order({ currentTotal: { amount: "10.00", currencyCode: "MAD" } }), { city: "Casablnaca" }),
    );
    expect(result.findings.length).toBeGreaterThan(0);
    for (const f of result.findings) {
      expect(f.code).toMatch(/^[a-z_]+$/);
      expect(["blocking", "warning"]).toContain(f.severity);
      expect(f.field).not.toBe("");
      expect(f.message.length).toBeGreaterThan(20);
      expect(f.params).toBeTypeOf("object");
    }
  });

  it("keeps external_ref stable across resends and readable back", () => {
    const first = map(order()).lead?.external_ref;
    expect(map(order({ note: "changed" })).lead?.external_ref).toBe(first);
    expect(parseExternalRef(first ?? "")).toEqual({ orderId: "5551234567890", orderName: "#1001" });
  });
});

describe("mapOrderToLead: orders that are not sent", () => {
  it.each<[string, Partial<ShopOrder>, FindingCode]>([
    ["cancelled", { cancelledAt: "2026-03-10T11:00:00Z" }, "cancelled"],
    ["test order", { test: true }, "test_order"],
    ["card payment", { paymentGatewayNames: ["shopify_payments"], financialStatus: "paid" }, "not_cod"],
    ["no payment method", { paymentGatewayNames: [] }, "not_cod"],
    ["COD already paid", { financialStatus: "paid" }, "not_cod"],
    ["only a gift card", { lineItems: [line({ giftCard: true, requiresShipping: false })] }, "no_shippable_items"],
    [
      "only a physical gift card",
      { lineItems: [line({ giftCard: true, requiresShipping: true })] },
      "no_shippable_items",
    ],
    ["only a digital item", { lineItems: [line({ requiresShipping: false })] }, "no_shippable_items"],
    ["every line removed by an edit", { lineItems: [line({ quantity: 0 })] }, "no_shippable_items"],
  ])("skips a %s", (_name, overrides, code) => {
    const result = map(order(overrides));
    expect(result.decision).toBe("skip");
    expect(result.lead).toBeUndefined();
    expect(finding(result, code)).toMatchObject({ severity: "blocking", field: expect.any(String) });
  });

  it.each<[string[], string | undefined, boolean]>([
    [["Cash on Delivery (COD)"], "pending", true],
    [["COD"], "pending", true],
    [["cod"], undefined, true],
    [["Paiement à la livraison"], "pending", true],
    [["PAIEMENT A LA LIVRAISON"], "pending", true],
    [["الدفع عند الاستلام"], "pending", true],
    [["gift_card", "Cash on Delivery (COD)"], "pending", true],
    [["Barcode Pay"], "pending", false],
    [["shopify_payments"], "pending", false],
    [["Cash on Delivery (COD)"], "authorized", false],
    [["Cash on Delivery (COD)"], "paid", false],
  ])("detects COD from gateways %j with status %s: %s", (gateways, financialStatus, cod) => {
    const result = map(order({ paymentGatewayNames: gateways, financialStatus }));
    expect(result.decision === "skip").toBe(!cod);
  });

  it("follows the shop's own COD patterns", () => {
    const o = order({ paymentGatewayNames: ["Payer à la réception"] });
    expect(map(o).decision).toBe("skip");
    expect(map(o, { settings: { codGatewayPatterns: ["payer a la reception"] } }).decision).toBe("send");
  });

  it("sends a card-paid order when the shop sends all orders, collecting what is still owed", () => {
    const paid = order({
      paymentGatewayNames: ["shopify_payments"],
      financialStatus: "paid",
      totalOutstanding: { amount: "0.00", currencyCode: "MAD" },
    });
    const result = map(paid, { settings: { sendAllOrders: true } });
    expect(result.lead?.total_client).toBe("0.00");
    expect(finding(result, "total_below_cost")?.severity).toBe("warning");
    expect(result.decision).toBe("send");
  });

  it("sends test orders when the shop allows them", () => {
    expect(map(order({ test: true }), { settings: { sendTestOrders: true } }).decision).toBe("send");
  });
});

describe("mapOrderToLead: phone", () => {
  it.each<[string, Partial<ShopOrder>, string]>([
    ["shipping phone first", { phone: "0700000001", customer: { phone: "0700000002" } }, "0612345678"],
    [
      "order phone when the shipping phone is a landline",
      { shippingAddress: { ...order().shippingAddress, phone: "0522123456" }, phone: "+212 661 23 45 67" },
      "0661234567",
    ],
    [
      "customer phone next",
      { shippingAddress: { ...order().shippingAddress, phone: undefined }, customer: { phone: "00212698765432" } },
      "0698765432",
    ],
    [
      "billing phone last",
      { shippingAddress: { ...order().shippingAddress, phone: "" }, billingAddress: { phone: "٠٧٧٠١٢٣٤٥٦" } },
      "0770123456",
    ],
  ])("takes the %s", (_name, overrides, expected) => {
    const result = map(order(overrides));
    expect(result.lead?.customer_phone).toBe(expected);
    expect(result.decision).toBe("send");
  });

  it.each<[string | undefined, FindingCode]>([
    [undefined, "phone_missing"],
    ["0522 12 34 56", "phone_landline"],
    ["+33 6 12 34 56 78", "phone_foreign"],
    ["06 12 34", "phone_invalid"],
  ])("holds %j with %s and builds no lead (the platform would answer 422)", (phone, code) => {
    const result = map(withAddress(order(), { phone }));
    expect(result.decision).toBe("hold");
    expect(result.lead).toBeUndefined();
    expect(finding(result, code)).toMatchObject({ severity: "blocking", field: "customer_phone" });
  });

  it("quotes the number the merchant has to fix", () => {
    expect(finding(map(withAddress(order(), { phone: "0522123456" })), "phone_landline")?.message).toContain(
      "0522123456",
    );
  });

  it("sends a well-shaped number outside the listed ranges with a warning", () => {
    const result = map(withAddress(order(), { phone: "0791234567" }));
    expect(result.decision).toBe("send");
    expect(finding(result, "phone_unverified")?.severity).toBe("warning");
  });
});

describe("mapOrderToLead: city", () => {
  it.each<[string, Partial<NonNullable<ShopOrder["shippingAddress"]>>, string, FindingCode[], string]>([
    ["an alias", { city: "Dar el Beida" }, "Casablanca", [], "12 Rue Ibnou Mounir"],
    ["Arabic", { city: "مراكش" }, "Marrakech", [], "12 Rue Ibnou Mounir"],
    ["a misspelling proven by its sound", { city: "Casablenca" }, "Casablanca", [], "12 Rue Ibnou Mounir"],
    ["a district", { city: "Maarif" }, "Casablanca", [], "12 Rue Ibnou Mounir, Maarif"],
    [
      "the address when the city field is not a city",
      { city: "Hay Nahda", address1: "Imm 4, Tanger" },
      "Tanger",
      ["city_from_address"],
      "Imm 4, Tanger, Hay Nahda",
    ],
    [
      "the address when the city field is empty",
      { city: "", address2: "Meknès" },
      "Meknès",
      ["city_from_address"],
      "12 Rue Ibnou Mounir, Meknès",
    ],
  ])("reads %s", (_name, address, city, expectedCodes, expectedAddress) => {
    const result = map(withAddress(order({ currentTotal: { amount: "500.00", currencyCode: "MAD" } }), address));
    expect(result.lead?.city).toBe(cityId(city));
    expect(codes(result)).toEqual(expectedCodes);
    expect(result.lead?.address).toBe(expectedAddress);
    expect(result.decision).toBe("send");
  });

  it("GIVEN a misspelling that only looks like a delivered city WHEN it is mapped with the default settings THEN it is held with that city as the first choice, and sent when the shop sends such matches", () => {
    const held = map(
      withAddress(order({ currentTotal: { amount: "500.00", currencyCode: "MAD" } }), { city: "Casablnaca" }),
    );
    expect(held.decision).toBe("hold");
    const f = finding(held, "city_fuzzy");
    expect(f).toMatchObject({ severity: "blocking", params: { input: "Casablnaca", city: "Casablanca" } });
    expect(f?.suggestions?.[0]).toMatchObject({ cityId: cityId("Casablanca"), confidence: "likely", why: "spelling" });
    // Nothing is dropped: the lead is ready with the city it was read as, for the merchant's word.
    expect(held.lead?.city).toBe(cityId("Casablanca"));
    const sent = map(
      withAddress(order({ currentTotal: { amount: "500.00", currencyCode: "MAD" } }), { city: "Casablnaca" }),
      {
        settings: { holdPolicy: { city_fuzzy: "send" } },
      },
    );
    expect(sent.decision).toBe("send");
    expect(finding(sent, "city_fuzzy")?.severity).toBe("warning");
  });

  it("GIVEN a town whose name holds a delivered city's beside a place-name word WHEN it is mapped THEN it is held, not sent to that city", () => {
    const result = map(
      withAddress(order({ currentTotal: { amount: "500.00", currencyCode: "MAD" } }), { city: "Bab Taza" }),
    );
    expect(result.decision).toBe("hold");
    expect(finding(result, "city_fuzzy")).toMatchObject({
      severity: "blocking",
      params: { input: "Bab Taza", city: "Taza" },
    });
    expect(finding(result, "city_fuzzy")?.suggestions?.[0]).toMatchObject({ cityId: cityId("Taza"), why: "in_field" });
  });

  it("holds an unknown city with the city it may be, and its score", () => {
    const result = map(withAddress(order(), { city: "Trdnt" }));
    expect(result.decision).toBe("hold");
    const f = finding(result, "city_unmatched");
    expect(f).toMatchObject({ severity: "blocking", field: "city", params: { input: "Trdnt" } });
    expect(f?.suggestions).toEqual([
      {
        kind: "city",
        cityId: cityId("Taroudant"),
        name: "Taroudant",
        score: expect.any(Number),
        confidence: "likely",
        why: "consonants",
      },
    ]);
    expect(f?.message).toContain("Taroudant");
    expect(result.lead?.city).toBe("Trdnt");
  });

  it("holds a town the platform does not deliver without proposing a city", () => {
    const f = finding(map(withAddress(order(), { city: "Sebt Gzoula" })), "city_unmatched");
    expect(f).toMatchObject({ severity: "blocking", params: { input: "Sebt Gzoula" } });
    expect(f?.suggestions).toBeUndefined();
    expect(f?.message).not.toContain("Closest");
  });

  it("sends an unknown city as typed when the shop chooses to", () => {
    const result = map(withAddress(order(), { city: "Tza" }), { settings: { holdPolicy: { city_unmatched: "send" } } });
    expect(result.decision).toBe("send");
    expect(finding(result, "city_unmatched")?.severity).toBe("warning");
    expect(result.lead?.city).toBe("Tza");
  });

  it("holds an order with no city anywhere", () => {
    const result = map(withAddress(order(), { city: undefined, address1: "Rue 5", province: undefined }));
    expect(result.decision).toBe("hold");
    expect(finding(result, "city_missing")?.severity).toBe("blocking");
    expect(result.lead?.city).toBeUndefined();
  });

  it.each<[Date | undefined, string[]]>([
    [FRESH, []],
    [STALE, ["cities"]],
    [undefined, ["cities"]],
  ])("asks for a city refresh before trusting a miss (fetched %s)", (citiesFetchedAt, refresh) => {
    const result = map(withAddress(order(), { city: "Bouknadel" }), { citiesFetchedAt });
    expect(result.needsRefresh).toEqual(refresh);
  });

  it("uses the shop's learned alias on later orders", () => {
    const o = withAddress(order(), { city: "Bouknadel" });
    expect(map(o).decision).toBe("hold");
    const result = map(o, { cityAliases: [{ alias: "bouknadel", cityId: cityId("Salé"), source: "learned" }] });
    expect(result.decision).toBe("send");
    expect(result.lead?.city).toBe(cityId("Salé"));
    expect(result.city?.via).toBe("shop_alias");
  });
});

describe("mapOrderToLead: items", () => {
  it("sums the same platform item across lines and leaves out gift cards and non-shipping lines", () => {
    const result = map(
      order({
        currentTotal: { amount: "900.00", currencyCode: "MAD" },
        lineItems: [
          line({ id: "1", sku: "ARG-OIL-50", quantity: 2 }),
          line({ id: "2", sku: "arg-oil-50 ", quantity: 1, variantId: "5" }),
          line({ id: "3", sku: "GIFT", giftCard: true, requiresShipping: false }),
          line({ id: "4", sku: "EBOOK", requiresShipping: false }),
          line({ id: "5", sku: "AMLOU-250", quantity: 1 }),
        ],
      }),
    );
    expect(result.lead?.items).toEqual([
      { sku: "ARG-OIL-50", quantity: 3 },
      { sku: "AMLOU-250", quantity: 1 },
    ]);
    expect(result.findings).toEqual([]);
  });

  it("expands a bundle mapping by the line's quantity", () => {
    const result = map(
      order({
        currentTotal: { amount: "900.00", currencyCode: "MAD" },
        lineItems: [line({ sku: "PACK", variantId: "77", quantity: 2 })],
      }),
      {
        skuMappings: [
          {
            sourceKind: "variant",
            sourceKey: "77",
            targets: [
              { sku: "ARG-OIL-50", quantity: 1 },
              { product_id: 1003, quantity: 2 },
            ],
          },
        ],
      },
    );
    expect(result.lead?.items).toEqual([
      { sku: "ARG-OIL-50", quantity: 2 },
      { product_id: 1003, quantity: 4 },
    ]);
    expect(result.productKeys).toEqual(["product:1001", "product:1003"]);
  });

  it("holds an unknown SKU with suggestions, keeping it in the lead as typed", () => {
    const result = map(order({ lineItems: [line({ sku: "HUILE-ARGAN-50", name: "Huile d'argan cosmétique 50 ml" })] }));
    expect(result.decision).toBe("hold");
    const f = finding(result, "sku_unmatched");
    expect(f).toMatchObject({
      severity: "blocking",
      field: "items",
      params: { sku: "HUILE-ARGAN-50", lineItemId: "111" },
    });
    expect(f?.suggestions?.[0]).toMatchObject({ kind: "product", sku: "ARG-OIL-50" });
    expect(result.lead?.items).toEqual([{ sku: "HUILE-ARGAN-50", quantity: 1 }]);
  });

  it.each<[Date | undefined, string[]]>([
    [FRESH, []],
    [STALE, ["catalogue"]],
  ])("asks for a catalogue refresh before trusting a miss (fetched %s)", (catalogueFetchedAt, refresh) => {
    expect(map(order({ lineItems: [line({ sku: "NEW-1" })] }), { catalogueFetchedAt }).needsRefresh).toEqual(refresh);
  });

  it("holds a line without SKU: alone it leaves no lead", () => {
    const result = map(order({ lineItems: [line({ sku: undefined })] }));
    expect(result.decision).toBe("hold");
    expect(result.lead).toBeUndefined();
    expect(finding(result, "sku_missing")?.severity).toBe("blocking");
  });

  it("leaves a line without SKU out when the shop chooses to send, and says so", () => {
    const result = map(
      order({ lineItems: [line({ id: "1" }), line({ id: "2", sku: undefined, name: "Mystery box" })] }),
      {
        settings: { holdPolicy: { sku_missing: "send" } },
      },
    );
    expect(result.decision).toBe("send");
    expect(result.lead?.items).toEqual([{ sku: "ARG-OIL-50", quantity: 1 }]);
    expect(finding(result, "sku_missing")).toMatchObject({ severity: "warning", params: { leftOut: true } });
    expect(finding(result, "sku_missing")?.message).toContain("left out");
  });

  it("warns about an out-of-stock item once per item", () => {
    const result = map(
      order({
        currentTotal: { amount: "500.00", currencyCode: "MAD" },
        lineItems: [line({ id: "1", sku: "SMW-X8-PNK" }), line({ id: "2", sku: "smw-x8-pnk" })],
      }),
    );
    expect(codes(result)).toEqual(["item_out_of_stock"]);
    expect(result.decision).toBe("send");
    expect(result.lead?.items).toEqual([{ sku: "SMW-X8-PNK", quantity: 2 }]);
  });
});

describe("mapOrderToLead: amount", () => {
  it.each<[string, Partial<ShopOrder>, string | undefined, FindingCode[]]>([
    ["whole amount", { currentTotal: { amount: "149", currencyCode: "MAD" } }, "149.00", []],
    ["one decimal", { currentTotal: { amount: "149.5", currencyCode: "MAD" } }, "149.50", []],
    [
      "MAD presentment of a EUR shop",
      {
        currency: "EUR",
        currentTotal: { amount: "13.70", currencyCode: "EUR" },
        currentTotalPresentment: { amount: "149.00", currencyCode: "MAD" },
      },
      "149.00",
      [],
    ],
    [
      "EUR only",
      {
        currency: "EUR",
        currentTotal: { amount: "13.70", currencyCode: "EUR" },
        currentTotalPresentment: { amount: "13.70", currencyCode: "EUR" },
      },
      undefined,
      ["currency_not_mad"],
    ],
    [
      "below items plus delivery",
      { currentTotal: { amount: "60.00", currencyCode: "MAD" } },
      "60.00",
      ["total_below_cost"],
    ],
    ["exactly items plus delivery", { currentTotal: { amount: "65.00", currencyCode: "MAD" } }, "65.00", []],
    ["zero", { currentTotal: { amount: "0.00", currencyCode: "MAD" } }, "0.00", ["total_below_cost"]],
    ["unreadable", { currentTotal: { amount: "1,49", currencyCode: "MAD" } }, undefined, ["total_invalid"]],
  ])("%s", (_name, overrides, total, expectedCodes) => {
    const result = map(order(overrides));
    expect(codes(result)).toEqual(expectedCodes);
    if (total === undefined) expect(result.lead?.total_client).toBeUndefined();
    else expect(result.lead?.total_client).toBe(total);
  });

  it("flags a zero amount even when the items and delivery cost nothing", () => {
    const free = {
      catalogue: [{ id: 1, sku: "SAMPLE", name: "Sample", platform_price: "0.00", in_stock: true, variants: [] }],
      cities: [{ id: 1, name: "Casablanca", delivery_fee: "0.00" }],
    };
    const sample = (amount: string) =>
      order({ currentTotal: { amount, currencyCode: "MAD" }, lineItems: [line({ sku: "SAMPLE" })] });
    expect(codes(map(sample("0.00"), free))).toEqual(["total_below_cost"]);
    expect(codes(map(sample("5.00"), free))).toEqual([]);
  });

  it("does not judge the total without a delivered city, as the platform cannot either", () => {
    const result = map(
      withAddress(order({ currentTotal: { amount: "0.00", currencyCode: "MAD" } }), { city: "Bouknadel" }),
    );
    expect(codes(result)).toEqual(["city_unmatched"]);
  });

  it("explains the inconsistent-total rule with the numbers", () => {
    const f = finding(map(order({ currentTotal: { amount: "60.00", currencyCode: "MAD" } })), "total_below_cost");
    // ARG-OIL-50 at 45.00 plus Casablanca's 20.00 delivery fee.
    expect(f).toMatchObject({
      severity: "warning",
      params: { total: "60.00", minimum: "65.00", itemsCost: "45.00", deliveryFee: "20.00" },
    });
  });

  it("holds an amount not in MAD by default and sends it without amount when the shop chooses", () => {
    const eur = order({
      currency: "EUR",
      currentTotal: { amount: "13.70", currencyCode: "EUR" },
      currentTotalPresentment: undefined,
      presentmentCurrency: "EUR",
    });
    expect(map(eur).decision).toBe("hold");
    expect(map(eur, { settings: { holdPolicy: { currency_not_mad: "send" } } }).decision).toBe("send");
  });

  it("holds a total below cost when the shop asks for it", () => {
    const result = map(order({ currentTotal: { amount: "60.00", currencyCode: "MAD" } }), {
      settings: { holdPolicy: { total_below_cost: "hold" } },
    });
    expect(result.decision).toBe("hold");
  });
});

describe("mapOrderToLead: possible duplicate", () => {
  const recent = (overrides: Partial<RecentLead> = {}): RecentLead => ({
    phone: "0612345678",
    productKeys: ["product:1001"],
    createdAt: new Date(NOW.getTime() - 4 * 60_000),
    orderId: "5550000000001",
    orderName: "#1000",
    ...overrides,
  });

  it.each<[string, RecentLead, boolean]>([
    ["same phone and product 4 min ago", recent(), true],
    ["same phone and product 11 min ago", recent({ createdAt: new Date(NOW.getTime() - 11 * 60_000) }), false],
    ["another product", recent({ productKeys: ["product:1003"] }), false],
    ["another phone", recent({ phone: "0698765432" }), false],
    ["the order itself", recent({ orderId: "5551234567890" }), false],
  ])("%s: %s", (_name, lead, expected) => {
    const result = map(order(), { recentLeads: [lead] });
    expect(finding(result, "possible_duplicate") !== undefined).toBe(expected);
    expect(result.decision).toBe("send");
  });

  it("names the earlier order and follows the configured window", () => {
    const lead = recent({ createdAt: new Date(NOW.getTime() - 25 * 60_000) });
    expect(finding(map(order(), { recentLeads: [lead] }), "possible_duplicate")).toBeUndefined();
    const f = finding(
      map(order(), { recentLeads: [lead], settings: { duplicateWindowMinutes: 30 } }),
      "possible_duplicate",
    );
    expect(f).toMatchObject({ severity: "warning", params: { otherOrder: "#1000", minutesAgo: 25 } });
  });

  it("accepts a lookup function instead of a list", () => {
    const asked: string[] = [];
    const result = map(order(), {
      recentLeads: (phone) => {
        asked.push(phone);
        return [recent()];
      },
    });
    expect(asked).toEqual(["0612345678"]);
    expect(codes(result)).toContain("possible_duplicate");
  });
});

describe("mapOrderToLead: name", () => {
  it("falls back to the customer, then to a placeholder with a warning", () => {
    const noShippingName = withAddress(order({ customer: { firstName: "Aicha" } }), {
      firstName: undefined,
      lastName: undefined,
    });
    expect(map(noShippingName).lead?.customer_name).toBe("Aicha");
    const result = map(withAddress(order(), { firstName: " ", lastName: undefined }));
    expect(result.lead?.customer_name).toBe("Client #1001");
    expect(finding(result, "name_missing")?.severity).toBe("warning");
  });
});
