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
export function flowTriggerReceiveManyVariables(firings: readonly { handle: string; payload: unknown }[]): Record<string, unknown> {
  const variables: Record<string, unknown> = {};
  firings.forEach((f, i) => {
    variables[`h${i}`] = f.handle;
    variables[`p${i}`] = f.payload;
  });
  return variables;
}
