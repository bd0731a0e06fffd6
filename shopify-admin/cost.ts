/**
 * Query cost, after Shopify's published rules (approximately): objects 1, scalars and
 * enums 0, connections 2 + first x (cost of the selection), mutations 10. The requested
 * cost is computed from the document before it runs; the actual cost from the data it
 * returned (a connection counts the nodes it really holds), never above the requested.
 */
import {
  getNamedType,
  isCompositeType,
  isInterfaceType,
  isObjectType,
  Kind,
  type DocumentNode,
  type GraphQLCompositeType,
  type GraphQLSchema,
  type OperationDefinitionNode,
  type SelectionSetNode,
} from "graphql";

/** Shopify's single-query ceiling. */
export const MAX_QUERY_COST = 1000;
export const MUTATION_COST = 10;

type Variables = Record<string, unknown>;

export function operationOf(
  document: DocumentNode,
  operationName?: string | null,
): OperationDefinitionNode | undefined {
  const operations = document.definitions.filter(
    (d): d is OperationDefinitionNode => d.kind === Kind.OPERATION_DEFINITION,
  );
  return operationName ? operations.find((o) => o.name?.value === operationName) : operations[0];
}

export function estimateQueryCost(
  schema: GraphQLSchema,
  document: DocumentNode,
  variables: Variables = {},
  operationName?: string | null,
): number {
  const operation = operationOf(document, operationName);
  if (!operation) return 1;
  if (operation.operation === "mutation") return MUTATION_COST;
  return Math.max(1, requestedCost(schema, schema.getQueryType()!, operation.selectionSet, variables));
}

/** The cost of what `data` really holds for the operation; capped at `requested`. */
export function actualQueryCost(
  schema: GraphQLSchema,
  document: DocumentNode,
  data: unknown,
  requested: number,
  operationName?: string | null,
): number {
  const operation = operationOf(document, operationName);
  if (!operation) return 1;
  if (operation.operation === "mutation") return MUTATION_COST;
  const actual = Math.max(1, dataCost(schema, schema.getQueryType()!, operation.selectionSet, data));
  return Math.min(actual, requested);
}

function fieldsOf(parent: GraphQLCompositeType) {
  return isObjectType(parent) || isInterfaceType(parent) ? parent.getFields() : null;
}

function requestedCost(
  schema: GraphQLSchema,
  parent: GraphQLCompositeType,
  set: SelectionSetNode,
  variables: Variables,
): number {
  let total = 0;
  for (const selection of set.selections) {
    if (selection.kind === Kind.INLINE_FRAGMENT) {
      const onType = selection.typeCondition ? schema.getType(selection.typeCondition.name.value) : parent;
      if (onType && isCompositeType(onType)) total += requestedCost(schema, onType, selection.selectionSet, variables);
      continue;
    }
    if (selection.kind !== Kind.FIELD || !selection.selectionSet) continue;
    const field = fieldsOf(parent)?.[selection.name.value];
    const type = field && getNamedType(field.type);
    if (!type || !isCompositeType(type)) continue;
    const inner = requestedCost(schema, type, selection.selectionSet, variables);
    const firstArg = selection.arguments?.find((a) => a.name.value === "first" || a.name.value === "last");
    let first: number | undefined;
    if (firstArg?.value.kind === Kind.INT) first = Number(firstArg.value.value);
    if (firstArg?.value.kind === Kind.VARIABLE) first = Number(variables[firstArg.value.name.value] ?? 0);
    // nodes(ids: [...]) asks for one object per id.
    const idsArg = selection.arguments?.find((a) => a.name.value === "ids");
    const ids =
      idsArg?.value.kind === Kind.LIST
        ? idsArg.value.values.length
        : idsArg?.value.kind === Kind.VARIABLE
          ? listLength(variables[idsArg.value.name.value])
          : 1;
    total += type.name.endsWith("Connection") ? 2 + (first ?? 0) * inner : ids * (1 + inner);
  }
  return total;
}

const listLength = (value: unknown) => (Array.isArray(value) ? value.length : 1);

function dataCost(schema: GraphQLSchema, parent: GraphQLCompositeType, set: SelectionSetNode, data: unknown): number {
  if (data === null || typeof data !== "object") return 0;
  const record = data as Record<string, unknown>;
  let total = 0;
  for (const selection of set.selections) {
    if (selection.kind === Kind.INLINE_FRAGMENT) {
      const onType = selection.typeCondition ? schema.getType(selection.typeCondition.name.value) : parent;
      if (onType && isCompositeType(onType)) total += dataCost(schema, onType, selection.selectionSet, data);
      continue;
    }
    if (selection.kind !== Kind.FIELD || !selection.selectionSet) continue;
    const field = fieldsOf(parent)?.[selection.name.value];
    const type = field && getNamedType(field.type);
    if (!type || !isCompositeType(type)) continue;
    const value = record[selection.alias?.value ?? selection.name.value];
    if (value === null || value === undefined) continue;
    const each = (v: unknown) => dataCost(schema, type, selection.selectionSet!, v);
    if (type.name.endsWith("Connection")) total += 2 + each(value);
    else if (Array.isArray(value)) total += value.reduce((sum: number, v) => sum + 1 + each(v), 0);
    else total += 1 + each(value);
  }
  return total;
}
