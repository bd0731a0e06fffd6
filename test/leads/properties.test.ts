import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  fromGraphqlOrder,
  fromWebhookOrder,
  type MappingResult,
  mapOrderToLead,
  matchCity,
  normalizeCityKey,
  normalizeMoroccanPhone,
} from "../../app/leads";
import { checkLeadInput } from "../../app/seller-api/lead-input";
import { catalogue, cities, context } from "./helpers";

// Fixed so a run is repeatable; fast-check prints the seed (and the path) of any failure.
// FAST_CHECK_SEED=<n> explores other inputs.
const SEED = Number(process.env.FAST_CHECK_SEED) || 20261123;

const ctx = context({
  skuMappings: [{ sourceKind: "variant", sourceKey: "77", targets: [{ sku: "ARG-OIL-50", quantity: 2 }] }],
  recentLeads: [
    { phone: "0612345678", productKeys: ["product:1001"], createdAt: new Date("2026-03-10T11:55:00Z"), orderId: "1" },
  ],
});

/** The result is coherent whatever the order: a valid lead when sent, reasons when not. */
function checkResult(result: MappingResult): void {
  if (result.lead) expect(checkLeadInput(result.lead)).toEqual({ ok: true, value: result.lead });
  const blocking = result.findings.some((f) => f.severity === "blocking");
  if (result.decision === "send") {
    expect(result.lead).toBeDefined();
    expect(blocking).toBe(false);
  }
  if (result.decision === "hold") expect(blocking || !result.lead).toBe(true);
  if (result.decision === "skip") expect(result.lead).toBeUndefined();
  for (const f of result.findings) expect(typeof f.message).toBe("string");
}

// Values customers and shops really produce, mixed with junk, so that many runs reach a lead.
const mostly = <T, U>(good: fc.Arbitrary<T>, junk: fc.Arbitrary<U>) =>
  fc.oneof({ arbitrary: good, weight: 4 }, { arbitrary: junk, weight: 1 });
const phoneLike = mostly(
  fc.constantFrom(
    "0612345678",
    "+212 6 61 23 45 67",
    "٠٧٧٠١٢٣٤٥٦",
    "0522123456",
    "+33612345678",
    "0791234567",
    "",
    "abc",
  ),
  fc.oneof(fc.string(), fc.constant(null)),
);
const cityLike = fc.oneof(
  fc.constantFrom(
    ...cities.slice(0, 20).map((c) => c.name),
    "Casa",
    "مراكش",
    "Casablnaca",
    "Maarif",
    "Tza",
    "",
    "Casablanca-Settat",
  ),
  fc.string(),
  fc.constant(null),
);
const skuLike = mostly(
  fc.constantFrom(...catalogue.map((p) => p.sku), "arg-oil-50", "UNKNOWN-1", ""),
  fc.oneof(fc.string(), fc.constant(null)),
);
const amountLike = fc.oneof(
  fc.constantFrom("149.00", "0.00", "12", "1e3", "-5.00", "99999999999.00", "3.999"),
  fc.string(),
  fc.double(),
  fc.integer(),
);
const anyJson = fc.jsonValue();

const webhookLineItem = fc.record(
  {
    id: fc.oneof(fc.nat(), fc.string()),
    variant_id: fc.oneof(fc.constant(77), fc.nat(), fc.constant(null)),
    product_id: fc.oneof(fc.nat(), fc.constant(null)),
    sku: skuLike,
    name: fc.string(),
    title: fc.string(),
    quantity: mostly(
      fc.integer({ min: 1, max: 5 }),
      fc.oneof(fc.integer({ min: -2, max: 50 }), fc.string(), fc.double()),
    ),
    current_quantity: fc.oneof(fc.integer({ min: 0, max: 50 }), fc.constant(undefined)),
    requires_shipping: mostly(fc.constant(true), fc.oneof(fc.boolean(), anyJson)),
    gift_card: mostly(fc.constant(false), fc.oneof(fc.boolean(), anyJson)),
  },
  { requiredKeys: ["sku", "quantity"] },
);
const webhookAddress = fc.record(
  {
    first_name: fc.string(),
    last_name: fc.string(),
    address1: fc.string(),
    address2: cityLike,
    city: cityLike,
    province: cityLike,
    phone: phoneLike,
  },
  { requiredKeys: ["city", "phone"] },
);
const webhookOrder = fc.record(
  {
    id: fc.oneof(fc.nat(), fc.string(), anyJson),
    name: fc.oneof(fc.string(), anyJson),
    currency: fc.constantFrom("MAD", "EUR", "", "mad"),
    presentment_currency: fc.constantFrom("MAD", "EUR"),
    current_total_price: amountLike,
    current_total_price_set: fc.record({
      shop_money: fc.record({ amount: amountLike, currency_code: fc.constantFrom("MAD", "EUR") }),
      presentment_money: fc.record({ amount: amountLike, currency_code: fc.constantFrom("MAD", "EUR") }),
    }),
    total_outstanding: amountLike,
    financial_status: fc.constantFrom("pending", "paid", "authorized", "PENDING", null),
    gateway: mostly(fc.constantFrom("Cash on Delivery (COD)", "shopify_payments"), anyJson),
    payment_gateway_names: fc.oneof(fc.array(fc.constantFrom("COD", "Paiement à la livraison", "paypal")), anyJson),
    test: mostly(fc.constant(false), fc.oneof(fc.boolean(), anyJson)),
    cancelled_at: mostly(fc.constant(null), fc.string()),
    phone: phoneLike,
    customer: fc.oneof(fc.record({ first_name: fc.string(), phone: phoneLike }, { requiredKeys: [] }), anyJson),
    shipping_address: mostly(webhookAddress, anyJson),
    billing_address: fc.oneof(webhookAddress, anyJson),
    line_items: mostly(fc.array(webhookLineItem, { minLength: 1, maxLength: 5 }), anyJson),
    tags: fc.oneof(fc.string(), anyJson),
  },
  {
    requiredKeys: ["gateway", "test", "cancelled_at", "shipping_address", "line_items", "financial_status", "currency"],
  },
);

