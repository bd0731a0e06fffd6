/**
 * Checks real responses against sandbox/openapi.yaml: status documented for the
 * operation, body valid against its JSON Schema (2020-12), required headers present.
 */
import { dereference } from "@readme/openapi-parser";
import Ajv2020 from "ajv/dist/2020.js";
import addFormats from "ajv-formats";
import type { ValidateFunction } from "ajv";
import { fileURLToPath } from "node:url";
import { readFileSync } from "node:fs";
import { parse } from "yaml";

export const OPENAPI_PATH = fileURLToPath(new URL("../../sandbox/openapi.yaml", import.meta.url));

interface HeaderSpec {
  required?: boolean;
  schema?: object;
}
interface ResponseSpec {
  headers?: Record<string, HeaderSpec>;
  content?: Record<string, { schema?: object }>;
}
interface OperationSpec {
  operationId: string;
  responses: Record<string, ResponseSpec>;
}
type PathItem = Record<string, OperationSpec>;

export interface ResponseCheck {
  method: string;
  path: string;
  status: number;
  headers: Headers;
  body: unknown;
}

export interface OpenApiChecker {
  /** throws with a readable reason when the response does not match the document */
  check(response: ResponseCheck): void;
  /** "operationId status" pairs checked so far */
  seen: Set<string>;
  /** every "operationId status" pair the document declares */
  declared(): string[];
}

export async function loadOpenApiDocument(): Promise<Record<string, unknown>> {
  // Parse ourselves and hand an object over, so $refs resolve inside this one document.
  return (await dereference(parse(readFileSync(OPENAPI_PATH, "utf8")))) as Record<string, unknown>;
}

/**
 * Ajv in strict mode: an unknown keyword inside a schema is an error. JSON Schema
 * 2020-12 (and so OpenAPI 3.1's meta-schema) allows unknown keywords, which is how
 * `{ description: a, b }` (YAML splits it into a second key) once passed unnoticed.
 */
export function strictSchemaCompiler(): Ajv2020 {
  // strictRequired off: a `oneOf` branch may require a property its parent schema defines.
  const ajv = new Ajv2020({ strict: true, strictRequired: false, allErrors: true });
  addFormats(ajv);
  return ajv;
}

export async function createOpenApiChecker(): Promise<OpenApiChecker> {
  const doc = await loadOpenApiDocument();
  const paths = doc.paths as Record<string, PathItem>;
  const ajv = strictSchemaCompiler();
  const compiled = new Map<object, ValidateFunction>();
  const validatorFor = (schema: object) => {
    let v = compiled.get(schema);
    if (!v) compiled.set(schema, (v = ajv.compile(schema)));
    return v;
  };
  const templates = Object.keys(paths).map((template) => ({
    template,
    regex: new RegExp("^" + template.replace(/\{[^}]+\}/g, "[^/]+") + "$"),
  }));
  const seen = new Set<string>();

  return {
    seen,
    declared: () =>
      Object.values(paths).flatMap((item) =>
        Object.values(item).flatMap((op) => Object.keys(op.responses).map((s) => `${op.operationId} ${s}`)),
      ),
    check({ method, path, status, headers, body }) {
      const pathname = path.split("?")[0];
      const match = templates.find((t) => t.regex.test(pathname));
      if (!match) throw new Error(`OpenAPI: no path for ${pathname}`);
      const op = paths[match.template][method.toLowerCase()];
      if (!op) throw new Error(`OpenAPI: no ${method} on ${match.template}`);
      const spec = op.responses[String(status)];
      if (!spec) throw new Error(`OpenAPI: ${op.operationId} does not document status ${status}`);
      for (const [name, header] of Object.entries(spec.headers ?? {})) {
        const value = headers.get(name);
        if (value === null) {
          if (header.required) throw new Error(`OpenAPI: ${op.operationId} ${status} lacks required header ${name}`);
          continue;
        }
        if (header.schema && !validatorFor(header.schema)(value)) {
          throw new Error(`OpenAPI: header ${name}=${value} invalid for ${op.operationId} ${status}`);
        }
      }
      const schema = spec.content?.["application/json"]?.schema;
      if (schema) {
        const validate = validatorFor(schema);
        if (!validate(body)) {
          throw new Error(
            `OpenAPI: body of ${op.operationId} ${status} invalid: ${ajv.errorsText(validate.errors)}\n${JSON.stringify(body).slice(0, 500)}`,
          );
        }
      }
      seen.add(`${op.operationId} ${status}`);
    },
  };
}
