/**
 * What the two stand-ins share: the credentials they accept, the events they
 * keep (deduplicated as the platforms do: the same event name and event_id for
 * the same dataset or pixel within 48 hours counts once), the request log,
 * injected faults, a clock that tests can move, and the server's start and stop.
 */
import { serve } from "@hono/node-server";
import type { Server } from "node:http";
import type { AddressInfo } from "node:net";
import type { HttpBindings } from "@hono/node-server";
import type { Context } from "hono";
import { z } from "zod";

/** Both platforms deduplicate an event seen again within 48 hours. */
export const DEDUP_WINDOW_MS = 48 * 3600_000;
/** Meta's rule (and the stand-ins' for both): an event_time more than 7 days old refuses the request. */
export const MAX_EVENT_AGE_S = 7 * 24 * 3600;
/** Meta refuses an event_time too far in the future (the stand-ins: more than 10 minutes ahead). */
export const MAX_FUTURE_S = 600;

export interface Credential {
  /** The dataset id (Meta) or pixel code (TikTok) the token may send to. */
  id: string;
  token: string;
  name: string;
}

export interface StoredEvent {
  /** Dataset id or pixel code. */
  target: string;
  eventName: string;
  eventId: string;
  eventTime: number;
  receivedAt: string;
  /** Sent with a test event code: shown apart, never counted. */
  test: boolean;
  /** The event as received. */
  body: Record<string, unknown>;
}

export interface LoggedRequest {
  at: string;
  path: string;
  status: number;
  /** Events in the request (0 for reads). */
  events: number;
  /** accepted, or the error code the stand-in answered. */
  outcome: string;
}

/**
 * `drop` cuts the connection before the request is read; `answer_lost` takes the request as usual (its events
 * kept) and then cuts the connection: the caller never learns it was accepted, as when it dies mid-request.
 */
export const FAULT_KINDS = ["rate_limit", "server_error", "invalid_token", "drop", "answer_lost", "slow"] as const;
export const faultSchema = z
  .object({
    kind: z.enum(FAULT_KINDS),
    /** Requests the fault answers (null: until cleared). */
    times: z.number().int().positive().nullable().optional(),
    /** rate_limit: the Retry-After it states, in seconds. */
    retryAfterSeconds: z.number().int().nonnegative().optional(),
    /** slow: how long the answer waits. */
    delayMs: z.number().int().nonnegative().max(120_000).optional(),
  })
  .strict();
export type Fault = z.infer<typeof faultSchema> & { remaining: number | null; hits: number };

export class StandInState {
  credentials: Credential[] = [];
  events: StoredEvent[] = [];
  requests: LoggedRequest[] = [];
  /** Events received again within the window and not kept a second time. */
  duplicates = 0;
  faults: Fault[] = [];
  offsetMs = 0;
  private seen = new Map<string, number>();

  now(): number {
    return Date.now() + this.offsetMs;
  }

  reset(): void {
    this.credentials = [];
    this.events = [];
    this.requests = [];
    this.duplicates = 0;
    this.faults = [];
    this.offsetMs = 0;
    this.seen.clear();
  }

  credential(token: string | null | undefined): Credential[] {
    return token ? this.credentials.filter((c) => c.token === token) : [];
  }

  /** Keeps the event unless the same one came within the window; true when kept. */
  keep(event: Omit<StoredEvent, "receivedAt">): boolean {
    const key = `${event.test ? "test:" : ""}${event.target}\u0000${event.eventName}\u0000${event.eventId}`;
    const now = this.now();
    const before = this.seen.get(key);
    if (before !== undefined && now - before < DEDUP_WINDOW_MS) {
      this.duplicates++;
      return false;
    }
    this.seen.set(key, now);
    this.events.push({ ...event, receivedAt: new Date(now).toISOString() });
    return true;
  }

  log(entry: Omit<LoggedRequest, "at">): void {
    this.requests.push({ at: new Date(this.now()).toISOString(), ...entry });
    if (this.requests.length > 50_000) this.requests.splice(0, 10_000);
  }

  /** The first fault that answers this request (consumed), with the delays of `slow` ones. */
  takeFault(): { fault: Fault | null; delayMs: number } {
    let delayMs = 0;
    let answer: Fault | null = null;
    for (const fault of this.faults) {
      if (fault.remaining === 0) continue;
      if (fault.kind === "slow") delayMs += fault.delayMs ?? 2000;
      else if (answer) continue;
      else answer = fault;
      fault.hits++;
      if (fault.remaining !== null) fault.remaining--;
    }
    this.faults = this.faults.filter((f) => f.remaining !== 0);
    return { fault: answer, delayMs };
  }
}

export function isLoopback(address: string | undefined): boolean {
  return !!address && (address === "::1" || address.startsWith("127.") || address.startsWith("::ffff:127."));
}

/** A path into the request body, as the platforms name fields in their messages: data[3].user_data.em[0]. */
export function fieldPath(path: (string | number)[]): string {
  return path.reduce<string>(
    (out, part) => (typeof part === "number" ? `${out}[${part}]` : out ? `${out}.${part}` : part),
    "",
  );
}

export interface RunningStandIn {
  url: string;
  state: StandInState;
  close(): Promise<void>;
}

export async function listen(
  app: { fetch: Parameters<typeof serve>[0]["fetch"] },
  state: StandInState,
  port: number,
  host: string,
): Promise<RunningStandIn> {
  const server = await new Promise<Server>((resolve, reject) => {
    const s = serve({ fetch: app.fetch, port, hostname: host }, () => resolve(s as Server)) as Server;
    s.once("error", reject);
  });
  server.keepAliveTimeout = 5000;
  const address = server.address() as AddressInfo;
  let closing: Promise<void> | undefined;
  return {
    url: `http://${host.includes(":") ? `[${host}]` : host}:${address.port}`,
    state,
    close() {
      closing ??= new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
      return closing;
    },
  };
}

/** Marks a request taken with its answer to be lost (the `answer_lost` fault). */
export const ANSWER_LOST = Symbol("answer lost");

/** The connection cut with no answer: the caller sees a reset socket. */
export function lostAnswer(c: Context<{ Bindings: HttpBindings }>): Response {
  c.env.incoming.socket.destroy();
  return c.body(null, 500);
}
