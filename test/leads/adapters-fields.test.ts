/**
 * Every field each adapter reads, where it reads it from and what it falls back to: the whole
 * ShopOrder is compared strictly, so a field read from the wrong key, a lost fallback or an
 * undefined left in place (instead of an absent key) fails.
 */
import { describe, expect, it } from "vitest";
import { fromGraphqlOrder, fromWebhookOrder } from "../../app/leads";
import { compact, count, flag, idDigits, list, obj, text } from "../../app/leads/adapters/read";

const webhookAddress = (prefix: string) => ({
  first_name: `${prefix} First`,
  last_name: `${prefix} Last`,
  name: `${prefix} Name`,
  address1: `${prefix} line 1`,
  address2: `${prefix} line 2`,
  city: `${prefix} City`,
  province: `${prefix} Province`,
  zip: "20250",
  country_code: "MA",
  phone: `${prefix} phone`,
  company: "ignored",
});

const address = (prefix: string) => ({
  firstName: `${prefix} First`,
  lastName: `${prefix} Last`,
  name: `${prefix} Name`,
  address1: `${prefix} line 1`,
  address2: `${prefix} line 2`,
  city: `${prefix} City`,
  province: `${prefix} Province`,
  zip: "20250",
  countryCode: "MA",
  phone: `${prefix} phone`,
});

describe("fromWebhookOrder, field by field", () => {
  it("reads every field the mapper uses from its REST key", () => {
    const order = fromWebhookOrder({
      id: 1001,
      name: "#1001",
      created_at: "2026-03-10T10:00:00Z",
      email: "k@example.ma",
      phone: "0612345678",
      currency: "MAD",
      presentment_currency: "EUR",
      current_total_price_set: {
        shop_money: { amount: "100.00", currency_code: "MAD" },
        presentment_money: { amount: "9.10", currency_code: "EUR" },
      },
      current_total_price: "1.00",
      total_price: "2.00",
      total_outstanding: "60.00",
      financial_status: "PARTIALLY_PAID",
      payment_gateway_names: ["COD", "", null, "manual"],
      gateway: "manual",
      test: true,
      cancelled_at: "2026-03-10T11:00:00Z",
      customer: { first_name: "Khadija", last_name: "Amrani", phone: "+212661234567", email: "c@example.ma" },
      shipping_address: webhookAddress("Ship"),
      billing_address: webhookAddress("Bill"),
      line_items: [
        {
          id: 11,
          variant_id: 21,
          product_id: 31,
          sku: "ARG-OIL-50",
          name: "Argan oil - 50 ml",
          title: "Argan oil",
          variant_title: "50 ml",
          quantity: 3,
          current_quantity: 2,
          requires_shipping: false,
          gift_card: true,
        },
        "not a line",
        { quantity: "4" },
      ],
      tags: " COD, Facebook ,, ",
      note: "ring twice",
    });
    expect(order).toStrictEqual({
      id: "1001",
      name: "#1001",
      createdAt: "2026-03-10T10:00:00Z",
      email: "k@example.ma",
      phone: "0612345678",
      currency: "MAD",
      presentmentCurrency: "EUR",
      currentTotal: { amount: "100.00", currencyCode: "MAD" },
      currentTotalPresentment: { amount: "9.10", currencyCode: "EUR" },
      totalOutstanding: { amount: "60.00", currencyCode: "MAD" },
      financialStatus: "partially_paid",
      paymentGatewayNames: ["COD", "manual"],
      test: true,
      cancelledAt: "2026-03-10T11:00:00Z",
      customer: { firstName: "Khadija", lastName: "Amrani", phone: "+212661234567", email: "c@example.ma" },
      shippingAddress: address("Ship"),
      billingAddress: address("Bill"),
      lineItems: [
        {
          id: "11",
          variantId: "21",
          productId: "31",
          sku: "ARG-OIL-50",
          name: "Argan oil - 50 ml",
          title: "Argan oil",
          variantTitle: "50 ml",
          quantity: 2,
          requiresShipping: false,
          giftCard: true,
        },
        { id: "2", quantity: 4, requiresShipping: true, giftCard: false },
      ],
      tags: ["COD", "Facebook"],
      note: "ring twice",
    });
  });

  it("falls back to the plain totals, an empty currency, the lone gateway and no tags", () => {
    const current = fromWebhookOrder({
      id: "7",
      current_total_price: "5.00",
      total_price: "6.00",
      total_outstanding: "5.00",
      gateway: "COD",
    });
    expect(current).toStrictEqual({
      id: "7",
      name: "",
      currentTotal: { amount: "5.00", currencyCode: "" },
      totalOutstanding: { amount: "5.00", currencyCode: "" },
      paymentGatewayNames: ["COD"],
      test: false,
      lineItems: [],
      tags: [],
    });
    expect(fromWebhookOrder({ id: 7, currency: "MAD", total_price: "6.00" }).currentTotal).toEqual({
      amount: "6.00",
      currencyCode: "MAD",
    });
    // A money bag without its currency is no amount; the plain total is used instead.
    expect(
      fromWebhookOrder({
        current_total_price_set: { shop_money: { amount: "9.00" } },
        total_price: "6.00",
        currency: "MAD",
      }).currentTotal,
    ).toEqual({
      amount: "6.00",
      currencyCode: "MAD",
    });
    expect(
      fromWebhookOrder({ current_total_price_set: { shop_money: { currency_code: "MAD" } } }).currentTotal,
    ).toBeUndefined();
    expect(fromWebhookOrder({ customer: {} }).customer).toStrictEqual({});
    expect(fromWebhookOrder({ test: "yes", line_items: [{ requires_shipping: "no", gift_card: 1 }] })).toMatchObject({
      test: false,
      lineItems: [{ requiresShipping: true, giftCard: false, quantity: 0 }],
    });
  });
});

