import { describe, expect, it } from "vitest";
import { parse, validate } from "graphql";
import {
  flowTriggerReceiveMany,
  flowTriggerReceiveManyVariables,
  tagsMutationMany,
  tagsMutationManyVariables,
} from "../../app/shopify/batched-documents";
import { WRITE_BACK_BATCH } from "../../app/sync/write-back-task.server";
import { FLOW_TRIGGER_BATCH } from "../../app/flow/flow-triggers.server";
import { estimateQueryCost, loadAdminSchema, MAX_QUERY_COST } from "../../shopify-admin/index";

const schema = loadAdminSchema();

describe("flowTriggerReceiveMany: a batch's firings in one request", () => {
  it.each([1, 2, FLOW_TRIGGER_BATCH])(
    "validates against the 2026-07 schema for %i firing(s), under the single-query cost limit",
    (count) => {
      const document = parse(flowTriggerReceiveMany(count));
      expect(validate(schema, document).map((e) => e.message)).toEqual([]);
      expect(estimateQueryCost(schema, document)).toBeLessThanOrEqual(MAX_QUERY_COST);
    },
  );

  it("names each firing's variables and answer by its place", () => {
    const firings = [
      { handle: "lead-created", payload: { "Lead reference": "L-1" } },
      { handle: "lead-status-changed", payload: { "Lead reference": "L-2" } },
    ];
    expect(flowTriggerReceiveManyVariables(firings)).toEqual({
      h0: "lead-created",
      p0: firings[0].payload,
      h1: "lead-status-changed",
      p1: firings[1].payload,
    });
    expect(flowTriggerReceiveMany(2)).toMatch(/f1: flowTriggerReceive\(handle: \$h1, payload: \$p1\)/);
  });
});

describe("tagsMutationMany: a batch's tag changes in one request", () => {
  it.each([
    ["tagsAdd", 2],
    ["tagsRemove", 2],
    ["tagsAdd", WRITE_BACK_BATCH],
    ["tagsRemove", WRITE_BACK_BATCH],
  ] as const)(
    "%s validates against the 2026-07 schema for %i orders, under the single-query cost limit",
    (field, count) => {
      const document = parse(tagsMutationMany(field, count));
      expect(validate(schema, document).map((e) => e.message)).toEqual([]);
      expect(estimateQueryCost(schema, document)).toBeLessThanOrEqual(MAX_QUERY_COST);
    },
  );

  it("names each order's variables by its place", () => {
    expect(tagsMutationManyVariables([{ orderGid: "gid://shopify/Order/1", tags: ["cod:confirmed"] }])).toEqual({
      id0: "gid://shopify/Order/1",
      t0: ["cod:confirmed"],
    });
  });
});
