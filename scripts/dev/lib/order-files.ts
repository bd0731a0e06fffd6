/**
 * Reads Shopify order webhook payloads from a directory: every *.json file, in
 * name order. A file holds either a plain payload (an object with an `id`), an
 * array of them, or a demo case: `{ title?, topic?, waitForSettled?, webhookLost?, expect?, payload }`.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";

export interface Expectation {
  state: string;
  findings: string[];
  anomalies: string[];
}

export interface OrderDelivery {
  /** File the delivery comes from (and its index for arrays). */
  source: string;
  topic: string;
  payload: Record<string, unknown>;
  title?: string;
  /** Send only when every order sent before has settled. */
  waitForSettled: boolean;
  /** The order exists in Shopify but its webhook never reaches the app (the reconciliation must take it in). */
  webhookLost: boolean;
  /** The order's expected outcome after this delivery. */
  expect?: Expectation;
}

export class OrderFileError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "OrderFileError";
  }
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);
const codes = (v: unknown): string[] => (Array.isArray(v) ? v.filter((c): c is string => typeof c === "string") : []);

function readCase(source: string, value: Record<string, unknown>, defaultTopic: string): OrderDelivery {
  if (isObject(value.payload)) {
    const expect =
      isObject(value.expect) && typeof value.expect.state === "string"
        ? {
            state: value.expect.state,
            findings: codes(value.expect.findings),
            anomalies: codes(value.expect.anomalies),
          }
        : undefined;
    return {
      source,
      topic: typeof value.topic === "string" ? value.topic : defaultTopic,
      payload: value.payload,
      title: typeof value.title === "string" ? value.title : undefined,
      waitForSettled: value.waitForSettled === true,
      webhookLost: value.webhookLost === true,
      ...(expect ? { expect } : {}),
    };
  }
  if (value.id === undefined)
    throw new OrderFileError(`${source}: not an order payload (no "id") nor a case (no "payload")`);
  return { source, topic: defaultTopic, payload: value, waitForSettled: false, webhookLost: false };
}

export function readOrderFiles(dir: string, defaultTopic = "orders/create"): OrderDelivery[] {
  let names: string[];
  try {
    names = readdirSync(dir)
      .filter((n) => n.endsWith(".json"))
      .sort();
  } catch {
    throw new OrderFileError(`cannot read the directory ${dir}`);
  }
  if (names.length === 0) throw new OrderFileError(`no .json file in ${dir}`);
  const deliveries: OrderDelivery[] = [];
  for (const name of names) {
    let parsed: unknown;
    try {
      parsed = JSON.parse(readFileSync(join(dir, name), "utf8"));
    } catch (error) {
      throw new OrderFileError(`${name}: not valid JSON (${error instanceof Error ? error.message : String(error)})`);
    }
    if (Array.isArray(parsed)) {
      parsed.forEach((item, i) => {
        if (!isObject(item)) throw new OrderFileError(`${name}[${i}]: not an object`);
        deliveries.push(readCase(`${name}[${i}]`, item, defaultTopic));
      });
    } else if (isObject(parsed)) {
      deliveries.push(readCase(name, parsed, defaultTopic));
    } else {
      throw new OrderFileError(`${name}: not an object`);
    }
  }
  return deliveries;
}

export const orderIdOf = (payload: Record<string, unknown>): string => String(payload.id);
export const orderNameOf = (payload: Record<string, unknown>): string =>
  typeof payload.name === "string" ? payload.name : `#${String(payload.id)}`;
