/**
 * Admin GraphQL documents that send one mutation for many orders in a single
 * request, each under its own alias (f0, f1, ...): one HTTP call, one cost
 * check, and each alias's userErrors apart. Built per count and cached; the
 * fixed documents live in documents.ts.
 */

const flowTriggerReceiveByCount = new Map<number, string>();

/** `count` flowTriggerReceive calls: variables h0/p0, h1/p1, ...; answers under f0, f1, ... */
export function flowTriggerReceiveMany(count: number): string {
  let document = flowTriggerReceiveByCount.get(count);
  if (!document) {
    const indexes = Array.from({ length: count }, (_, i) => i);
    document = `#graphql
  mutation FlowTriggerReceive(${indexes.map((i) => `$h${i}: String!, $p${i}: JSON!`).join(", ")}) {
${indexes.map((i) => `    f${i}: flowTriggerReceive(handle: $h${i}, payload: $p${i}) { userErrors { field message } }`).join("\n")}
  }
`;
    flowTriggerReceiveByCount.set(count, document);
  }
  return document;
}

/** The variables of flowTriggerReceiveMany for these firings, in order. */
export function flowTriggerReceiveManyVariables(
  firings: readonly { handle: string; payload: unknown }[],
): Record<string, unknown> {
  const variables: Record<string, unknown> = {};
  firings.forEach((f, i) => {
    variables[`h${i}`] = f.handle;
    variables[`p${i}`] = f.payload;
  });
  return variables;
}

const tagsByCount = new Map<string, string>();

/** `count` tagsAdd (or tagsRemove) calls: variables id0/t0, id1/t1, ...; answers under a0, a1, ... */
export function tagsMutationMany(field: "tagsAdd" | "tagsRemove", count: number): string {
  const cacheKey = `${field}:${count}`;
  let document = tagsByCount.get(cacheKey);
  if (!document) {
    const indexes = Array.from({ length: count }, (_, i) => i);
    const name = field === "tagsAdd" ? "TagsAdd" : "TagsRemove";
    document = `#graphql
  mutation ${name}(${indexes.map((i) => `$id${i}: ID!, $t${i}: [String!]!`).join(", ")}) {
${indexes.map((i) => `    a${i}: ${field}(id: $id${i}, tags: $t${i}) { node { id } userErrors { field message } }`).join("\n")}
  }
`;
    tagsByCount.set(cacheKey, document);
  }
  return document;
}

/** The variables of tagsMutationMany for these orders, in order. */
export function tagsMutationManyVariables(
  calls: readonly { orderGid: string; tags: readonly string[] }[],
): Record<string, unknown> {
  const variables: Record<string, unknown> = {};
  calls.forEach((c, i) => {
    variables[`id${i}`] = c.orderGid;
    variables[`t${i}`] = c.tags;
  });
  return variables;
}
