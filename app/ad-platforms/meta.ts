/**
 * Meta's Conversions API (a Graph API edge): POST /{version}/{dataset id}/events
 * with up to 1,000 server events, each in the shape of the published parameter
 * pages (server event, customer information, custom data); GET /{version}/{dataset id}
 * to check a token on save. The token travels in the Authorization header,
 * never in a URL. Pure: the fetch is injected.
 *
 * Meta refuses a whole request when one event is invalid or older than 7
 * days (the feed checks ages before sending, and isolates a refused event by
 * sending halves, see app/ad-feed). Graph answers errors as
 * { error: { message, type, code, error_subcode, is_transient, error_user_title,
 * error_user_msg, fbtrace_id } }, mostly with HTTP 400 whatever the cause, so
 * the code decides, not the status.
 */
import { rateLimitDelayMs } from "../seller-api/retry-after";
import { cameFromBrowser, type Conversion } from "./conversion";
import { AdAuthError, AdPlatformError, AdRateLimitError, AdRefusedError, AdTransientError } from "./errors";
import { DEFAULT_RETRY, exchange, retryTransient, withoutSecret, type AdClientOptions } from "./transport";

export const META_GRAPH_VERSION = "v25.0";
export const META_DEFAULT_BASE_URL = "https://graph.facebook.com";
/** Events in one request (Meta: "up to 1,000"). */
export const META_MAX_EVENTS = 1000;
/** A dataset (pixel) id: digits. */
export const META_DATASET_ID = /^\d{6,20}$/;

/** Graph codes: the token (190 invalid or expired, 102 session, 10 and 200-299 permissions). */
const AUTH_CODES = new Set([102, 190, 10]);
/** Graph codes: call-rate limits of the app, the user, the page and the ad account. */
const RATE_CODES = new Set([4, 17, 32, 613, 80004]);
/** Graph codes: "unknown error" and "service temporarily unavailable". */
const TRANSIENT_CODES = new Set([1, 2]);

type Listed = [string] | undefined;
const listed = (hash: string | undefined): Listed => (hash ? [hash] : undefined);

/** One server event (Server Event, Customer Information and Custom Data parameters). */
export interface MetaServerEvent {
  event_name: string;
  event_time: number;
  event_id: string;
  action_source: "website" | "other";
  event_source_url?: string;
  user_data: {
    em?: [string];
    ph?: [string];
    fn?: [string];
    ln?: [string];
    ct?: [string];
    country?: [string];
    external_id?: [string];
    client_ip_address?: string;
    client_user_agent?: string;
    fbp?: string;
    fbc?: string;
  };
  custom_data: {
    currency: string;
    value: number;
    content_type: "product";
    contents: { id: string; quantity: number; item_price: number }[];
    num_items: number;
    order_id: string;
  };
}

const dropUndefined = <T extends object>(value: T): T =>
  Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined && v !== null && v !== "")) as T;

/**
 * The conversion as Meta's server event. A website event carries the browser's
 * user agent and the page (Meta requires both for `website`); an order placed
 * without a browser Shopify saw (a form app's API order) is `other`, matched on
 * the hashed customer data alone.
 */
export function toMetaEvent(conversion: Conversion, eventName: string): MetaServerEvent {
  const website = cameFromBrowser(conversion);
  const { customer, clicks, browser } = conversion;
  return dropUndefined({
    event_name: eventName,
    event_time: conversion.eventTime,
    event_id: conversion.eventId,
    action_source: website ? "website" : "other",
    event_source_url: website ? conversion.pageUrl : undefined,
    user_data: dropUndefined({
      em: listed(customer.email),
      ph: listed(customer.phoneDigits),
      fn: listed(customer.firstName),
      ln: listed(customer.lastName),
      ct: listed(customer.city),
      country: listed(customer.country),
      external_id: listed(customer.externalId),
      client_ip_address: website ? (browser.ip ?? undefined) : undefined,
      client_user_agent: website ? (browser.userAgent ?? undefined) : undefined,
      fbp: clicks.fbp ?? undefined,
      fbc: clicks.fbc ?? undefined,
    }),
    custom_data: {
      currency: conversion.currency,
      value: conversion.value,
      content_type: "product",
      contents: conversion.items.map((i) => ({ id: i.id, quantity: i.quantity, item_price: i.price })),
      num_items: conversion.items.reduce((n, i) => n + i.quantity, 0),
      order_id: conversion.orderId,
    },
  });
}

/** Default base URL https://graph.facebook.com. */
export type MetaClientOptions = AdClientOptions;

export interface MetaSendResult {
  eventsReceived: number;
  traceId: string | null;
}

