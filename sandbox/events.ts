/**
 * Signed outgoing events, one per status change, POSTed to the registered URL.
 * Signature: X-Signature = "sha256=" + hex HMAC-SHA256(secret, X-Timestamp + "." + body).
 * X-Timestamp is real unix time at each attempt (re-signed on retry, so a receiver's
 * freshness window keeps working even when the sandbox clock has been advanced);
 * occurred_at in the body is the sandbox clock. X-Event-Id is stable across retries.
 */
import { createHmac, randomBytes } from "node:crypto";
import type { SandboxConfig } from "./config";
import type { StatusChange } from "./store";

const DELIVERY_LOG_LIMIT = 1000;
const ATTEMPT_TIMEOUT_MS = 5000;

export interface EventPayload {
  event: string;
  ref: string;
  account: string;
  external_ref: string | null;
  confirmation_status: string;
  shipping_status: string;
  occurred_at: string;
}

export interface EventDelivery {
  id: string;
  url: string;
  payload: EventPayload;
  state: "pending" | "delivered" | "failed";
  attempts: number;
  last_status: number | null;
  last_error: string | null;
}

export function signEvent(secret: string, timestamp: string, body: string): string {
  return "sha256=" + createHmac("sha256", secret).update(`${timestamp}.${body}`).digest("hex");
}

/** Delay before attempt n+1 after n failed attempts: base, 2·base, 4·base, … */
export const backoffMs = (baseMs: number, failedAttempts: number) => baseMs * 2 ** (failedAttempts - 1);

export interface EventDispatcher {
  emit(change: StatusChange): void;
  deliveries(): EventDelivery[];
  reset(): void;
  close(): void;
}

export function createEventDispatcher(getConfig: () => SandboxConfig["events"]): EventDispatcher {
  let log: EventDelivery[] = [];
  const timers = new Set<NodeJS.Timeout>();
  const inFlight = new Set<AbortController>();
  let closed = false;
  // Bumped by reset: attempts of an older generation stop instead of retrying.
  let generation = 0;

  async function attempt(
    delivery: EventDelivery,
    secret: string,
    config: SandboxConfig["events"],
    gen: number,
  ): Promise<void> {
    if (closed || gen !== generation) return;
    delivery.attempts++;
    const body = JSON.stringify(delivery.payload);
    const timestamp = String(Math.floor(Date.now() / 1000));
    const controller = new AbortController();
    inFlight.add(controller);
    const timeout = setTimeout(() => controller.abort(), ATTEMPT_TIMEOUT_MS);
    try {
      const res = await fetch(delivery.url, {
        method: "POST",
        headers: {
          "Content-Type": "application/json",
          "X-Event-Id": delivery.id,
          "X-Timestamp": timestamp,
          "X-Signature": signEvent(secret, timestamp, body),
          "X-Api-Version": "1.3",
        },
        body,
        signal: controller.signal,
      });
      await res.arrayBuffer().catch(() => undefined);
      delivery.last_status = res.status;
      delivery.last_error = res.ok ? null : `HTTP ${res.status}`;
      if (res.ok) delivery.state = "delivered";
    } catch (err) {
      delivery.last_error = err instanceof Error ? err.message : String(err);
    } finally {
      clearTimeout(timeout);
      inFlight.delete(controller);
    }
    if (delivery.state === "delivered" || closed || gen !== generation) return;
    if (delivery.attempts >= config.max_attempts) {
      delivery.state = "failed";
      return;
    }
    const timer = setTimeout(
      () => {
        timers.delete(timer);
        void attempt(delivery, secret, config, gen);
      },
      backoffMs(config.retry_base_ms, delivery.attempts),
    );
    timer.unref();
    timers.add(timer);
  }

  const cancelAll = () => {
    for (const t of timers) clearTimeout(t);
    timers.clear();
    for (const c of inFlight) c.abort();
  };

  return {
    emit({ lead, event, occurredAtMs }) {
      const config = getConfig();
      if (closed || !config.url || !config.secret) return; // nobody registered
      const delivery: EventDelivery = {
        id: "evt_" + randomBytes(8).toString("hex"),
        url: config.url,
        payload: {
          event,
          ref: lead.ref,
          account: lead.account,
          external_ref: lead.external_ref,
          confirmation_status: lead.confirmation_status,
          shipping_status: lead.shipping_status,
          occurred_at: new Date(occurredAtMs).toISOString(),
        },
        state: "pending",
        attempts: 0,
        last_status: null,
        last_error: null,
      };
      log.push(delivery);
      if (log.length > DELIVERY_LOG_LIMIT) log = log.slice(-DELIVERY_LOG_LIMIT);
      void attempt(delivery, config.secret, { ...config }, generation);
    },
    deliveries: () => log.map((d) => structuredClone(d)),
    reset() {
      generation++;
      cancelAll();
      log = [];
    },
    close() {
      closed = true;
      cancelAll();
    },
  };
}
