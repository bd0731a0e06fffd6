import { describe, expect, it } from "vitest";
import { Kind, NoDeprecatedCustomRule, parse, validate, type OperationDefinitionNode } from "graphql";
import * as documents from "../../app/shopify/documents";
import { estimateQueryCost, loadAdminSchema, MAX_QUERY_COST } from "../../shopify-admin/index";

const schema = loadAdminSchema();
// Every export, so a document added to app/shopify/documents.ts is checked automatically.
const entries = Object.entries(documents);

describe("Admin GraphQL documents (app/shopify/documents.ts) against the 2026-07 schema", () => {
  it("exports documents only", () => {
    expect(entries.length).toBeGreaterThan(0);
    for (const [name, value] of entries) {
      expect(typeof value, name).toBe("string");
      expect((value as string).trimStart().startsWith("#graphql"), `${name} carries the #graphql tag`).toBe(true);
    }
  });

  it.each(entries)("%s is one named operation that validates and uses no deprecated field", (_name, value) => {
    const document = parse(value as string);
    const operations = document.definitions.filter(
      (d): d is OperationDefinitionNode => d.kind === Kind.OPERATION_DEFINITION,
    );
    expect(operations).toHaveLength(1);
    expect(operations[0].name?.value).toBeTruthy();
    expect(validate(schema, document).map((e) => e.message)).toEqual([]);
    expect(validate(schema, document, [NoDeprecatedCustomRule]).map((e) => e.message)).toEqual([]);
  });

  it("gives every operation a distinct name", () => {
    const names = entries.map(([, value]) => /(?:query|mutation)\s+(\w+)/.exec(value as string)?.[1]);
    expect(new Set(names).size).toBe(names.length);
  });

  it("rejects a document that does not fit the schema (the check is real)", () => {
    const wrong = parse(`query { order(id: "gid://shopify/Order/1") { financialStatus } }`);
    expect(validate(schema, wrong).map((e) => e.message)).toEqual([expect.stringContaining('"financialStatus"')]);
  });

  it("keeps ORDER_WRITE_BACK_STATE under Shopify's single-query cost limit", () => {
    expect(estimateQueryCost(schema, parse(documents.ORDER_WRITE_BACK_STATE))).toBeLessThanOrEqual(MAX_QUERY_COST);
  });

  it("keeps ORDERS_PAGE under Shopify's single-query cost limit at 3 orders per page", () => {
    // lineItems(first: 100) costs about 310 points per order: the backfill pages by 3.
    const cost = (first: number) => estimateQueryCost(schema, parse(documents.ORDERS_PAGE), { first });
    expect(cost(3)).toBeLessThanOrEqual(MAX_QUERY_COST);
    expect(cost(4)).toBeGreaterThan(MAX_QUERY_COST);
  });

  it("keeps the reconciliation's reads under the single-query limit: a page of 250, three orders read whole", () => {
    const ids = (n: number) => Array.from({ length: n }, (_, i) => `gid://shopify/Order/${i + 1}`);
    expect(estimateQueryCost(schema, parse(documents.RECONCILE_ORDERS), { first: 250 })).toBeLessThanOrEqual(
      MAX_QUERY_COST,
    );
    const details = (n: number) => estimateQueryCost(schema, parse(documents.RECONCILE_ORDER_DETAILS), { ids: ids(n) });
    expect(details(3)).toBeLessThanOrEqual(MAX_QUERY_COST);
    expect(details(4)).toBeGreaterThan(MAX_QUERY_COST);
    expect(estimateQueryCost(schema, parse(documents.RECONCILE_ORDER_STATES), { ids: ids(250) })).toBeLessThanOrEqual(
      MAX_QUERY_COST,
    );
  });
});
