/**
 * What the merchant reads: the message of every finding code and branch, and the cap on
 * findings repeated line after line.
 */
import { describe, expect, it } from "vitest";
import { capFindings, makeFinding, MAX_FINDINGS_PER_CODE } from "../../app/leads/findings";
import type { FindingCode, FindingParams, Suggestion } from "../../app/leads";

const SUGGESTED = [
  { kind: "city", cityId: 1, name: "Rabat", score: 0.9 },
  { kind: "city", cityId: 2, name: "Salé", score: 0.8 },
] as Suggestion[];

const MESSAGES: [FindingCode, FindingParams, Suggestion[] | undefined, string][] = [
  [
    "not_cod",
    { reason: "already_paid", financialStatus: "partially_paid" },
    undefined,
    "The order is already partially paid; only unpaid cash-on-delivery orders are sent.",
  ],
  [
    "not_cod",
    { reason: "no_gateway" },
    undefined,
    "The order has no payment method, so it is not a cash-on-delivery order; it is not sent.",
  ],
  [
    "not_cod",
    { reason: "other_gateway", gateways: "paypal, card" },
    undefined,
    "The order was paid with “paypal, card”, not cash on delivery; it is not sent.",
  ],
  [
    "test_order",
    {},
    undefined,
    "This is a Shopify test order; it is not sent (test orders can be allowed in the settings).",
  ],
  ["cancelled", {}, undefined, "The order was cancelled in Shopify; it is not sent."],
  [
    "no_shippable_items",
    {},
    undefined,
    "The order has nothing to deliver (only gift cards or items that need no shipping); it is not sent.",
  ],
  [
    "too_many_items",
    { lineCount: 300, max: 250 },
    undefined,
    "The order has 300 lines to deliver, more than the 250 one lead can hold; it is held. Split it into smaller orders in Shopify.",
  ],
  [
    "phone_missing",
    {},
    undefined,
    "The order has no phone number. The platform needs a Moroccan mobile number (06 or 07) to confirm the order with the customer.",
  ],
  [
    "phone_invalid",
    { raw: "123" },
    undefined,
    "“123” is not a valid Moroccan phone number. The platform needs a mobile number starting with 06 or 07.",
  ],
  [
    "phone_landline",
    { raw: "0522" },
    undefined,
    "“0522” is a fixed-line number. The platform accepts only mobile numbers starting with 06 or 07.",
  ],
  [
    "phone_foreign",
    { raw: "+33", callingCode: "33" },
    undefined,
    "“+33” is a foreign number (+33). The platform accepts only Moroccan mobile numbers starting with 06 or 07.",
  ],
  [
    "phone_unverified",
    { phone: "0791234567" },
    undefined,
    "0791234567 is not in a number range Moroccan operators are known to use; check it with the customer.",
  ],
  [
    "name_missing",
    { name: "Client #1" },
    undefined,
    "The order has no customer name; the lead is sent as “Client #1”.",
  ],
  ["city_missing", {}, undefined, "The order has no city, and none was found in the address."],
  [
    "city_unmatched",
    { input: "Bouk" },
    SUGGESTED,
    "“Bouk” is not one of the platform's delivered cities. Closest: Rabat, Salé.",
  ],
  ["city_unmatched", { input: "Bouk" }, undefined, "“Bouk” is not one of the platform's delivered cities."],
  [
    "city_fuzzy",
    { input: "Casablnaca", city: "Casablanca", score: 0.904 },
    undefined,
    "The city “Casablnaca” was read as Casablanca (90% match); check it.",
  ],
  [
    "city_from_address",
    { cityField: "Quartier", city: "Rabat", source: "address1" },
    undefined,
    "The city field (“Quartier”) is not a city; Rabat was found in the address line.",
  ],
  [
    "city_from_address",
    { cityField: null, city: "Rabat", source: "address2" },
    undefined,
    "The city field is empty; Rabat was found in the second address line.",
  ],
  [
    "city_from_address",
    { city: "Rabat", source: "province" },
    undefined,
    "The city field is empty; Rabat was found in the province / region field.",
  ],
  [
    "city_from_address",
    { city: "Rabat", source: "other" },
    undefined,
    "The city field is empty; Rabat was found in the address.",
  ],
  [
    "sku_missing",
    { title: "Mystery", leftOut: true },
    undefined,
    "“Mystery” has no SKU and no mapping to a platform product; it is left out of the lead. Map it to a platform product.",
  ],
  [
    "sku_missing",
    { title: "Mystery", leftOut: false },
    undefined,
    "“Mystery” has no SKU and no mapping to a platform product. Map it to a platform product.",
  ],
  [
    "sku_unmatched",
    { via: "mapping", title: "Pack", unknown: "GONE-1, #9" },
    SUGGESTED,
    "The mapping for “Pack” points to GONE-1, #9, which is not in the platform catalogue. Closest: Alpha.",
  ],
  [
    "sku_unmatched",
    { via: "sku", sku: "NOPE", title: "Thing" },
    undefined,
    "SKU “NOPE” (“Thing”) is not in the platform catalogue.",
  ],
  [
    "item_out_of_stock",
    { name: "Shaver", sku: "SHAVER-3D" },
    undefined,
    "Shaver (SHAVER-3D) is out of stock on the platform.",
  ],
  [
    "currency_not_mad",
    { currency: "EUR" },
    undefined,
    "The order is in EUR and carries no amount in MAD, so the amount to collect cannot be set.",
  ],
  [
    "currency_not_mad",
    { currency: null },
    undefined,
    "The order is in an unknown currency and carries no amount in MAD, so the amount to collect cannot be set.",
  ],
  ["total_invalid", { amount: "1,49" }, undefined, "The order total “1,49” cannot be read as an amount to collect."],
  [
    "total_below_cost",
    { total: "0.00" },
    undefined,
    "The amount to collect is 0.00 MAD; the platform will flag the lead as an inconsistent total.",
  ],
  [
    "total_below_cost",
    { total: "60.00", minimum: "65.00" },
    undefined,
    "The amount to collect (60.00 MAD) is below the platform price of the items plus delivery (65.00 MAD); the platform will flag the lead as an inconsistent total.",
  ],
  [
    "possible_duplicate",
    { otherOrder: "#1042", minutesAgo: 5 },
    undefined,
    "Order #1042 was sent 5 min ago with the same phone and product; the platform may mark this one as a duplicate.",
  ],
];

