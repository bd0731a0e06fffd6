/**
 * Typed helper for a stand-in's control API (tests, the demo, the benchmark):
 *   const meta = adStandInControl(metaStandIn.url);
 *   await meta.credentials({ id: "1234567890", token: "EAAB..." });
 */
import type { LoggedRequest, StoredEvent } from "./common";

export interface FaultInput {
  kind: "rate_limit" | "server_error" | "invalid_token" | "drop" | "answer_lost" | "slow";
  times?: number | null;
  retryAfterSeconds?: number;
  delayMs?: number;
}

export interface ReceivedEvents {
  events: StoredEvent[];
  duplicates: number;
  requests: LoggedRequest[];
}

export function adStandInControl(baseUrl: string) {
  const call = async <T>(method: string, path: string, body?: unknown): Promise<T> => {
    const res = await fetch(`${baseUrl}/_control${path}`, {
      method,
      headers: body === undefined ? {} : { "content-type": "application/json" },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    if (!res.ok) throw new Error(`stand-in control ${method} ${path} answered ${res.status}: ${await res.text()}`);
    return (await res.json()) as T;
  };
  return {
    reset: () => call<{ ok: true }>("POST", "/reset"),
    credentials: (input: { id: string; token: string; name?: string }) =>
      call<{ ok: true }>("POST", "/credentials", input),
    fault: (input: FaultInput) => call<{ ok: true }>("POST", "/faults", input),
    clearFaults: () => call<{ ok: true }>("DELETE", "/faults"),
    clock: (advanceSeconds: number) => call<{ now: string }>("POST", "/clock", { advance_seconds: advanceSeconds }),
    received: (target?: string) =>
      call<ReceivedEvents>("GET", `/events${target ? `?target=${encodeURIComponent(target)}` : ""}`),
  };
}
export type AdStandInControl = ReturnType<typeof adStandInControl>;