const SETTINGS = [
  undefined,
  { sendAllOrders: true, sendTestOrders: true },
  { holdPolicy: { city_unmatched: "send", sku_missing: "send" } as const },
];

describe("properties", () => {
  it("never throws on arbitrary JSON, and every lead passes the client's validation", () => {
    fc.assert(
      fc.property(anyJson, fc.constantFrom(...SETTINGS), (json, settings) => {
        checkResult(mapOrderToLead(fromWebhookOrder(json), { ...ctx, settings }));
        checkResult(mapOrderToLead(fromGraphqlOrder(json), { ...ctx, settings }));
      }),
      { seed: SEED, numRuns: 300 },
    );
  });

  it("never throws on order-like webhook JSON, and every lead passes the client's validation", () => {
    let leads = 0;
    fc.assert(
      fc.property(webhookOrder, fc.constantFrom(...SETTINGS), (json, settings) => {
        const result = mapOrderToLead(fromWebhookOrder(json), { ...ctx, settings });
        checkResult(result);
        if (result.lead) leads++;
      }),
      { seed: SEED, numRuns: 600 },
    );
    // The generator must reach the lead-building code, or the property proves little.
    expect(leads).toBeGreaterThan(60);
  });

  it("never throws on order-like GraphQL JSON", () => {
    const node = webhookOrder.map((o) => ({
      id: typeof o.id === "number" ? `gid://shopify/Order/${o.id}` : o.id,
      name: o.name,
      currencyCode: o.currency,
      currentTotalPriceSet: { shopMoney: { amount: o.current_total_price, currencyCode: o.currency } },
      displayFinancialStatus: o.financial_status,
      paymentGatewayNames: o.payment_gateway_names,
      shippingAddress: o.shipping_address,
      lineItems: { nodes: o.line_items },
    }));
    fc.assert(
      fc.property(node, (json) => checkResult(mapOrderToLead(fromGraphqlOrder(json), ctx))),
      { seed: SEED, numRuns: 300 },
    );
  });

  it("normalises phones to the platform's shape or says why not", () => {
    fc.assert(
      fc.property(fc.oneof(fc.string(), fc.stringMatching(/^[+0-9 ().\-٠-٩]{0,20}$/)), (raw) => {
        const result = normalizeMoroccanPhone(raw);
        if (result.ok) expect(result.phone).toMatch(/^0[67]\d{8}$/);
        else expect(["missing", "invalid", "landline", "foreign"]).toContain(result.reason);
      }),
      { seed: SEED, numRuns: 1000 },
    );
  });

  it("keeps a Moroccan mobile whatever separators surround its digits", () => {
    const mobile = fc.tuple(fc.constantFrom("6", "7"), fc.stringMatching(/^\d{8}$/));
    const prefix = fc.constantFrom("0", "+212", "00212", "212", "+2120", "");
    const separator = fc.constantFrom("", " ", ".", "-");
    fc.assert(
      fc.property(mobile, prefix, separator, ([first, rest], p, sep) => {
        const digits = first + rest;
        const raw = p + digits.match(/.{1,2}/g)!.join(sep);
        const result = normalizeMoroccanPhone(raw);
        expect(result.ok && result.phone).toBe(`0${digits}`);
      }),
      { seed: SEED, numRuns: 500 },
    );
  });

  it("matches cities without throwing and keeps normalised keys stable", () => {
    fc.assert(
      fc.property(fc.string(), fc.string(), (city, address1) => {
        const key = normalizeCityKey(city);
        expect(normalizeCityKey(key)).toBe(key);
        const match = matchCity({ city, address1 }, cities);
        if (match.status === "unmatched") expect(match.suggestions.length).toBeLessThanOrEqual(3);
      }),
      { seed: SEED, numRuns: 500 },
    );
  });
});