export interface MetaClient {
  /** Sends up to META_MAX_EVENTS events to the dataset. */
  sendEvents(
    datasetId: string,
    token: string,
    events: MetaServerEvent[],
    testEventCode?: string | null,
  ): Promise<MetaSendResult>;
  /** The dataset the token reaches: its id and name, or the error that says why not. */
  verifyDataset(datasetId: string, token: string): Promise<{ id: string; name: string | null }>;
}

export function createMetaClient(options: MetaClientOptions = {}): MetaClient {
  const base = (options.baseUrl ?? META_DEFAULT_BASE_URL).replace(/\/+$/, "");
  const doFetch = options.fetch ?? fetch;
  const timeoutMs = options.timeoutMs ?? 15_000;
  const retry = { ...DEFAULT_RETRY, ...options.retry };
  const now = options.now ?? Date.now;
  const call = (method: "GET" | "POST", path: string, token: string, body?: unknown) =>
    retryTransient(async () => {
      const answer = await exchange({
        platform: "meta",
        fetch: doFetch,
        url: `${base}/${META_GRAPH_VERSION}/${path}`,
        method,
        headers: { authorization: `Bearer ${token}`, ...(body ? { "content-type": "application/json" } : {}) },
        body,
        timeoutMs,
        secret: token,
      });
      if (answer.status >= 200 && answer.status < 300 && !(answer.body as { error?: unknown })?.error) return answer;
      throw metaError(answer.status, answer.headers, answer.body, token, now());
    }, retry);

  return {
    async sendEvents(datasetId, token, events, testEventCode) {
      if (events.length === 0 || events.length > META_MAX_EVENTS)
        throw new RangeError(`a Conversions API request holds 1 to ${META_MAX_EVENTS} events, not ${events.length}`);
      const answer = await call("POST", `${encodeURIComponent(datasetId)}/events`, token, {
        data: events,
        ...(testEventCode ? { test_event_code: testEventCode } : {}),
      });
      const body = answer.body as { events_received?: unknown; fbtrace_id?: unknown };
      if (typeof body?.events_received !== "number")
        throw new AdTransientError({
          platform: "meta",
          status: answer.status,
          message: "the answer has no events_received",
        });
      return {
        eventsReceived: body.events_received,
        traceId: typeof body.fbtrace_id === "string" ? body.fbtrace_id : null,
      };
    },
    async verifyDataset(datasetId, token) {
      const answer = await call("GET", `${encodeURIComponent(datasetId)}?fields=id,name`, token);
      const body = answer.body as { id?: unknown; name?: unknown };
      if (typeof body?.id !== "string" && typeof body?.id !== "number")
        throw new AdRefusedError({ platform: "meta", status: answer.status, message: "the answer names no dataset" });
      return { id: String(body.id), name: typeof body.name === "string" ? body.name : null };
    },
  };
}

interface GraphError {
  message?: unknown;
  type?: unknown;
  code?: unknown;
  error_subcode?: unknown;
  is_transient?: unknown;
  error_user_title?: unknown;
  error_user_msg?: unknown;
  fbtrace_id?: unknown;
}

const num = (v: unknown) => (typeof v === "number" && Number.isFinite(v) ? v : undefined);
const str = (v: unknown) => (typeof v === "string" && v.trim() ? v.trim() : undefined);

/** The error Graph's answer means (see the module comment). */
export function metaError(
  status: number,
  headers: Headers,
  body: unknown,
  token: string,
  nowMs: number,
): AdPlatformError {
  const e = ((body as { error?: GraphError } | null)?.error ?? {}) as GraphError;
  const code = num(e.code);
  const subcode = num(e.error_subcode);
  const title = str(e.error_user_title);
  const detail = str(e.error_user_msg) ?? str(e.message) ?? (typeof body === "string" ? body.slice(0, 200) : undefined);
  const message = withoutSecret([title, detail].filter(Boolean).join(": ") || `HTTP ${status}`, token);
  const init = { platform: "meta" as const, status, code, subcode, message, traceId: str(e.fbtrace_id) ?? null };
  if (status === 401 || (code !== undefined && (AUTH_CODES.has(code) || (code >= 200 && code < 300))))
    return new AdAuthError(init);
  if (status === 429 || (code !== undefined && RATE_CODES.has(code)))
    return new AdRateLimitError({ ...init, retryAfterMs: rateLimitDelayMs(headers, body, nowMs) });
  if (status >= 500 || e.is_transient === true || (code !== undefined && TRANSIENT_CODES.has(code)))
    return new AdTransientError(init);
  return new AdRefusedError(init);
}
