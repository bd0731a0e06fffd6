/**
 * The bounds on typed fields, field by field: one character over its bound a field makes the
 * order "over" and is cut (a phone one past its bound, so it is still refused), at its bound
 * it is left alone, and nothing else in the order changes.
 */
import { describe, expect, it } from "vitest";
import {
  boundOrderFields,
  MAX_FIELD_CHARS,
  MAX_GATEWAYS,
  MAX_ID_CHARS,
  orderOverBounds,
} from "../../app/leads/field-limits";
import { MAX_PHONE_CHARS } from "../../app/leads/phone";
import type { ShopAddress, ShopLineItem, ShopOrder } from "../../app/leads";
import { line, order } from "./helpers";

const address = (): ShopAddress => ({
  firstName: "Fatima",
  lastName: "Zahra",
  name: "Fatima Zahra",
  address1: "12 Rue Ibnou Mounir",
  address2: "Appt 3",
  city: "Casablanca",
  province: "Casablanca-Settat",
  zip: "20250",
  countryCode: "MA",
  phone: "0612345678",
});

/** An order with every bounded field present and short. */
function full(): ShopOrder {
  return order({
    phone: "0612345678",
    financialStatus: "pending",
    totalOutstanding: { amount: "149.00", currencyCode: "MAD" },
    customer: { firstName: "Fatima", lastName: "Zahra", phone: "0612345678" },
    shippingAddress: address(),
    billingAddress: address(),
    lineItems: [
      line({ id: "1", variantId: "11", productId: "21", sku: "A", name: "A - 1", title: "A", variantTitle: "1" }),
      line({ id: "2", sku: "B", variantTitle: "2" }),
    ],
  });
}

type Kind = "text" | "id" | "phone";
const MAX: Record<Kind, number> = { text: MAX_FIELD_CHARS, id: MAX_ID_CHARS, phone: MAX_PHONE_CHARS };
/** What a value one past its bound becomes. */
const cutOf = (kind: Kind, value: string) =>
  kind === "phone" ? `${value.slice(0, MAX_PHONE_CHARS)}…` : value.slice(0, MAX[kind]);

type Setter = (o: ShopOrder, value: string) => void;
const onAddress =
  (which: "shippingAddress" | "billingAddress", key: keyof ShopAddress): Setter =>
  (o, v) => {
    (o[which] as Record<string, unknown>)[key] = v;
  };
const onLine =
  (key: keyof ShopLineItem): Setter =>
  (o, v) => {
    (o.lineItems[1] as unknown as Record<string, unknown>)[key] = v;
  };

const FIELDS: [string, Kind, Setter][] = [
  ["id", "id", (o, v) => (o.id = v)],
  ["name", "id", (o, v) => (o.name = v)],
  ["phone", "phone", (o, v) => (o.phone = v)],
  ["currency", "id", (o, v) => (o.currency = v)],
  ["financialStatus", "id", (o, v) => (o.financialStatus = v)],
  ["presentmentCurrency", "id", (o, v) => (o.presentmentCurrency = v)],
  ["currentTotal.amount", "id", (o, v) => (o.currentTotal!.amount = v)],
  ["currentTotal.currencyCode", "id", (o, v) => (o.currentTotal!.currencyCode = v)],
  ["currentTotalPresentment.amount", "id", (o, v) => (o.currentTotalPresentment!.amount = v)],
  ["currentTotalPresentment.currencyCode", "id", (o, v) => (o.currentTotalPresentment!.currencyCode = v)],
  ["totalOutstanding.amount", "id", (o, v) => (o.totalOutstanding!.amount = v)],
  ["totalOutstanding.currencyCode", "id", (o, v) => (o.totalOutstanding!.currencyCode = v)],
  ["customer.firstName", "text", (o, v) => (o.customer!.firstName = v)],
  ["customer.lastName", "text", (o, v) => (o.customer!.lastName = v)],
  ["customer.phone", "phone", (o, v) => (o.customer!.phone = v)],
  ["a gateway name", "text", (o, v) => (o.paymentGatewayNames = ["COD", v])],
  ...(["shippingAddress", "billingAddress"] as const).flatMap((which): [string, Kind, Setter][] => [
    ...(["firstName", "lastName", "name", "address1", "address2", "city", "province"] as const).map(
      (key): [string, Kind, Setter] => [`${which}.${key}`, "text", onAddress(which, key)],
    ),
    [`${which}.zip`, "id", onAddress(which, "zip")],
    [`${which}.phone`, "phone", onAddress(which, "phone")],
  ]),
  ...(["sku", "name", "title", "variantTitle"] as const).map((key): [string, Kind, Setter] => [
    `line.${key}`,
    "text",
    onLine(key),
  ]),
  ...(["id", "variantId", "productId"] as const).map((key): [string, Kind, Setter] => [
    `line.${key}`,
    "id",
    onLine(key),
  ]),
];

describe("bounds on typed fields", () => {
  it("leave a normal order as it is, the same object", () => {
    const o = full();
    expect(orderOverBounds(o)).toBe(false);
    expect(boundOrderFields(o)).toBe(o);
  });

  it.each(FIELDS)("%s: cut one past its bound, untouched at it", (_name, kind, set) => {
    const over = full();
    const value = `${"7".repeat(MAX[kind])}8`;
    set(over, value);
    expect(orderOverBounds(over)).toBe(true);
    const expected = full();
    set(expected, cutOf(kind, value));
    expect(boundOrderFields(over)).toStrictEqual(expected);

    const at = full();
    set(at, "7".repeat(MAX[kind]));
    expect(orderOverBounds(at)).toBe(false);
    expect(boundOrderFields(at)).toBe(at);
  });

  it(`keeps the first ${MAX_GATEWAYS} gateway names`, () => {
    const names = Array.from({ length: MAX_GATEWAYS + 1 }, (_, i) => `Gateway ${i}`);
    const over = full();
    over.paymentGatewayNames = names;
    expect(orderOverBounds(over)).toBe(true);
    expect(boundOrderFields(over).paymentGatewayNames).toEqual(names.slice(0, MAX_GATEWAYS));
    const at = full();
    at.paymentGatewayNames = names.slice(0, MAX_GATEWAYS);
    expect(orderOverBounds(at)).toBe(false);
  });

  it("cuts an order without customer, addresses or totals without inventing them", () => {
    const o: ShopOrder = {
      id: "1".repeat(MAX_ID_CHARS + 1),
      name: "#1",
      paymentGatewayNames: [],
      test: false,
      lineItems: [],
      tags: [],
    };
    expect(boundOrderFields(o)).toStrictEqual({
      id: "1".repeat(MAX_ID_CHARS),
      name: "#1",
      phone: undefined,
      currency: undefined,
      financialStatus: undefined,
      presentmentCurrency: undefined,
      currentTotal: undefined,
      currentTotalPresentment: undefined,
      totalOutstanding: undefined,
      paymentGatewayNames: [],
      shippingAddress: undefined,
      billingAddress: undefined,
      test: false,
      lineItems: [],
      tags: [],
    });
  });

  it("reads only text as over its bound", () => {
    const o = full();
    (o as unknown as Record<string, unknown>).id = 10 ** 200;
    (o.lineItems[0] as unknown as Record<string, unknown>).sku = Array.from({ length: MAX_FIELD_CHARS + 1 }, () => "x");
    expect(orderOverBounds(o)).toBe(false);
  });
});
