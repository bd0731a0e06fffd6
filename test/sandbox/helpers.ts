/**
 * Shared test plumbing: a sandbox per test file, and an HTTP helper whose every
 * public-API response is checked against sandbox/openapi.yaml as it arrives.
 */
import { afterAll, beforeAll, beforeEach } from "vitest";
import {
  sandboxControl,
  startSandbox,
  type SandboxControl,
  type SandboxKey,
  type StartSandboxOptions,
} from "../../sandbox/index";
import { createOpenApiChecker, type OpenApiChecker } from "./openapi-checker";

export interface ApiResponse<T = unknown> {
  status: number;
  headers: Headers;
  body: T;
}

// Response shapes as the tests read them (the OpenAPI checker validates them for real).
export interface ErrorBody {
  error: { code: string; message: string; field?: string; retry_after?: number };
}
export interface AnomalyView {
  code: string;
  message: string;
  field?: string;
  duplicate_of?: string;
}
export interface ListElement {
  id: number;
  ref: string;
  confirmation_status: string;
  shipping_status: string;
  total_client: string | null;
  external_ref: string | null;
  damaged: boolean;
  anomalies: AnomalyView[];
  created_at: string;
}
export interface CreatedBody {
  data: ListElement;
}
export interface ListBody {
  data: ListElement[];
  next_before: number | null;
}
export interface DetailBody {
  data: ListElement & {
    tracking_number: string | null;
    seller_profit: string | null;
    store: string | null;
    customer_name: string;
    customer_phone: string;
    city_id: number | null;
    items: { sku: string | null; product_id: number | null; quantity: number }[];
  };
}
export interface MeBody {
  data: {
    account: string;
    name: string;
    lead_prefix: string;
    api_version: string;
    rate_limit_per_minute: number;
    store: string | null;
  };
}
export interface ProductsBody {
  data: {
    id: number;
    sku: string;
    name: string;
    platform_price: string;
    in_stock: boolean;
    private: boolean;
    variants: { id: number; sku: string }[];
  }[];
}
export interface CitiesBody {
  data: { id: number; name: string; delivery_fee: string }[];
}

export interface CallOptions {
  /** the API key; null sends no key at all */
  key?: string | null;
  /** how the key travels (default bearer) */
  via?: "bearer" | "x-api-key";
  body?: unknown;
  /** a raw body, sent as is */
  raw?: string;
  headers?: Record<string, string>;
}

export interface TestSandbox {
  url: string;
  control: SandboxControl;
  /** fresh keys after the last reset: [0] is ACC-1001 (ATB), [1] is ACC-1002 (RIF) */
  keys: SandboxKey[];
  call<T = unknown>(method: string, path: string, options?: CallOptions): Promise<ApiResponse<T>>;
  /** POST /v1/leads with the first seller's key unless told otherwise */
  createLead(body: unknown, key?: string): Promise<ApiResponse<CreatedBody & ErrorBody>>;
  checker: OpenApiChecker;
}

/** A valid, anomaly-free lead for ACC-1001 (Casablanca, fee 20.00; ARG-OIL-50 at 45.00). */
export function validLead(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    customer_name: "Fatima Zahra",
    customer_phone: "0612345678",
    city: "Casablanca",
    address: "12 rue des Orangers, Maarif",
    total_client: "149.00",
    items: [{ sku: "ARG-OIL-50", quantity: 1 }],
    external_ref: "#1001",
    ...overrides,
  };
}

let phoneCounter = 0;
/** A fresh valid phone number, so leads do not trip the duplicate rule by accident. */
export function uniquePhone(): string {
  phoneCounter++;
  return `06${String(10_000_000 + phoneCounter * 7919).slice(-8)}`;
}

/**
 * Starts one sandbox for the file (frozen clock, quiet) and resets it before each test.
 * Returns a live object: read its fields inside tests, not at collection time.
 */
export function useSandbox(options: StartSandboxOptions = {}, { resetEachTest = true } = {}): TestSandbox {
  const t = {} as TestSandbox;
  let close: () => Promise<void> = async () => undefined;

  beforeAll(async () => {
    const sandbox = await startSandbox({ port: 0, quiet: true, frozenClock: true, ...options });
    close = sandbox.close;
    t.url = sandbox.url;
    t.keys = sandbox.keys;
    t.control = sandboxControl(sandbox.url);
    t.checker = await createOpenApiChecker();
    t.call = async (method, path, opts = {}) => {
      const headers: Record<string, string> = { ...opts.headers };
      const key = opts.key === undefined ? t.keys[0].key : opts.key;
      if (key !== null) {
        if (opts.via === "x-api-key") headers["X-Api-Key"] = key;
        else headers.Authorization = `Bearer ${key}`;
      }
      let body: string | undefined = opts.raw;
      if (opts.body !== undefined) {
        body = JSON.stringify(opts.body);
        headers["Content-Type"] ??= "application/json";
      }
      const res = await fetch(t.url + path, { method, headers, body });
      const text = await res.text();
      const parsed: unknown = text ? JSON.parse(text) : null;
      if (path.startsWith("/v1/"))
        t.checker.check({ method, path, status: res.status, headers: res.headers, body: parsed });
      return { status: res.status, headers: res.headers, body: parsed as never };
    };
    t.createLead = (body, key) => t.call("POST", "/v1/leads", { body, key: key ?? t.keys[0].key });
  });

  if (resetEachTest) {
    beforeEach(async () => {
      t.keys = (await t.control.reset()).keys;
    });
  }

  afterAll(async () => {
    await close();
  });
  return t;
}
