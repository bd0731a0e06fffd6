/**
 * TikTok's Events API 2.0 (Marketing API v1.3): POST /open_api/v1.3/event/track/
 * with `event_source: "web"`, the pixel code as `event_source_id`, and up to
 * 1,000 events in `data` (more and the whole request is refused). The token
 * travels in the Access-Token header. Email and phone are SHA-256 of their
 * normalised forms (the phone in E.164 with its plus); ttclid, ttp, ip and
 * user agent are sent as they are. Answers are { code, message, request_id,
 * data }, code 0 when accepted; most errors come with HTTP 200 and a code, so
 * the code decides. Pure: the fetch is injected.
 */
import { rateLimitDelayMs } from "../seller-api/retry-after";
import { cameFromBrowser, type Conversion } from "./conversion";
import { sha256Hex } from "./hashing";
import { AdAuthError, AdPlatformError, AdRateLimitError, AdRefusedError, AdTransientError } from "./errors";
import { DEFAULT_RETRY, exchange, retryTransient, withoutSecret, type AdClientOptions } from "./transport";

export const TIKTOK_DEFAULT_BASE_URL = "https://business-api.tiktok.com";
export const TIKTOK_TRACK_PATH = "/open_api/v1.3/event/track/";
/** Events in one request (TikTok: at most 1,000). */
export const TIKTOK_MAX_EVENTS = 1000;
/** A pixel code: 20 upper-case letters and digits (a little leeway either side). */
export const TIKTOK_PIXEL_CODE = /^[A-Z0-9]{15,30}$/;

/** Return codes: too many requests. */
const RATE_CODES = new Set([40100]);
/** Return codes: no permission, access token missing, expired or invalid. */
const AUTH_CODES = new Set([40001, 40102, 40104, 40105]);

export interface TikTokEvent {
  event: string;
  event_time: number;
  event_id: string;
  user: {
    email?: [string];
    phone?: [string];
    external_id?: [string];
    ttclid?: string;
    ttp?: string;
    ip?: string;
    user_agent?: string;
  };
  properties: {
    currency: string;
    value: number;
    content_type: "product";
    contents: { content_id: string; content_name?: string; price: number; quantity: number }[];
    order_id: string;
  };
  page: { url: string };
}

const dropEmpty = <T extends object>(value: T): T =>
  Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined && v !== null && v !== "")) as T;

export function toTikTokEvent(conversion: Conversion, eventName: string): TikTokEvent {
  const { customer, clicks, browser } = conversion;
  const fromBrowser = cameFromBrowser(conversion);
  return {
    event: eventName,
    event_time: conversion.eventTime,
    event_id: conversion.eventId,
    user: dropEmpty({
      email: customer.email ? ([customer.email] as [string]) : undefined,
      phone: customer.phoneE164 ? ([customer.phoneE164] as [string]) : undefined,
      external_id: customer.externalId ? ([customer.externalId] as [string]) : undefined,
      ttclid: clicks.ttclid ?? undefined,
      ttp: clicks.ttp ?? undefined,
      ip: fromBrowser ? (browser.ip ?? undefined) : undefined,
      user_agent: fromBrowser ? (browser.userAgent ?? undefined) : undefined,
    }),
    properties: {
      currency: conversion.currency,
      value: conversion.value,
      content_type: "product",
      contents: conversion.items.map((i) =>
        dropEmpty({ content_id: i.id, content_name: i.name ?? undefined, price: i.price, quantity: i.quantity }),
      ),
      order_id: conversion.orderId,
    },
    page: { url: conversion.pageUrl },
  };
}

/** Default base URL https://business-api.tiktok.com. */
export type TikTokClientOptions = AdClientOptions;

