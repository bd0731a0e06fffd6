/**
 * One logical call to the platform, as many HTTP attempts as it takes: pacing through
 * the rate limiter, timeouts, retries with capped exponential backoff and full jitter,
 * waiting out 429s, the version check, one `onCall` record per attempt, typed errors.
 */
import { isUnsupportedVersion, readApiVersion, SUPPORTED_MAJOR_VERSION } from "./api-version";
import {
  ConnectionError,
  errorFromResponse,
  OutcomeUnknownError,
  TimeoutError,
  UnsupportedApiVersionError,
  type ErrorInit,
} from "./errors";
import { classifyNetworkError, type NetworkFailure } from "./network-errors";
import type { RateLimiter } from "./rate-limiter";
import type { Redactor } from "./redact";
import { readErrorDetails } from "./response-shapes";
import { MAX_RESPONSE_BYTES, readCappedText, ResponseTooLargeError } from "./read-capped";
import { jsonDepthExceeds } from "../http/json-depth";
import { rateLimitDelayMs, statedRetryAfterMs } from "./retry-after";

export type HttpMethod = "GET" | "POST";

/** One HTTP attempt, for the activity log. Never holds the key. */
export interface CallRecord {
  method: HttpMethod;
  /** Path with query string, e.g. "/v1/leads?limit=100". */
  path: string;
  /** null when no answer came (network error or timeout). */
  status: number | null;
  durationMs: number;
  /** When the attempt started. */
  at: Date;
  apiVersion: string | null;
  /** 1 for the first HTTP attempt of a call, 2 for the next (whatever caused it), ... */
  attempt: number;
  /** Without a status: "timeout" or the network error code. */
  error?: string;
}

export interface RetryOptions {
  /** Attempts allowed for 5xx / network failures, the first included (429 waits do not count). */
  maxAttempts?: number;
  baseDelayMs?: number;
  maxDelayMs?: number;
  /** 429 waits in one call before giving up with RateLimitError. */
  maxRateLimitWaits?: number;
  /** A 429 asking for a longer wait than this is thrown at once (RateLimitError.retryAfterMs). */
  maxRateLimitWaitMs?: number;
}

export const DEFAULT_RETRY: Required<RetryOptions> = {
  maxAttempts: 3,
  baseDelayMs: 500,
  maxDelayMs: 10_000,
  maxRateLimitWaits: 5,
  maxRateLimitWaitMs: 120_000,
};

export interface TransportConfig {
  baseUrl: string;
  apiKey: string;
  fetch: typeof globalThis.fetch;
  timeoutMs: number;
  retry: Required<RetryOptions>;
  limiter: RateLimiter;
  /** Non-secret identifier of the key for the limiter. */
  limiterKey: string;
  redactor: Redactor;
  now: () => number;
  sleep: (ms: number) => Promise<void>;
  random: () => number;
  onCall?: (record: CallRecord) => void | Promise<void>;
  /** The rate to pace the next attempt at (may refresh it first); undefined when unknown. */
  rateFor: (request: ApiRequest) => Promise<number | undefined>;
  /** Told of every 429, so the rate is re-read before the next call. */
  onRateLimited: () => void;
  /** Longest answer read (MAX_RESPONSE_BYTES by default); past it the call fails with reason "response_too_large". */
  maxResponseBytes?: number;
}

export interface ApiRequest {
  method: HttpMethod;
  path: string;
  query?: Record<string, string | number | undefined>;
  body?: unknown;
  /** False for GET /v1/me, which is how the rate gets refreshed. */
  refreshRate?: boolean;
}

export interface ApiResponse {
  status: number;
  headers: Headers;
  /** Parsed JSON (or the text when not JSON), with the key scrubbed out. */
  body: unknown;
  apiVersion: string | null;
  requestId: string | null;
  requestTime: Date;
  method: HttpMethod;
  path: string;
}

type AttemptResult =
  | { kind: "answer"; response: ApiResponse }
  | { kind: "failure"; failure: NetworkFailure; requestTime: Date; status: number | null; cause: Error };

export interface Transport {
  send(request: ApiRequest): Promise<ApiResponse>;
  /** Records the version a caller read from a body (GET /v1/me) and throws when unsupported. */
  checkVersion(version: string | null, context: ApiResponse): void;
}

