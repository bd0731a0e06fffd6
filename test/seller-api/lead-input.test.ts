import { describe, expect, it } from "vitest";
import { checkLeadInput } from "../../app/seller-api/index";

const valid = {
  customer_name: "Fatima Zahra",
  customer_phone: "0612345678",
  city: "Casablanca",
  address: "12 rue Ibn Batouta",
  total_client: "149.00",
  items: [
    { sku: "ARG-OIL-50", quantity: 2 },
    { product_id: 1003, quantity: 1 },
  ],
  external_ref: "#1001",
};

const failure = (input: unknown) => {
  const result = checkLeadInput(input);
  if (result.ok) throw new Error("expected a failure");
  return result;
};

describe("checkLeadInput", () => {
  it("GIVEN a complete lead THEN it passes unchanged", () => {
    expect(checkLeadInput(valid)).toEqual({ ok: true, value: valid });
  });

  it("GIVEN only the required fields THEN it passes and sends no empty optional keys", () => {
    const minimal = { customer_name: "A", customer_phone: "0712345678", items: [{ sku: "X", quantity: 1 }] };
    const result = checkLeadInput({ ...minimal, address: null, city: undefined });
    expect(result).toEqual({ ok: true, value: minimal });
    expect(Object.keys(result.ok ? result.value : {})).not.toContain("address");
  });

  it.each([
    [{ ...valid, customer_name: undefined }, "customer_name"],
    [{ ...valid, customer_name: "   " }, "customer_name"],
    [{ ...valid, customer_phone: undefined }, "customer_phone"],
    [{ ...valid, customer_phone: "0512345678" }, "customer_phone"],
    [{ ...valid, customer_phone: "+212612345678" }, "customer_phone"],
    [{ ...valid, customer_phone: "061234567" }, "customer_phone"],
    [{ ...valid, total_client: 149 }, "total_client"],
    [{ ...valid, total_client: "149.5" }, "total_client"],
    [{ ...valid, total_client: "149,00" }, "total_client"],
    [{ ...valid, items: undefined }, "items"],
    [{ ...valid, items: [] }, "items"],
    [{ ...valid, items: [{ sku: "A", quantity: 1 }, { sku: "B" }] }, "items[1].quantity"],
    [{ ...valid, items: [{ sku: "A", quantity: 0 }] }, "items[0].quantity"],
    [{ ...valid, items: [{ sku: "A", quantity: 1.5 }] }, "items[0].quantity"],
    [{ ...valid, items: [{ quantity: 1 }] }, "items[0]"],
    [{ ...valid, items: [{ sku: "A", product_id: 3, quantity: 1 }] }, "items[0]"],
    [{ ...valid, items: [{ sku: " ", quantity: 1 }] }, "items[0].sku"],
    [{ ...valid, items: [{ product_id: -1, quantity: 1 }] }, "items[0].product_id"],
    [{ ...valid, city: 3.5 }, "city"],
    ["not an object", "body"],
  ])("GIVEN %j THEN it names %s", (input, field) => {
    const result = failure(input);
    expect(result.field).toBe(field);
    expect(result.message.startsWith(field)).toBe(true);
  });

  it("GIVEN a city id instead of a name THEN it passes", () => {
    expect(checkLeadInput({ ...valid, city: 101 }).ok).toBe(true);
  });
});
