/**
 * One HTTP exchange with an ad platform: a time limit, an answer read with a
 * size cap, JSON parsed when it is JSON, and every failure to get an answer
 * turned into AdTransientError. The access token is cut out of every message
 * (a platform may echo it). A retry helper for transient failures: each
 * conversion carries its event_id, so sending it again is safe (the platform
 * keeps the first).
 */
import { readCappedText } from "../seller-api/read-capped";
import { classifyNetworkError } from "../seller-api/network-errors";
import type { AdPlatform } from "./conversion";
import { AdTransientError } from "./errors";

/** An events answer is a few hundred bytes; a Graph error a few kilobytes. */
const MAX_ANSWER_BYTES = 256 * 1024;

export interface Exchange {
  status: number;
  headers: Headers;
  /** The parsed body, or the text when it is not JSON. */
  body: unknown;
}

export interface ExchangeInput {
  platform: AdPlatform;
  fetch: typeof fetch;
  url: string;
  method: "GET" | "POST";
  headers: Record<string, string>;
  body?: unknown;
  timeoutMs: number;
  /** Never to appear in a message. */
  secret: string;
}

/** The text with the secret cut out (and anything that looks like a bearer token after it). */
export function withoutSecret(text: string, secret: string): string {
  const cut = secret.length >= 4 ? text.split(secret).join("[token]") : text;
  return cut.replace(/(bearer|access[-_]token[=:"\s]+)\s*[A-Za-z0-9._~+/-]{12,}/gi, "$1 [token]");
}

export async function exchange(input: ExchangeInput): Promise<Exchange> {
  const signal = AbortSignal.timeout(input.timeoutMs);
  let response: Response;
  try {
    response = await input.fetch(input.url, {
      method: input.method,
      headers: { accept: "application/json", ...input.headers },
      body: input.body === undefined ? undefined : JSON.stringify(input.body),
      signal,
    });
  } catch (error) {
    throw noAnswer(input, error, signal.aborted);
  }
  let text: string;
  try {
    text = await readCappedText(response, MAX_ANSWER_BYTES, signal);
  } catch (error) {
    throw noAnswer(input, error, signal.aborted);
  }
  let body: unknown = text;
  try {
    body = text ? JSON.parse(text) : null;
  } catch {
    // Not JSON (a proxy's HTML page): kept as text for the message.
  }
  return { status: response.status, headers: response.headers, body };
}

function noAnswer(input: ExchangeInput, error: unknown, timedOut: boolean): AdTransientError {
  const failure = classifyNetworkError(error, timedOut);
  const what = failure.timedOut ? `no answer within ${input.timeoutMs} ms` : `no answer (${failure.reason})`;
  return new AdTransientError({
    platform: input.platform,
    message: withoutSecret(`${input.method} ${new URL(input.url).pathname}: ${what}`, input.secret),
  });
}

/** How a platform client reaches its API: the base URL (the stand-in's in tests and the demo), fetch, timeout, retries. */
export interface AdClientOptions {
  baseUrl?: string;
  fetch?: typeof fetch;
  timeoutMs?: number;
  retry?: Partial<RetryPolicy>;
  now?: () => number;
}

export interface RetryPolicy {
  /** Attempts in all for a transient failure (the job's queue retries after these, with its own backoff). */
  attempts: number;
  baseDelayMs: number;
  sleep: (ms: number) => Promise<void>;
  random: () => number;
}

export const DEFAULT_RETRY: RetryPolicy = {
  attempts: 2,
  baseDelayMs: 500,
  sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
  random: Math.random,
};

/** Runs `call`, again after a jittered, doubling delay while it fails with AdTransientError. */
export async function retryTransient<T>(call: () => Promise<T>, policy: RetryPolicy): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await call();
    } catch (error) {
      if (!(error instanceof AdTransientError) || attempt >= policy.attempts) throw error;
      await policy.sleep(Math.floor(policy.random() * policy.baseDelayMs * 2 ** (attempt - 1)));
    }
  }
}