export function createTransport(config: TransportConfig): Transport {
  const { redactor, now, sleep, retry } = config;
  const base = config.baseUrl.replace(/\/+$/, "");
  /** Last unsupported version seen; new POSTs are refused until a GET sees a supported one. */
  let unsupportedVersion: string | null = null;

  const unsupported = (version: string, ctx: Pick<ErrorInit, "method" | "path" | "requestTime">) =>
    new UnsupportedApiVersionError({
      ...ctx,
      message: `The Seller Order API answered with version ${version}; this client speaks major version ${SUPPORTED_MAJOR_VERSION} only`,
      code: "unsupported_api_version",
      apiVersion: version,
      redactor,
    });

  function checkVersion(version: string | null, res: ApiResponse): void {
    if (!isUnsupportedVersion(version)) {
      if (version !== null && res.method === "GET") unsupportedVersion = null;
      return;
    }
    unsupportedVersion = version;
    // A POST answer is still read: the lead may exist, and dropping it would invite a duplicate.
    if (res.method === "GET") throw unsupported(version as string, res);
  }

  function report(record: CallRecord): void {
    // Stryker disable next-line ConditionalExpression: equivalent, calling an absent onCall throws inside the try below, which ignores it
    if (!config.onCall) return;
    try {
      const pending = config.onCall(record);
      // Stryker disable next-line ConditionalExpression: equivalent, .catch on a value that is no promise throws inside the try, which ignores it
      if (pending instanceof Promise) pending.catch(() => undefined);
    } catch {
      // The activity log must never break a call.
    }
  }

  function backoffMs(failures: number, stated?: number): number {
    if (stated !== undefined) return Math.min(stated, retry.maxRateLimitWaitMs);
    const ceiling = Math.min(retry.maxDelayMs, retry.baseDelayMs * 2 ** (failures - 1));
    return Math.floor(config.random() * ceiling);
  }

  async function attemptOnce(request: ApiRequest, url: string, path: string, attempt: number): Promise<AttemptResult> {
    const started = now();
    const requestTime = new Date(started);
    const controller = new AbortController();
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      controller.abort();
    }, config.timeoutMs);
    let status: number | null = null;
    let apiVersion: string | null = null;
    try {
      const init: RequestInit = {
        method: request.method,
        headers: {
          Authorization: `Bearer ${config.apiKey}`,
          Accept: "application/json",
          ...(request.body === undefined ? {} : { "Content-Type": "application/json" }),
        },
        // Stryker disable next-line ConditionalExpression: equivalent, JSON.stringify(undefined) is undefined
        body: request.body === undefined ? undefined : JSON.stringify(request.body),
        signal: controller.signal,
        // Never follow a redirect with the key attached.
        redirect: "error",
      };
      const res = await abortable(config.fetch(url, init), controller.signal);
      status = res.status;
      apiVersion = readApiVersion(res.headers);
      // Capped, and inside the timeout: a huge or trickling body fails like a dropped connection.
      const text = await abortable(
        readCappedText(res, config.maxResponseBytes ?? MAX_RESPONSE_BYTES, controller.signal),
        controller.signal,
      );
      const response: ApiResponse = {
        status,
        headers: res.headers,
        body: redactor.deep(parseBody(text)),
        apiVersion: apiVersion === null ? null : redactor.text(apiVersion),
        requestId: redactor.text(res.headers.get("x-request-id") ?? res.headers.get("request-id") ?? "") || null,
        requestTime,
        method: request.method,
        path,
      };
      report({
        method: request.method,
        path,
        status,
        durationMs: now() - started,
        at: requestTime,
        apiVersion: response.apiVersion,
        attempt,
      });
      // Stryker disable next-line StringLiteral: equivalent, the caller only tests for "failure"
      return { kind: "answer", response };
    } catch (error) {
      // The code comes from whatever was thrown: scrub it like server text.
      const classified = classifyNetworkError(error, timedOut);
      const failure = { ...classified, reason: redactor.text(classified.reason) };
      const safeVersion = apiVersion === null ? null : redactor.text(apiVersion);
      report({
        method: request.method,
        path,
        status,
        durationMs: now() - started,
        at: requestTime,
        apiVersion: safeVersion,
        attempt,
        error: failure.reason,
      });
      return { kind: "failure", failure, requestTime, status, cause: sanitizedCause(error, failure, redactor) };
    } finally {
      // Stryker disable next-line CallExpression: equivalent, a timer left running aborts a request already finished
      clearTimeout(timer);
    }
  }

  async function send(request: ApiRequest): Promise<ApiResponse> {
    const query = queryString(request.query);
    const path = redactor.text(request.path + query);
    const url = base + request.path + query;
    if (request.method === "POST" && unsupportedVersion !== null) {
      throw unsupported(unsupportedVersion, { method: request.method, path, requestTime: new Date(now()) });
    }
    let attempt = 0;
    let failures = 0;
    let rateLimitWaits = 0;
    for (;;) {
      attempt++;
      const rate = await config.rateFor(request);
      if (rate !== undefined) await config.limiter.acquire(config.limiterKey, rate);
      const result = await attemptOnce(request, url, path, attempt);

      if (result.kind === "failure") {
        const { failure, requestTime, status, cause } = result;
        const ctx = { method: request.method, path, requestTime, status: status ?? undefined, cause, redactor };
        const tooLarge = failure.reason === TOO_LARGE;
        const what = failure.timedOut
          ? `no answer within ${config.timeoutMs} ms`
          : tooLarge
            ? `answer longer than ${config.maxResponseBytes ?? MAX_RESPONSE_BYTES} bytes, not read`
            : `connection failed (${failure.reason})`;
        if (request.method === "POST" && !failure.nothingSent) {
          throw new OutcomeUnknownError({
            ...ctx,
            reason: failure.timedOut ? "timeout" : tooLarge ? "unreadable_response" : "connection",
            code: "outcome_unknown",
            message: `${request.method} ${path}: ${what} after the request may have reached the platform; not re-sent`,
          });
        }
        // The same server would send the same oversized answer again: not retried.
        if (tooLarge)
          throw new ConnectionError({
            ...ctx,
            reason: TOO_LARGE,
            code: TOO_LARGE,
            message: `${request.method} ${path}: ${what}`,
          });
        failures++;
        if (failures < retry.maxAttempts) {
          await sleep(backoffMs(failures));
          continue;
        }
        const init = {
          ...ctx,
          reason: failure.reason,
          message: `${request.method} ${path}: ${what} (attempt ${attempt})`,
        };
        throw failure.timedOut
          ? new TimeoutError({ ...init, code: "timeout" })
          : new ConnectionError({ ...init, code: "connection_error" });
      }

      const res = result.response;
      checkVersion(res.apiVersion, res);
      if (res.status >= 200 && res.status < 300) return res;

      if (res.status === 429) {
        const delay = rateLimitDelayMs(res.headers, res.body, now());
        config.onRateLimited();
        await config.limiter.penalize(config.limiterKey, now() + delay);
        rateLimitWaits++;
        if (rateLimitWaits > retry.maxRateLimitWaits || delay > retry.maxRateLimitWaitMs) throw toError(res, delay);
        await sleep(delay);
        continue;
      }

      if (res.status >= 500 && request.method === "GET") {
        failures++;
        if (failures < retry.maxAttempts) {
          await sleep(backoffMs(failures, statedRetryAfterMs(res.headers, res.body, now())));
          continue;
        }
      }
      throw toError(res);
    }
  }

  function toError(res: ApiResponse, retryAfterMs?: number) {
    return errorFromResponse({ ...res, details: readErrorDetails(res.body), retryAfterMs, redactor });
  }

  return { send, checkVersion };
}

