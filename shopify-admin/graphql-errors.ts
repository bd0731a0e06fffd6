/**
 * GraphQL errors in the shape Shopify's API sends them: `message`, `locations`, and an
 * `extensions.code` naming the problem as Shopify's (graphql-ruby) validator does
 * (undefinedField, argumentNotAccepted, missingRequiredArguments, ...). Messages stay
 * graphql-js's wording; the app and its tests read the code, not the sentence.
 */
import type { GraphQLError } from "graphql";

export interface ShopifyGraphqlErrorEntry {
  message: string;
  locations?: { line: number; column: number }[];
  path?: (string | number)[];
  extensions?: Record<string, unknown>;
}

const RULES: { pattern: RegExp; code: string; details?: (m: RegExpExecArray) => Record<string, unknown> }[] = [
  {
    pattern: /^Cannot query field "(\w+)" on type "(\w+)"/,
    code: "undefinedField",
    details: (m) => ({ typeName: m[2], fieldName: m[1] }),
  },
  {
    pattern: /^Unknown argument "(\w+)" on field "(\w+)\.(\w+)"/,
    code: "argumentNotAccepted",
    details: (m) => ({ name: m[3], typeName: "Field", argumentName: m[1] }),
  },
  {
    pattern: /^Field "(\w+)" argument "(\w+)" of type "(.+?)" is required/,
    code: "missingRequiredArguments",
    details: (m) => ({ className: "Field", name: m[1], arguments: m[2] }),
  },
  {
    pattern: /^Variable "\$(\w+)" of type "(.+?)" used in position expecting type "(.+?)"/,
    code: "variableMismatch",
    details: (m) => ({ variableName: m[1], typeName: m[2], expectedType: m[3] }),
  },
  { pattern: /^Variable "\$(\w+)" is never used/, code: "variableNotUsed", details: (m) => ({ variableName: m[1] }) },
  {
    pattern: /^Variable "\$(\w+)" is not defined/,
    code: "variableNotDefined",
    details: (m) => ({ variableName: m[1] }),
  },
  { pattern: /^Unknown type "(\w+)"/, code: "undefinedType", details: (m) => ({ typeName: m[1] }) },
  {
    pattern: /^Variable "\$(\w+)" (?:of (?:required|non-null) type .* was not provided|got invalid value)/,
    code: "INVALID_VARIABLE",
    details: (m) => ({ variableName: m[1] }),
  },
  {
    pattern: /cannot represent|^Expected value of type|^Enum ".*" cannot represent/,
    code: "argumentLiteralsIncompatible",
  },
  { pattern: /^Field ".*" of type ".*" must have a selection of subfields/, code: "selectionMismatch" },
  { pattern: /^Syntax Error/, code: "parseError" },
];

export function shopifyError(error: GraphQLError): ShopifyGraphqlErrorEntry {
  const json = error.toJSON();
  // Shopify does not suggest field names (it would leak the schema to guessing clients).
  const entry: ShopifyGraphqlErrorEntry = { message: json.message.replace(/ Did you mean .*\?$/, "") };
  if (json.locations?.length) entry.locations = json.locations.map(({ line, column }) => ({ line, column }));
  if (json.path?.length) entry.path = [...json.path];
  const rule = RULES.find((r) => r.pattern.test(entry.message));
  const extensions = { ...(json.extensions ?? {}) };
  if (rule && !("code" in extensions))
    Object.assign(extensions, { code: rule.code, ...(rule.details?.(rule.pattern.exec(entry.message)!) ?? {}) });
  if (Object.keys(extensions).length) entry.extensions = extensions;
  return entry;
}

export const INVALID_TOKEN_MESSAGE = "[API] Invalid API key or access token (unrecognized login or wrong password)";
