/**
 * How long a 429 (or a 503) asks us to wait, in every form a platform may state it.
 * The contract leaves the carrier open, so this reads, in order of precedence:
 *   headers  `Retry-After-Ms: 1500`, `Retry-After: 30` | `Retry-After: <HTTP-date>`
 *   body     `retry_after_ms`, `retry_after` (seconds), `retry_at` (date), at the top,
 *            under `error`, or in `errors[0]`
 *   headers  `RateLimit-Reset` / `X-RateLimit-Reset-After` (seconds), `X-RateLimit-Reset`
 *            (seconds, or an epoch time in seconds or milliseconds)
 * Pure: the caller passes the current time.
 */

export type HeaderBag = Headers | Record<string, string | undefined>;

const MINUTE_MS = 60_000;

/** The stated delay in ms, or undefined when the answer states none. */
export function statedRetryAfterMs(headers: HeaderBag, body: unknown, nowMs: number): number | undefined {
  const header = (name: string) => readHeader(headers, name);
  return (
    msValue(header("retry-after-ms")) ??
    delayFromText(header("retry-after"), nowMs) ??
    fromBody(body, nowMs) ??
    secondsValue(header("ratelimit-reset")) ??
    secondsValue(header("x-ratelimit-reset-after")) ??
    resetHeader(header("x-ratelimit-reset"), nowMs)
  );
}

/** The wait when nothing is stated: until the start of the next minute (never 0). */
export function untilNextMinuteMs(nowMs: number): number {
  return MINUTE_MS - (((nowMs % MINUTE_MS) + MINUTE_MS) % MINUTE_MS);
}

/** What a 429 makes us wait: the stated delay, or until the next minute. */
export function rateLimitDelayMs(headers: HeaderBag, body: unknown, nowMs: number): number {
  return statedRetryAfterMs(headers, body, nowMs) ?? untilNextMinuteMs(nowMs);
}

function readHeader(headers: HeaderBag, name: string): string | undefined {
  if (typeof (headers as Headers).get === "function") return (headers as Headers).get(name) ?? undefined;
  const bag = headers as Record<string, string | undefined>;
  const key = Object.keys(bag).find((k) => k.toLowerCase() === name);
  return key === undefined ? undefined : bag[key];
}

const NUMBER = /^\s*(\d+(?:\.\d+)?)\s*(ms|s)?\s*$/i;

function toNumber(value: unknown): { n: number; unit?: string } | undefined {
  if (typeof value === "number") return Number.isFinite(value) && value >= 0 ? { n: value } : undefined;
  if (typeof value !== "string") return undefined;
  const m = NUMBER.exec(value);
  return m ? { n: Number(m[1]), unit: m[2]?.toLowerCase() } : undefined;
}

const ceil = (ms: number) => Math.max(0, Math.ceil(ms));

function msValue(value: unknown): number | undefined {
  const v = toNumber(value);
  if (!v) return undefined;
  return ceil(v.unit === "s" ? v.n * 1000 : v.n);
}

function secondsValue(value: unknown): number | undefined {
  const v = toNumber(value);
  if (!v) return undefined;
  return ceil(v.unit === "ms" ? v.n : v.n * 1000);
}

function dateValue(value: unknown, nowMs: number): number | undefined {
  if (typeof value !== "string" || !/[a-z]|-/i.test(value)) return undefined;
  const at = Date.parse(value);
  return Number.isNaN(at) ? undefined : ceil(at - nowMs);
}

/** `Retry-After` holds either delta-seconds or an HTTP-date (RFC 9110 10.2.3). */
function delayFromText(value: unknown, nowMs: number): number | undefined {
  return secondsValue(value) ?? dateValue(value, nowMs);
}

/** Epoch seconds and epoch ms are far larger than any sensible delta. */
function resetHeader(value: unknown, nowMs: number): number | undefined {
  const v = toNumber(value);
  if (!v || v.unit) return secondsValue(value);
  if (v.n >= 1e12) return ceil(v.n - nowMs);
  if (v.n >= 1e9) return ceil(v.n * 1000 - nowMs);
  return ceil(v.n * 1000);
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function fromBody(body: unknown, nowMs: number): number | undefined {
  if (!isRecord(body)) return undefined;
  const places = [body, body.error, Array.isArray(body.errors) ? body.errors[0] : undefined, body.data];
  for (const place of places) {
    if (!isRecord(place)) continue;
    const found =
      msValue(place.retry_after_ms) ??
      msValue(place.retryAfterMs) ??
      delayFromText(place.retry_after, nowMs) ??
      delayFromText(place.retryAfter, nowMs) ??
      secondsValue(place.retry_after_seconds) ??
      dateValue(place.retry_at, nowMs) ??
      dateValue(place.reset_at, nowMs);
    if (found !== undefined) return found;
  }
  return undefined;
}
