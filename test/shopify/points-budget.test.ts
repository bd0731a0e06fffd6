import { describe, expect, it } from "vitest";
import { ShopifyBudget } from "../../app/shopify/points-budget";

const SHOP = "atlas-beauty.myshopify.com";
/** Shopify's answer cost when it throttled: the bucket as it stands. */
const throttled = (currentlyAvailable: number, maximumAvailable = 2000, restoreRate = 100) => ({
  requestedQueryCost: 10,
  actualQueryCost: null,
  throttleStatus: { maximumAvailable, currentlyAvailable, restoreRate },
});

describe("a shop's Shopify points, as the worker's jobs line up for them", () => {
  it("lets every call go until Shopify first throttles (a Plus shop refills ten times faster than a Standard one)", () => {
    const budget = new ShopifyBudget();
    for (let i = 0; i < 500; i++) expect(budget.take(SHOP, `job-${i}`, 563, 600, 0)).toBeNull();
  });

  it("after a throttle, puts the jobs in line at the plan's pace and lets each go at its moment", () => {
    const budget = new ShopifyBudget();
    budget.observe(SHOP, throttled(0), 0);
    // An empty 2000-point bucket at 100 points a second: a call asking 10 points may go
    // 100 ms later (near enough: it goes), the next ones each 250 ms (their 25-point charge) after.
    expect(budget.take(SHOP, "a", 10, 25, 0)).toBeNull();
    const second = budget.take(SHOP, "b", 10, 25, 0)!;
    const third = budget.take(SHOP, "c", 10, 25, 0)!;
    expect(second).toBe(350);
    expect(third - second).toBe(250);
    // The same job asking again before its moment keeps its place; at its moment it goes.
    expect(budget.take(SHOP, "b", 10, 25, 50)).toBe(second);
    expect(budget.take(SHOP, "b", 10, 25, second)).toBeNull();
    // Another shop's bucket is its own.
    expect(budget.take("other.myshopify.com", "d", 10, 25, 0)).toBeNull();
  });

  it("a costly read waits until the bucket holds what it asks for, cheap calls behind it keep their order", () => {
    const budget = new ShopifyBudget();
    budget.observe(SHOP, throttled(0), 0);
    // Asking 563 points of an empty bucket: the bucket must refill past them (about 5.6 s at 100 a second).
    const costly = budget.take(SHOP, "read", 563, 35, 0)!;
    expect(costly).toBeGreaterThanOrEqual(5_000);
    const cheap = budget.take(SHOP, "tag", 10, 25, 0)!;
    expect(cheap).toBeGreaterThan(costly - 6_000);
  });

  it("an answer showing a fuller bucket never moves the line back", () => {
    const budget = new ShopifyBudget();
    budget.observe(SHOP, throttled(0), 0);
    // A 1000-point run goes first and spends ten seconds of refill.
    expect(budget.take(SHOP, "a", 10, 1000, 0)).toBeNull();
    budget.observe(SHOP, throttled(2000), 1);
    expect(budget.take(SHOP, "b", 10, 25, 1)).toBe(10_100);
  });
});