describe("finding messages", () => {
  it.each(MESSAGES)("%s %j", (code, params, suggestions, message) => {
    const s =
      code === "sku_unmatched" && suggestions
        ? ([{ kind: "product", productId: 1, sku: "A", name: "Alpha", score: 0.5 }] as Suggestion[])
        : suggestions;
    const finding = makeFinding(code, "warning", "field", params, s);
    expect(finding.message).toBe(message);
    expect(finding).toMatchObject({ code, severity: "warning", field: "field", params });
  });

  it("carries suggestions only when there are some", () => {
    expect(makeFinding("city_unmatched", "blocking", "city", { input: "x" }, SUGGESTED).suggestions).toEqual(SUGGESTED);
    expect(makeFinding("city_unmatched", "blocking", "city", { input: "x" }, [])).not.toHaveProperty("suggestions");
    expect(makeFinding("city_unmatched", "blocking", "city", { input: "x" })).not.toHaveProperty("suggestions");
    expect(makeFinding("city_missing", "blocking", "city").params).toEqual({});
    expect(makeFinding("city_unmatched", "blocking", "city", { input: "Bouk" }, []).message).toBe(
      "“Bouk” is not one of the platform's delivered cities.",
    );
  });
});

describe("capFindings", () => {
  const lines = (n: number, code: FindingCode = "sku_missing") =>
    Array.from({ length: n }, (_, i) => makeFinding(code, "warning", "items", { title: `L${i}` }));

  it(`keeps up to ${MAX_FINDINGS_PER_CODE} findings of a code untouched`, () => {
    const findings = lines(MAX_FINDINGS_PER_CODE);
    expect(capFindings(findings)).toBe(findings);
    const mixed = [...lines(MAX_FINDINGS_PER_CODE), makeFinding("city_missing", "blocking", "city")];
    const kept = capFindings(mixed);
    expect(kept).toEqual(mixed);
    expect(kept[0].params).not.toHaveProperty("notListed");
  });

  it("says how many were left out on the first finding of that code, not on the order's first finding", () => {
    const kept = capFindings([makeFinding("city_missing", "blocking", "city"), ...lines(MAX_FINDINGS_PER_CODE + 2)]);
    expect(kept[0].params).toEqual({});
    expect(kept[1].params).toEqual({ title: "L0", notListed: 2 });
  });

  it("drops the rest of a code, in order, and says how many on its first finding", () => {
    const findings = [
      ...lines(MAX_FINDINGS_PER_CODE + 3),
      makeFinding("city_missing", "blocking", "city"),
      ...lines(2, "item_out_of_stock"),
    ];
    const kept = capFindings(findings);
    expect(kept.map((f) => f.code)).toEqual([
      ...Array(MAX_FINDINGS_PER_CODE).fill("sku_missing"),
      "city_missing",
      "item_out_of_stock",
      "item_out_of_stock",
    ]);
    expect(kept.slice(0, MAX_FINDINGS_PER_CODE).map((f) => f.params.title)).toEqual(
      Array.from({ length: MAX_FINDINGS_PER_CODE }, (_, i) => `L${i}`),
    );
    expect(kept[0].params).toEqual({ title: "L0", notListed: 3 });
    expect(kept[0].message).toBe(
      "“L0” has no SKU and no mapping to a platform product. Map it to a platform product. 3 more lines with the same problem are not listed.",
    );
    expect(kept[1].params).toEqual({ title: "L1" });
    expect(kept.at(-1)?.params).not.toHaveProperty("notListed");
  });

  it("caps one more than the limit to the limit", () => {
    const kept = capFindings(lines(MAX_FINDINGS_PER_CODE + 1));
    expect(kept).toHaveLength(MAX_FINDINGS_PER_CODE);
    expect(kept[0].params.notListed).toBe(1);
  });
});
