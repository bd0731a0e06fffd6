/**
 * Typed helper for the control API, for the client, pipeline and demo tests:
 *   const control = sandboxControl(sandbox.url);
 *   const { keys } = await control.reset();
 */
import type { Anomaly } from "./anomalies";
import type { SandboxConfig } from "./config";
import type { EventDelivery } from "./events";
import type { ConfirmationStatus, ShippingStatus } from "./lifecycle";
import type { CallLogEntry, SandboxKey } from "./store";

export class SandboxControlError extends Error {
  constructor(
    readonly status: number,
    readonly body: unknown,
    what: string,
  ) {
    super(`sandbox control ${what} answered ${status}: ${JSON.stringify(body)}`);
    this.name = "SandboxControlError";
  }
}

export interface ControlKeyInfo {
  id: string;
  account: string;
  name: string;
  store: string | null;
  created_at: string;
  revoked_at: string | null;
  last_used_at: string | null;
  calls: CallLogEntry[];
}

export interface ControlLead {
  id: number;
  ref: string;
  account: string;
  store: string | null;
  key_id: string;
  external_ref: string | null;
  customer_name: string;
  customer_phone: string;
  city: string | number | null;
  city_id: number | null;
  address: string | null;
  total_client: string | null;
  items: {
    sku: string | null;
    product_id: number | null;
    quantity: number;
    resolved: { product_id: number; variant_id: number | null; sku: string; platform_price: string } | null;
  }[];
  anomalies: Anomaly[];
  corrected_anomalies: Anomaly[];
  damaged: boolean;
  confirmation_status: ConfirmationStatus;
  shipping_status: ShippingStatus;
  tracking_number: string | null;
  seller_profit: string | null;
  created_at: string;
  updated_at: string;
}

export interface ControlConfigPatch {
  rate_limit_per_minute?: number;
  duplicate_window_seconds?: number;
  fault?: Partial<SandboxConfig["fault"]>;
  events?: Partial<SandboxConfig["events"]>;
  autopilot?: boolean;
}

export interface AdvanceInput {
  confirmation_status?: ConfirmationStatus;
  shipping_status?: ShippingStatus;
  tracking_number?: string;
}

export interface CorrectionInput {
  customer_name?: string;
  customer_phone?: string;
  city?: string | number;
  address?: string | null;
  total_client?: string;
  items?: ({ quantity: number; sku: string } | { quantity: number; product_id: number })[];
}

export interface SandboxControl {
  reset(): Promise<{ keys: SandboxKey[] }>;
  createKey(input: { account: string; name: string; store?: string | null }): Promise<SandboxKey>;
  revoke(id: string): Promise<ControlKeyInfo>;
  getKey(id: string): Promise<ControlKeyInfo>;
  config(patch?: ControlConfigPatch): Promise<SandboxConfig>;
  leads(account?: string): Promise<ControlLead[]>;
  advance(ref: string, change: AdvanceInput): Promise<ControlLead>;
  correct(ref: string, patch?: CorrectionInput): Promise<ControlLead>;
  /** moves the sandbox clock forward; answers the new time */
  clock(advanceSeconds?: number): Promise<{ now: string }>;
  events(): Promise<EventDelivery[]>;
}

export function sandboxControl(baseUrl: string, fetchImpl: typeof fetch = fetch): SandboxControl {
  const base = baseUrl.replace(/\/+$/, "") + "/_sandbox";
  async function call<T>(method: string, path: string, body?: unknown): Promise<T> {
    const res = await fetchImpl(base + path, {
      method,
      headers: body === undefined ? {} : { "Content-Type": "application/json" },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await res.text();
    const parsed: unknown = text ? JSON.parse(text) : null;
    if (!res.ok) throw new SandboxControlError(res.status, parsed, `${method} ${path}`);
    return parsed as T;
  }
  const enc = encodeURIComponent;
  return {
    reset: () => call("POST", "/reset"),
    createKey: (input) => call("POST", "/keys", input),
    revoke: (id) => call("POST", `/keys/${enc(id)}/revoke`),
    getKey: (id) => call("GET", `/keys/${enc(id)}`),
    config: (patch) => (patch === undefined ? call("GET", "/config") : call("PUT", "/config", patch)),
    leads: async (account) =>
      (await call<{ leads: ControlLead[] }>("GET", `/leads${account ? `?account=${enc(account)}` : ""}`)).leads,
    advance: (ref, change) => call("POST", `/leads/${enc(ref)}/advance`, change),
    correct: (ref, patch) => call("POST", `/leads/${enc(ref)}/correct`, patch ?? {}),
    clock: (advanceSeconds) =>
      advanceSeconds === undefined
        ? call("GET", "/clock")
        : call("POST", "/clock", { advance_seconds: advanceSeconds }),
    events: async () => (await call<{ deliveries: EventDelivery[] }>("GET", "/events")).deliveries,
  };
}