export interface TikTokClient {
  sendEvents(
    pixelCode: string,
    token: string,
    events: TikTokEvent[],
    testEventCode?: string | null,
  ): Promise<{ requestId: string | null }>;
  /**
   * TikTok has no read endpoint for an Events API token: one event marked with a
   * test event code (shown only in Events Manager's Test Events) proves the
   * token and the pixel code together.
   */
  verifyPixel(pixelCode: string, token: string, testEventCode: string, pageUrl: string): Promise<void>;
}

/** The test event code used when the merchant gives none. */
export const VERIFY_TEST_EVENT_CODE = "CODLEADSYNC";

export function createTikTokClient(options: TikTokClientOptions = {}): TikTokClient {
  const url = `${(options.baseUrl ?? TIKTOK_DEFAULT_BASE_URL).replace(/\/+$/, "")}${TIKTOK_TRACK_PATH}`;
  const doFetch = options.fetch ?? fetch;
  const timeoutMs = options.timeoutMs ?? 15_000;
  const retry = { ...DEFAULT_RETRY, ...options.retry };
  const now = options.now ?? Date.now;
  const track = (token: string, body: unknown) =>
    retryTransient(async () => {
      const answer = await exchange({
        platform: "tiktok",
        fetch: doFetch,
        url,
        method: "POST",
        headers: { "access-token": token, "content-type": "application/json" },
        body,
        timeoutMs,
        secret: token,
      });
      const parsed = answer.body as { code?: unknown; request_id?: unknown } | null;
      if (answer.status >= 200 && answer.status < 300 && parsed?.code === 0)
        return { requestId: typeof parsed.request_id === "string" ? parsed.request_id : null };
      throw tiktokError(answer.status, answer.headers, answer.body, token, now());
    }, retry);

  return {
    sendEvents(pixelCode, token, events, testEventCode) {
      if (events.length === 0 || events.length > TIKTOK_MAX_EVENTS)
        throw new RangeError(`an Events API request holds 1 to ${TIKTOK_MAX_EVENTS} events, not ${events.length}`);
      return track(token, {
        event_source: "web",
        event_source_id: pixelCode,
        ...(testEventCode ? { test_event_code: testEventCode } : {}),
        data: events,
      });
    },
    async verifyPixel(pixelCode, token, testEventCode, pageUrl) {
      const at = Math.floor(now() / 1000);
      await track(token, {
        event_source: "web",
        event_source_id: pixelCode,
        test_event_code: testEventCode,
        data: [
          {
            event: "CODFeedCheck",
            event_time: at,
            event_id: `cod-feed-check-${at}`,
            user: { external_id: [sha256Hex(`cod-feed-check:${pixelCode}`)] },
            page: { url: pageUrl },
          },
        ],
      });
    },
  };
}

/** The error TikTok's answer means (see the module comment). */
export function tiktokError(
  status: number,
  headers: Headers,
  body: unknown,
  token: string,
  nowMs: number,
): AdPlatformError {
  const parsed = (body && typeof body === "object" ? body : {}) as {
    code?: unknown;
    message?: unknown;
    request_id?: unknown;
  };
  const code = typeof parsed.code === "number" ? parsed.code : undefined;
  const text =
    (typeof parsed.message === "string" && parsed.message.trim()) ||
    (typeof body === "string" ? body.slice(0, 200) : "") ||
    `HTTP ${status}`;
  const init = {
    platform: "tiktok" as const,
    status,
    code,
    message: withoutSecret(text, token),
    traceId: typeof parsed.request_id === "string" ? parsed.request_id : null,
  };
  if (status === 401 || (code !== undefined && AUTH_CODES.has(code))) return new AdAuthError(init);
  if (status === 429 || (code !== undefined && RATE_CODES.has(code)))
    return new AdRateLimitError({ ...init, retryAfterMs: rateLimitDelayMs(headers, body, nowMs) });
  if (status >= 500 || (code !== undefined && code >= 50000)) return new AdTransientError(init);
  if (status >= 200 && status < 300 && code === undefined)
    return new AdTransientError({ ...init, message: "the answer has no code" });
  return new AdRefusedError(init);
}