describe("fromGraphqlOrder, field by field", () => {
  const gqlAddress = (prefix: string) => {
    const { countryCode, ...rest } = address(prefix);
    return { ...rest, countryCodeV2: countryCode };
  };

  it("reads every field the mapper uses from its GraphQL name", () => {
    const order = fromGraphqlOrder({
      id: "gid://shopify/Order/999",
      legacyResourceId: "1001",
      name: "#1001",
      createdAt: "2026-03-10T10:00:00Z",
      email: "k@example.ma",
      phone: "0612345678",
      currencyCode: "MAD",
      presentmentCurrencyCode: "EUR",
      currentTotalPriceSet: {
        shopMoney: { amount: "100.00", currencyCode: "MAD" },
        presentmentMoney: { amount: "9.10", currencyCode: "EUR" },
      },
      totalOutstandingSet: { shopMoney: { amount: "60.00", currencyCode: "MAD" } },
      displayFinancialStatus: "PARTIALLY_PAID",
      paymentGatewayNames: ["COD", "", 7],
      test: true,
      cancelledAt: "2026-03-10T11:00:00Z",
      tags: ["COD", " ", null],
      note: "ring twice",
      customer: {
        firstName: "Khadija",
        lastName: "Amrani",
        phone: "+212661234567",
        email: "c@example.ma",
        defaultPhoneNumber: { phoneNumber: "0699999999" },
      },
      shippingAddress: gqlAddress("Ship"),
      billingAddress: { ...gqlAddress("Bill"), countryCodeV2: null, countryCode: "FR" },
      lineItems: {
        nodes: [
          {
            id: "gid://shopify/LineItem/11",
            sku: "ARG-OIL-50",
            name: "Argan oil - 50 ml",
            title: "Argan oil",
            variantTitle: "50 ml",
            quantity: 3,
            currentQuantity: 2,
            requiresShipping: false,
            isGiftCard: true,
            variant: { id: "gid://shopify/ProductVariant/21", sku: "VARIANT-SKU" },
            product: { id: "gid://shopify/Product/31" },
          },
          null,
          { variant: { sku: "FROM-VARIANT" }, quantity: 4 },
        ],
      },
    });
    expect(order).toStrictEqual({
      id: "1001",
      name: "#1001",
      createdAt: "2026-03-10T10:00:00Z",
      email: "k@example.ma",
      phone: "0612345678",
      currency: "MAD",
      presentmentCurrency: "EUR",
      currentTotal: { amount: "100.00", currencyCode: "MAD" },
      currentTotalPresentment: { amount: "9.10", currencyCode: "EUR" },
      totalOutstanding: { amount: "60.00", currencyCode: "MAD" },
      financialStatus: "partially_paid",
      paymentGatewayNames: ["COD", "7"],
      test: true,
      cancelledAt: "2026-03-10T11:00:00Z",
      customer: { firstName: "Khadija", lastName: "Amrani", phone: "+212661234567", email: "c@example.ma" },
      shippingAddress: address("Ship"),
      billingAddress: { ...address("Bill"), countryCode: "FR" },
      lineItems: [
        {
          id: "11",
          variantId: "21",
          productId: "31",
          sku: "ARG-OIL-50",
          name: "Argan oil - 50 ml",
          title: "Argan oil",
          variantTitle: "50 ml",
          quantity: 2,
          requiresShipping: false,
          giftCard: true,
        },
        { id: "2", sku: "FROM-VARIANT", quantity: 4, requiresShipping: true, giftCard: false },
      ],
      tags: ["COD"],
      note: "ring twice",
    });
  });

  it("falls back to the gid, the customer's default phone and e-mail, and a plain list of lines", () => {
    const order = fromGraphqlOrder({
      id: "gid://shopify/Order/555",
      customer: {
        defaultPhoneNumber: { phoneNumber: "0612345678" },
        defaultEmailAddress: { emailAddress: "d@example.ma" },
      },
      currentTotalPriceSet: { shopMoney: { amount: "10.00" } },
      lineItems: [{ id: "gid://shopify/LineItem/3", quantity: "2", requiresShipping: "no" }],
    });
    expect(order).toStrictEqual({
      id: "555",
      name: "",
      customer: { phone: "0612345678", email: "d@example.ma" },
      paymentGatewayNames: [],
      test: false,
      lineItems: [{ id: "3", quantity: 2, requiresShipping: true, giftCard: false }],
      tags: [],
    });
    expect(
      fromGraphqlOrder({ lineItems: { edges: [{ node: { id: 4, quantity: 1 } }, null, { node: null }] } }).lineItems,
    ).toStrictEqual([{ id: "4", quantity: 1, requiresShipping: true, giftCard: false }]);
    expect(fromGraphqlOrder({ lineItems: { edges: "none" } }).lineItems).toEqual([]);
    expect(fromGraphqlOrder({ customer: {} }).customer).toStrictEqual({});
    expect(fromGraphqlOrder({ id: "gid://shopify/Order/x" })).toMatchObject({ id: "", name: "" });
  });
});

