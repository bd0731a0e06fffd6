/**
 * Shopify's real Admin GraphQL schema (API version 2026-07), loaded once per process:
 * buildSchema takes a second or two on the 3.8 MB SDL.
 */
import { readFileSync } from "node:fs";
import { buildSchema, type GraphQLSchema } from "graphql";

export const API_VERSION = "2026-07";
export const ADMIN_SCHEMA_PATH = new URL("./admin-2026-07.schema.graphql", import.meta.url).pathname;

const schemas = new Map<string, GraphQLSchema>();

export function loadAdminSchema(path = ADMIN_SCHEMA_PATH): GraphQLSchema {
  let schema = schemas.get(path);
  if (!schema) {
    schema = buildSchema(readFileSync(path, "utf8"));
    schemas.set(path, schema);
  }
  return schema;
}
