/**
 * Errors of the Seller Order API client, in the style of openai-node: one base class
 * carrying what an incident report needs, one subclass per status family, one factory.
 *
 * Every constructor runs its text through the redactor it is given, so no message,
 * stack or property can carry the API key, even when the server echoes it.
 */
import type { Redactor } from "./redact";

export interface ErrorInit {
  message: string;
  status?: number;
  code?: string;
  method?: string;
  path?: string;
  /** Exact time the HTTP attempt started (for a 500, the platform asks for it). */
  requestTime: Date;
  apiVersion?: string | null;
  requestId?: string | null;
  /** The response body, for logs. */
  body?: unknown;
  cause?: unknown;
  redactor?: Redactor;
}

const noRedaction: Redactor = { text: (s) => s, deep: (v) => v };
const optional = (r: Redactor, s: string | null | undefined) => (s == null ? s : r.text(s));

export class SellerApiError extends Error {
  readonly status: number | undefined;
  readonly code: string | undefined;
  readonly method: string | undefined;
  readonly path: string | undefined;
  readonly requestTime: Date;
  readonly apiVersion: string | null;
  readonly requestId: string | null;
  readonly body: unknown;
  /** True when the same call may succeed later unchanged (5xx, 429, network). */
  readonly retriable: boolean = false;

  constructor(init: ErrorInit) {
    const r = init.redactor ?? noRedaction;
    super(r.text(init.message), init.cause === undefined ? undefined : { cause: init.cause });
    this.name = new.target.name;
    this.status = init.status;
    this.code = optional(r, init.code) ?? undefined;
    this.method = init.method;
    this.path = optional(r, init.path) ?? undefined;
    this.requestTime = init.requestTime;
    this.apiVersion = optional(r, init.apiVersion) ?? null;
    this.requestId = optional(r, init.requestId) ?? null;
    this.body = r.deep(init.body);
  }
}

/** 400: the platform could not read the body (not JSON). */
export class BadRequestError extends SellerApiError {}

/** 401: key missing, invalid or revoked. A revoked key never becomes valid again. */
export class AuthenticationError extends SellerApiError {}

/** 404: no such resource, or one belonging to another seller (indistinguishable). */
export class NotFoundError extends SellerApiError {}

/** 422: a field is missing or invalid; `field` names it when the platform does. */
export class UnprocessableEntityError extends SellerApiError {
  readonly field: string | undefined;
  constructor(init: ErrorInit & { field?: string }) {
    super(init);
    this.field = optional(init.redactor ?? noRedaction, init.field) ?? undefined;
  }
}

/** 429: thrown only when the client gave up waiting (too long or too many waits). */
export class RateLimitError extends SellerApiError {
  override readonly retriable = true;
  readonly retryAfterMs: number;
  constructor(init: ErrorInit & { retryAfterMs: number }) {
    super(init);
    this.retryAfterMs = init.retryAfterMs;
  }
}

/** 5xx: incident on the platform; report it with `requestTime`. */
export class InternalServerError extends SellerApiError {
  override readonly retriable = true;
}

/** No HTTP answer. `reason` is the network error code (ECONNREFUSED, ECONNRESET, ...). */
export class ConnectionError extends SellerApiError {
  override readonly retriable: boolean = true;
  readonly reason: string;
  constructor(init: ErrorInit & { reason: string }) {
    super(init);
    this.reason = (init.redactor ?? noRedaction).text(init.reason);
  }
}

/** No complete answer within `timeoutMs`. */
export class TimeoutError extends ConnectionError {}

export type OutcomeUnknownReason = "timeout" | "connection" | "unreadable_response";

/**
 * POST /v1/leads failed after the request may have reached the platform: the lead may
 * or may not exist. Not retriable blindly; reconcile (e.g. by external_ref) first.
 */
export class OutcomeUnknownError extends SellerApiError {
  readonly reason: OutcomeUnknownReason;
  constructor(init: ErrorInit & { reason: OutcomeUnknownReason }) {
    super(init);
    this.reason = init.reason;
  }
}

/** The platform answers with a major version this client was not written for. */
export class UnsupportedApiVersionError extends SellerApiError {}

/** A 2xx answer whose body does not have the shape the contract states. */
export class UnexpectedResponseError extends SellerApiError {
  /** Paths and reasons of what did not match, never the offending values. */
  readonly issues: string[];
  constructor(init: ErrorInit & { issues?: string[] }) {
    super(init);
    this.issues = (init.issues ?? []).map((issue) => (init.redactor ?? noRedaction).text(issue));
  }
}

/** A request refused before sending: costs no call, names the field. */
export class InvalidInputError extends SellerApiError {
  readonly field: string;
  constructor(init: ErrorInit & { field: string }) {
    super(init);
    this.field = (init.redactor ?? noRedaction).text(init.field);
  }
}

/** The lead body failed `checkLeadInput`; nothing was sent. */
export class InvalidLeadInputError extends InvalidInputError {}

export interface ErrorDetails {
  code?: string;
  message?: string;
  field?: string;
}

/** What an HTTP answer tells every error about it (the transport's ApiResponse has these fields). */
export interface Answer {
  status: number;
  method: string;
  path: string;
  requestTime: Date;
  apiVersion: string | null;
  requestId?: string | null;
  body: unknown;
}

/** An error's fields read from the answer it is about, so no caller copies them one by one. */
export function fromAnswer(
  res: Answer,
  redactor: Redactor,
  what: { message: string; code: string | undefined },
): ErrorInit {
  return {
    ...what,
    status: res.status,
    method: res.method,
    path: res.path,
    requestTime: res.requestTime,
    apiVersion: res.apiVersion,
    requestId: res.requestId,
    body: res.body,
    redactor,
  };
}

const MAX_SERVER_MESSAGE = 300;

export interface ResponseErrorInit extends Answer {
  details: ErrorDetails;
  retryAfterMs?: number;
  redactor: Redactor;
}

/** The one status -> class factory, for an answer outside 2xx. */
export function errorFromResponse(init: ResponseErrorInit): SellerApiError {
  const { details, redactor, retryAfterMs, ...res } = init;
  const { status } = res;
  const serverMessage = details.message?.slice(0, MAX_SERVER_MESSAGE);
  const message =
    `${res.method} ${res.path} answered ${status}` +
    (details.code ? ` ${details.code}` : "") +
    (serverMessage ? `: ${serverMessage}` : "") +
    (details.field ? ` (field ${details.field})` : "");
  const base = fromAnswer(res, redactor, { message, code: details.code });
  if (status === 400) return new BadRequestError(base);
  if (status === 401) return new AuthenticationError(base);
  if (status === 404) return new NotFoundError(base);
  if (status === 422) return new UnprocessableEntityError({ ...base, field: details.field });
  if (status === 429) return new RateLimitError({ ...base, retryAfterMs: retryAfterMs ?? 0 });
  if (status >= 500) return new InternalServerError(base);
  return new SellerApiError(base);
}

/** The key's shared limiter has no free slot soon enough: the job comes back at untilMs instead of waiting. */
export class RateLimitWaitError extends Error {
  constructor(readonly untilMs: number) {
    super(`rate limit: the next call for this key may start at ${new Date(untilMs).toISOString()}`);
    this.name = "RateLimitWaitError";
  }
}