describe("readers", () => {
  it("take objects only, and lists only", () => {
    expect(obj({ a: 1 })).toEqual({ a: 1 });
    for (const v of [null, undefined, [], "x", 1]) expect(obj(v)).toBeUndefined();
    expect(list([1])).toEqual([1]);
    expect(list({ 0: 1 })).toEqual([]);
  });

  it("read text from non-blank strings, finite numbers and big integers, kept as written", () => {
    expect(text(" a ")).toBe(" a ");
    expect(text("  ")).toBeUndefined();
    expect(text("")).toBeUndefined();
    expect(text(12.5)).toBe("12.5");
    expect(text(0)).toBe("0");
    expect(text(Number.NaN)).toBeUndefined();
    expect(text(Number.POSITIVE_INFINITY)).toBeUndefined();
    expect(text(12n)).toBe("12");
    expect(text(true)).toBeUndefined();
    expect(text({})).toBeUndefined();
  });

  it("read flags and counts strictly", () => {
    expect([flag(true, false), flag(false, true), flag("true", false), flag(undefined, true)]).toEqual([
      true,
      false,
      false,
      true,
    ]);
    expect([count(0), count(3), count(" 7 "), count("07")]).toEqual([0, 3, 7, 7]);
    for (const bad of [-1, 1.5, "1.5", "-1", "", " ", "x", "1e3", "0x10", "7a", Number.NaN, 2 ** 53, null, true])
      expect(count(bad), String(bad)).toBeUndefined();
  });

  it("take the digits at the end of an id, and nothing from an id without them", () => {
    expect(idDigits("gid://shopify/Order/123")).toBe("123");
    expect(idDigits("gid://shopify/Order/123  ")).toBe("123");
    expect(idDigits(456)).toBe("456");
    expect(idDigits("0")).toBe("0");
    expect(idDigits("a/09")).toBe("09");
    // The characters just outside '0'..'9' ('/' and ':') end the digits.
    expect(idDigits("12/34")).toBe("34");
    expect(idDigits("12:34")).toBe("34");
    expect(idDigits("12:")).toBeUndefined();
    expect(idDigits("12/")).toBeUndefined();
    expect(idDigits("abc")).toBeUndefined();
    expect(idDigits("")).toBeUndefined();
    expect(idDigits(null)).toBeUndefined();
  });

  it("compact drops undefined keys only, in place", () => {
    const value = { a: 1, b: undefined, c: null, d: "", e: 0, f: false };
    expect(compact(value)).toBe(value);
    expect(Object.keys(value)).toEqual(["a", "c", "d", "e", "f"]);
  });
});
