import { describe, expect, it } from "vitest";
import { findRecentDuplicate } from "../../app/leads/duplicates";
import type { RecentLead } from "../../app/leads";

const NOW = new Date("2026-03-10T12:00:00Z");
const PHONE = "0612345678";

function lead(minutesAgo: number, overrides: Partial<RecentLead> = {}): RecentLead {
  return {
    phone: PHONE,
    productKeys: ["sku:ARG-OIL-50"],
    createdAt: new Date(NOW.getTime() - minutesAgo * 60_000),
    orderId: `order-${minutesAgo}`,
    ...overrides,
  };
}

const find = (
  leads: RecentLead[] | ((phone: string) => RecentLead[]) | undefined,
  windowMinutes = 60,
  keys = ["sku:ARG-OIL-50"],
) => findRecentDuplicate(leads, PHONE, keys, "this-order", NOW, windowMinutes);

describe("findRecentDuplicate", () => {
  it("finds a lead with the same phone and product inside the window", () => {
    const hit = find([lead(10)]);
    expect(hit?.lead.orderId).toBe("order-10");
    expect(hit?.minutesAgo).toBe(10);
  });

  it("reports the nearest of two candidates, whatever their order", () => {
    expect(find([lead(40), lead(5)])?.lead.orderId).toBe("order-5");
    expect(find([lead(5), lead(40)])?.lead.orderId).toBe("order-5");
    expect(find([lead(40), lead(5), lead(20)])?.minutesAgo).toBe(5);
  });

  it("keeps the first of two equally old candidates", () => {
    const first = lead(7, { orderId: "first" });
    const second = lead(7, { orderId: "second" });
    expect(find([first, second])?.lead.orderId).toBe("first");
  });

  it("rounds the age down to whole minutes", () => {
    expect(find([lead(1.5)])?.minutesAgo).toBe(1);
    expect(find([lead(0)])?.minutesAgo).toBe(0);
  });

  it("includes the window's edges and nothing outside it", () => {
    expect(find([lead(60)], 60)?.minutesAgo).toBe(60);
    expect(find([lead(60 + 1 / 60_000)], 60)).toBeUndefined();
    expect(find([lead(-1 / 60_000)], 60)).toBeUndefined(); // from the future
    expect(find([lead(61)], 60)).toBeUndefined();
  });

  it("ignores other phones, the order itself, other products and leads without a date", () => {
    expect(find([lead(5, { phone: "0699999999" })])).toBeUndefined();
    expect(find([lead(5, { orderId: "this-order" })])).toBeUndefined();
    expect(find([lead(5, { productKeys: ["sku:AMLOU-250"] })])).toBeUndefined();
    expect(find([lead(5, { productKeys: [] })])).toBeUndefined();
    expect(find([lead(5, { createdAt: "2026-03-10T11:55:00Z" as unknown as Date })])).toBeUndefined();
    expect(find([undefined as unknown as RecentLead, lead(5)])?.lead.orderId).toBe("order-5");
  });

  it("matches when any one product is shared", () => {
    const hit = find([lead(5, { productKeys: ["sku:AMLOU-250", "sku:ARG-OIL-50"] })], 60, ["sku:X", "sku:ARG-OIL-50"]);
    expect(hit?.minutesAgo).toBe(5);
  });

  it("asks a source function for the leads of the phone", () => {
    const asked: string[] = [];
    const hit = find((phone) => {
      asked.push(phone);
      return [lead(3)];
    });
    expect(asked).toEqual([PHONE]);
    expect(hit?.minutesAgo).toBe(3);
  });

  it("looks at nothing without a source, products or a window", () => {
    let asked = 0;
    const source = () => {
      asked++;
      return [lead(3)];
    };
    expect(find(undefined)).toBeUndefined();
    expect(find(source, 60, [])).toBeUndefined();
    expect(find(source, 0)).toBeUndefined();
    expect(find(source, -5)).toBeUndefined();
    expect(asked).toBe(0);
    expect(find(source, 2)).toBeUndefined();
    expect(find(source, 3)?.minutesAgo).toBe(3);
  });
});
