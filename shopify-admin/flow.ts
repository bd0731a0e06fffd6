/**
 * Shopify Flow, as far as an app meets it: `flowTriggerReceive` checks the payload
 * against the trigger's declared fields (read from the app's own extension TOML files,
 * as Shopify reads them at deploy) and records it; the action runtime URL is called
 * the way Flow calls it (JSON body signed with the app's secret in
 * X-Shopify-Hmac-SHA256), and so is the trigger lifecycle callback.
 */
import { createHmac, randomUUID } from "node:crypto";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { parse } from "smol-toml";
import type { UserError } from "./records";

export interface FlowFieldDefinition {
  type: string;
  key?: string;
}

export interface FlowTriggerDefinition {
  handle: string;
  name: string;
  fields: FlowFieldDefinition[];
}

export interface FlowActionDefinition {
  handle: string;
  name: string;
  runtimeUrl: string;
  fields: (FlowFieldDefinition & { required?: boolean })[];
}

export interface FlowDefinitions {
  triggers: FlowTriggerDefinition[];
  actions: FlowActionDefinition[];
}

export interface FlowTriggerRecord {
  id: number;
  /** stand-in clock, ISO */
  at: string;
  shop: string | null;
  handle: string;
  payload: Record<string, unknown>;
}

interface ExtensionToml {
  extensions?: { type?: string; handle?: string; name?: string; runtime_url?: string }[];
  settings?: { fields?: (FlowFieldDefinition & { required?: boolean })[] };
}

/** The Flow triggers and actions declared under an app's extensions/ folder. */
export function flowDefinitionsFrom(extensionsDir: string): FlowDefinitions {
  const definitions: FlowDefinitions = { triggers: [], actions: [] };
  if (!existsSync(extensionsDir)) return definitions;
  for (const entry of readdirSync(extensionsDir, { withFileTypes: true })) {
    const file = join(extensionsDir, entry.name, "shopify.extension.toml");
    if (!entry.isDirectory() || !existsSync(file)) continue;
    const toml = parse(readFileSync(file, "utf8")) as ExtensionToml;
    const fields = toml.settings?.fields ?? [];
    for (const extension of toml.extensions ?? []) {
      if (!extension.handle) continue;
      if (extension.type === "flow_trigger")
        definitions.triggers.push({ handle: extension.handle, name: extension.name ?? extension.handle, fields });
      if (extension.type === "flow_action") {
        definitions.actions.push({
          handle: extension.handle,
          name: extension.name ?? extension.handle,
          runtimeUrl: extension.runtime_url ?? "",
          fields,
        });
      }
    }
  }
  return definitions;
}

/** Payload key Flow uses for a reference field ("order_reference" -> "order_id"). */
export function referenceKey(type: string): string | null {
  return type.endsWith("_reference") ? `${type.slice(0, -"_reference".length)}_id` : null;
}

function typeError(type: string, value: unknown): string | null {
  switch (type) {
    case "single_line_text_field":
    case "multi_line_text_field":
    case "email":
    case "url":
      return typeof value === "string" ? null : "must be a string";
    case "number_integer":
      return Number.isInteger(value) ? null : "must be an integer";
    case "number_decimal":
      return typeof value === "number" && Number.isFinite(value) ? null : "must be a number";
    case "boolean":
      return typeof value === "boolean" ? null : "must be a boolean";
    default:
      if (referenceKey(type))
        return (typeof value === "number" && Number.isInteger(value) && value > 0) ||
          (typeof value === "string" && /^(gid:\/\/shopify\/\w+\/)?\d+$/.test(value))
          ? null
          : "must be a resource id";
      return null;
  }
}

/** Shopify's checks of a trigger call: a known handle and every declared field, typed; nothing undeclared. */
export function validateTriggerPayload(
  definition: FlowTriggerDefinition | undefined,
  handle: unknown,
  payload: unknown,
): UserError[] {
  if (typeof handle !== "string" || !handle) return [{ field: ["handle"], message: "Handle can't be blank" }];
  if (!definition) return [{ field: ["handle"], message: `Trigger with handle '${handle}' not found` }];
  if (!payload || typeof payload !== "object" || Array.isArray(payload))
    return [{ field: ["payload"], message: "Payload must be an object" }];
  const record = payload as Record<string, unknown>;
  const errors: UserError[] = [];
  const declared = new Set<string>();
  for (const field of definition.fields) {
    const key = referenceKey(field.type) ?? field.key ?? "";
    declared.add(key);
    if (!(key in record)) {
      errors.push({ field: ["payload", key], message: `${key} is missing` });
      continue;
    }
    const problem = typeError(field.type, record[key]);
    if (problem) errors.push({ field: ["payload", key], message: `${key} ${problem}` });
  }
  for (const key of Object.keys(record)) {
    if (!declared.has(key)) errors.push({ field: ["payload", key], message: `${key} is not a field of the trigger` });
  }
  return errors;
}

export interface FlowCallResult {
  status: number;
  body: unknown;
}

/** Flow's side: the declared extensions, the triggers received, and calls into the app. */
export class FlowRegistry {
  private definitions: FlowDefinitions = { triggers: [], actions: [] };
  readonly received: FlowTriggerRecord[] = [];
  private nextId = 1;

  load(definitions: FlowDefinitions): void {
    this.definitions = definitions;
  }

  list(): FlowDefinitions {
    return this.definitions;
  }

  trigger(handle: string): FlowTriggerDefinition | undefined {
    return this.definitions.triggers.find((t) => t.handle === handle);
  }

  /** flowTriggerReceive: userErrors as Shopify answers them, or the call recorded. */
  receive(shop: string | null, handle: unknown, payload: unknown, nowMs: number): UserError[] {
    const errors = validateTriggerPayload(this.trigger(String(handle ?? "")), handle, payload);
    if (errors.length === 0) {
      this.received.push({
        id: this.nextId++,
        at: new Date(nowMs).toISOString(),
        shop,
        handle: String(handle),
        payload: payload as Record<string, unknown>,
      });
    }
    return errors;
  }

  reset(): void {
    this.received.length = 0;
  }
}

/** POSTs a JSON body signed as Flow signs it (HMAC-SHA256 of the body with the app's secret, base64). */
export async function postSignedAsFlow(url: string, body: unknown, apiSecret: string): Promise<FlowCallResult> {
  const text = JSON.stringify(body);
  const hmac = createHmac("sha256", apiSecret).update(text, "utf8").digest("base64");
  const response = await fetch(url, {
    method: "POST",
    headers: { "content-type": "application/json", "x-shopify-hmac-sha256": hmac },
    body: text,
  });
  const answer = await response.text();
  let parsed: unknown = answer;
  try {
    parsed = answer ? JSON.parse(answer) : null;
  } catch {
    // Not JSON: kept as text.
  }
  return { status: response.status, body: parsed };
}

/** The body Flow sends to an action's runtime URL. */
export function flowActionBody(input: {
  shop: string;
  shopId?: number;
  handle: string;
  properties: Record<string, unknown>;
  actionRunId?: string;
}) {
  return {
    shop_id: input.shopId ?? 1,
    shopify_domain: input.shop,
    action_run_id: input.actionRunId ?? randomUUID(),
    action_definition_id: input.handle,
    handle: input.handle,
    properties: input.properties,
  };
}
