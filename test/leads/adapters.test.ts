import { buildSchema, parse, validate } from "graphql";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { fromGraphqlOrder, fromWebhookOrder, LEAD_ORDER_FIELDS, mapOrderToLead } from "../../app/leads";
import { cityId, context, readJson } from "./helpers";

const fixture = (name: string) => readJson<Record<string, unknown>>("test", "fixtures", "leads", "orders", name);

describe("fromWebhookOrder (orders/create)", () => {
  const payload = fixture("webhook-cod-casablanca.json");

  it("reads the fields the mapper uses", () => {
    const o = fromWebhookOrder(payload);
    expect(o).toMatchObject({
      id: "5551234567890",
      name: "#1042",
      currency: "MAD",
      currentTotal: { amount: "333.00", currencyCode: "MAD" },
      currentTotalPresentment: { amount: "333.00", currencyCode: "MAD" },
      totalOutstanding: { amount: "333.00", currencyCode: "MAD" },
      financialStatus: "pending",
      paymentGatewayNames: ["Cash on Delivery (COD)"],
      test: false,
      tags: ["COD", "Facebook"],
      shippingAddress: { city: "Casa", phone: "06 61 23 45 67", countryCode: "MA" },
      customer: { firstName: "Khadija", phone: "+212661234567" },
    });
    expect(o.cancelledAt).toBeUndefined();
    expect(o.lineItems.map((l) => [l.id, l.sku, l.quantity, l.requiresShipping, l.giftCard])).toEqual([
      ["14123456789001", "arg-oil-100", 2, true, false],
      ["14123456789002", "GIFT-CARD-100", 1, false, true],
      ["14123456789003", "SAVON-NOIR-200", 1, true, false],
      ["14123456789004", "ARG-OIL-100 ", 0, true, false],
    ]);
  });

  it("maps the sample order to the expected lead", () => {
    const result = mapOrderToLead(fromWebhookOrder(payload), context());
    expect(result.decision).toBe("send");
    expect(result.findings).toEqual([]);
    expect(result.lead).toEqual({
      customer_name: "Khadija El Amrani",
      customer_phone: "0661234567",
      city: cityId("Casablanca"),
      address: "Résidence Nour, Imm 3 Appt 8, Bd Abdelmoumen",
      total_client: "333.00",
      items: [
        { sku: "ARG-OIL-100", quantity: 2 },
        { sku: "SAVON-NOIR-200", quantity: 1 },
      ],
      external_ref: "shopify:5551234567890 #1042",
    });
  });

  it("skips a card-paid foreign order, naming the gateway", () => {
    const result = mapOrderToLead(fromWebhookOrder(fixture("webhook-card-paid-eur.json")), context());
    expect(result.decision).toBe("skip");
    expect(result.findings[0]).toMatchObject({ code: "not_cod", params: { gateways: "shopify_payments" } });
  });

  it("falls back to quantity and total_price in older payloads", () => {
    const o = fromWebhookOrder({
      id: 1,
      currency: "MAD",
      total_price: "99.00",
      line_items: [{ id: 2, sku: "X", quantity: 3 }],
    });
    expect(o.currentTotal).toEqual({ amount: "99.00", currencyCode: "MAD" });
    expect(o.lineItems[0]).toMatchObject({ quantity: 3, requiresShipping: true, giftCard: false });
  });

  it.each([null, 42, "order", [], { line_items: "nope", customer: 5, shipping_address: [] }])("survives %j", (junk) => {
    const o = fromWebhookOrder(junk);
    expect(o).toMatchObject({ id: "", lineItems: [], paymentGatewayNames: [], test: false });
  });
});

describe("fromGraphqlOrder (backfill)", () => {
  const node = fixture("graphql-order-backfill.json");

  it("reads ids from gids and amounts from money bags", () => {
    const o = fromGraphqlOrder(node);
    expect(o).toMatchObject({
      id: "5551234568001",
      name: "#1050",
      currency: "EUR",
      currentTotalPresentment: { amount: "295.00", currencyCode: "MAD" },
      financialStatus: "pending",
      paymentGatewayNames: ["Paiement à la livraison"],
      customer: { firstName: "Youssef", phone: "+212700112233" },
      shippingAddress: { city: "الرباط", countryCode: "MA" },
    });
    expect(o.lineItems[0]).toMatchObject({
      id: "15000000000001",
      variantId: "46000000000001",
      productId: "9000000000001",
      sku: "SMW-X8-BLK",
    });
  });

  it("maps the backfilled order through the shop's bundle mapping, in MAD", () => {
    const result = mapOrderToLead(
      fromGraphqlOrder(node),
      context({
        skuMappings: [
          {
            sourceKind: "sku",
            sourceKey: "PACK-RAMADAN",
            targets: [
              { sku: "AMLOU-250", quantity: 2 },
              { sku: "ROSE-WATER-250", quantity: 1 },
            ],
          },
        ],
      }),
    );
    expect(result.decision).toBe("send");
    expect(result.lead).toMatchObject({
      customer_phone: "0700112233",
      city: cityId("Rabat"),
      total_client: "295.00",
      items: [
        { sku: "SMW-X8-BLK", quantity: 1 },
        { sku: "AMLOU-250", quantity: 2 },
        { sku: "ROSE-WATER-250", quantity: 1 },
      ],
      external_ref: "shopify:5551234568001 #1050",
    });
  });

  it("holds it without the mapping: the bundle SKU is unknown to the platform", () => {
    const result = mapOrderToLead(fromGraphqlOrder(node), context());
    expect(result.decision).toBe("hold");
    expect(result.findings.map((f) => f.code)).toEqual(["sku_unmatched"]);
  });

  it("reads a connection written with edges too", () => {
    const edges = {
      ...node,
      lineItems: { edges: [{ node: { id: "gid://shopify/LineItem/9", sku: "ARG-OIL-50", quantity: 1 } }] },
    };
    expect(fromGraphqlOrder(edges).lineItems).toMatchObject([{ id: "9", sku: "ARG-OIL-50", quantity: 1 }]);
  });

  it("selects only fields that exist in the Admin API 2026-07 schema", () => {
    const schemaText = readFileSync(
      join(import.meta.dirname, "..", "..", "shopify-admin", "admin-2026-07.schema.graphql"),
      "utf8",
    );
    const schema = buildSchema(schemaText, { assumeValidSDL: true });
    const document = parse(`query LeadOrder($id: ID!) { order(id: $id) { ...LeadOrderFields } }\n${LEAD_ORDER_FIELDS}`);
    expect(validate(schema, document).map((e) => e.message)).toEqual([]);
  });
});