/** Settles on abort even if an injected fetch ignores its signal. */
function abortable<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(Object.assign(new Error("aborted"), { name: "AbortError" }));
    // Stryker disable next-line ConditionalExpression: equivalent, only the body read can start after the timer fired, and readCappedText checks the signal too
    if (signal.aborted) return onAbort();
    // Stryker disable next-line ObjectLiteral,BooleanLiteral: equivalent, a signal aborts once
    signal.addEventListener("abort", onAbort, { once: true });
    // Stryker disable next-line ArrowFunction,StringLiteral: equivalent, a late abort rejects a promise already settled; removing the listener frees it early
    promise.then(resolve, reject).finally(() => signal.removeEventListener("abort", onAbort));
  });
}

/** The code ResponseTooLargeError carries, as classifyNetworkError reports it. */
const TOO_LARGE = new ResponseTooLargeError(0).code;

function parseBody(text: string): unknown {
  if (text.trim() === "") return null;
  // Redaction walks the parsed value recursively: nothing deeper than a real answer is parsed.
  if (jsonDepthExceeds(text)) return text;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

function queryString(query: ApiRequest["query"]): string {
  if (!query) return "";
  const params = new URLSearchParams();
  for (const [k, v] of Object.entries(query)) if (v !== undefined) params.set(k, String(v));
  const s = params.toString();
  // Stryker disable next-line StringLiteral: unreachable from the client, every query it sends holds a limit
  return s ? `?${s}` : "";
}

/** A stand-in for the fetch error that keeps its name, message and code, key scrubbed. */
function sanitizedCause(error: unknown, failure: NetworkFailure, redactor: Redactor): Error {
  const original = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
  return Object.assign(new Error(redactor.text(original)), { code: failure.reason });
}
