/**
 * Reads Shopify order webhook payloads from a directory: every *.json file, in
 * name order. A file holds either a plain payload (an object with an `id`), an
 * array of them, or a demo case: `{ title?, topic?, waitForSettled?, webhookLost?, expect?, payload }`.
 *
 * Each payload comes twice: its bytes as written in the file, which is what is
 * sent (JSON.stringify of a parsed payload rounds ids beyond 2^53, so two of
 * Shopify's own sample orders became one), and a parsed view to read from, its
 * big integers read as their digits (as the app's intake reads them).
 */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { readWebhookJson } from "../../../app/http/webhook-json";
import { elementSpans, memberSpans, rootSpan, type Span } from "./json-spans";

export interface Expectation {
  state: string;
  findings: string[];
  anomalies: string[];
}

export interface OrderDelivery {
  /** File the delivery comes from (and its index for arrays). */
  source: string;
  topic: string;
  /** The payload's bytes as written in its file: what is signed and sent. */
  body: string;
  /** The payload parsed, for reading (ids beyond 2^53 as strings of their digits). */
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

/** A file's value: its parsed view and where it is in the file's text. */
interface Written {
  text: string;
  span: Span;
}

function readCase(
  source: string,
  value: Record<string, unknown>,
  written: Written,
  defaultTopic: string,
): OrderDelivery {
  if (isObject(value.payload)) {
    const [start, end] = memberSpans(written.text, written.span).get("payload")!;
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
      body: written.text.slice(start, end),
      payload: value.payload,
      title: typeof value.title === "string" ? value.title : undefined,
      waitForSettled: value.waitForSettled === true,
      webhookLost: value.webhookLost === true,
      ...(expect ? { expect } : {}),
    };
  }
  if (value.id === undefined)
    throw new OrderFileError(`${source}: not an order payload (no "id") nor a case (no "payload")`);
  const body = written.text.slice(...written.span);
  return { source, topic: defaultTopic, body, payload: value, waitForSettled: false, webhookLost: false };
}

/** The text parsed with its integers beyond 2^53 as strings of their digits. */
function exactly(text: string): unknown {
  const read = readWebhookJson(text, { maxDepth: Infinity, maxValues: Infinity });
  if (!read.ok) throw new Error("not valid JSON");
  return read.value;
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
    const text = readFileSync(join(dir, name), "utf8");
    let parsed: unknown;
    try {
      // For the message: JSON.parse says where the text is wrong, the exact reading below only that it is.
      JSON.parse(text);
      parsed = exactly(text);
    } catch (error) {
      throw new OrderFileError(`${name}: not valid JSON (${error instanceof Error ? error.message : String(error)})`);
    }
    const span = rootSpan(text);
    if (Array.isArray(parsed)) {
      const spans = elementSpans(text, span);
      parsed.forEach((item, i) => {
        if (!isObject(item)) throw new OrderFileError(`${name}[${i}]: not an object`);
        deliveries.push(readCase(`${name}[${i}]`, item, { text, span: spans[i] }, defaultTopic));
      });
    } else if (isObject(parsed)) {
      deliveries.push(readCase(name, parsed, { text, span }, defaultTopic));
    } else {
      throw new OrderFileError(`${name}: not an object`);
    }
  }
  return deliveries;
}

export const orderIdOf = (payload: Record<string, unknown>): string => String(payload.id);
export const orderNameOf = (payload: Record<string, unknown>): string =>
  typeof payload.name === "string" ? payload.name : `#${String(payload.id)}`;
