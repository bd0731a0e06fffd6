/**
 * Request body limits, enforced while the body is read (never after buffering
 * it): a declared Content-Length over the limit is refused before a byte is
 * read, a chunked body is counted and cut off at the limit. Every check that
 * needs the body (a webhook's HMAC, an event's signature) comes after.
 *
 * The limit is chosen from the normalised path, so the variants a router
 * accepts for the same route (`/webhooks/orders/create/`, upper case, double
 * slashes, percent-encoding, a query string) get the same limit.
 */

/**
 * Shopify sends whole orders. A line item of Shopify's sample order is 1.4 KB; an
 * order at the app's 500-line cap (MAX_LINE_ITEMS) is about 0.7 MB, and its
 * orders/updated, whose fulfilments and refunds repeat the lines, about 2.4 MB.
 * 4 MiB leaves room for longer line properties; the other topics are far smaller.
 */
export const WEBHOOK_BODY_LIMIT = 4 * 1024 * 1024;
/**
 * Values a Shopify webhook body may hold (an upper count: commas and opening
 * brackets; see app/http/webhook-json.ts). Shopify's sample line item holds 71 in
 * 1.4 KB, so real data within WEBHOOK_BODY_LIMIT stays under 230,000; past this,
 * JSON.parse alone would hold the event loop (400,000 empty line items: 30 ms).
 */
export const MAX_WEBHOOK_VALUES = 250_000;
/** A platform event names a lead and two statuses: a few hundred bytes. */
export const SELLER_EVENT_BODY_LIMIT = 64 * 1024;
/** The storefront pixel's message names an order and a few click ids: well under a kilobyte. */
export const PIXEL_BODY_LIMIT = 8 * 1024;
/** Admin forms and the extension's calls; the largest is a mappings CSV paste. */
export const DEFAULT_BODY_LIMIT = 5 * 1024 * 1024;

export class BodyTooLargeError extends Error {
  constructor(readonly limit: number) {
    super(`request body over ${limit} bytes`);
    this.name = "BodyTooLargeError";
  }
}

/** The path as a router sees it: decoded, lower case, single slashes, no trailing slash, no query. */
export function normalizedPath(url: string): string {
  let path = url.split(/[?#]/, 1)[0];
  try {
    path = decodeURIComponent(path);
  } catch {
    // A malformed escape: keep the raw text, it still gets a limit.
  }
  path = path
    .toLowerCase()
    .replace(/\\/g, "/")
    .replace(/\/{2,}/g, "/");
  if (path.length > 1) path = path.replace(/\/+$/, "");
  return path.startsWith("/") ? path : `/${path}`;
}

/** The most any request to this path may send. */
export function bodyLimitFor(url: string): number {
  const path = normalizedPath(url);
  if (path.startsWith("/webhooks/seller/")) return SELLER_EVENT_BODY_LIMIT;
  if (path.startsWith("/webhooks/")) return WEBHOOK_BODY_LIMIT;
  if (path.startsWith("/api/pixel/")) return PIXEL_BODY_LIMIT;
  return DEFAULT_BODY_LIMIT;
}

/** True when the request says it will send more than `limit` (or says it unreadably). */
export function declaresTooMuch(contentLength: string | null | undefined, limit: number): boolean {
  if (contentLength === null || contentLength === undefined || contentLength === "") return false;
  if (!/^\d+$/.test(contentLength.trim())) return true;
  return Number(contentLength) > limit;
}

/**
 * The stream, cut off with BodyTooLargeError once more than `limit` bytes went
 * through; `onExceeded` runs once, before the error reaches the reader.
 */
export function limitedStream(
  source: ReadableStream<Uint8Array>,
  limit: number,
  onExceeded: () => void = () => {},
): ReadableStream<Uint8Array> {
  const reader = source.getReader();
  let total = 0;
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      const { done, value } = await reader.read();
      if (done) return controller.close();
      total += value.byteLength;
      if (total > limit) {
        onExceeded();
        controller.error(new BodyTooLargeError(limit));
        await reader.cancel().catch(() => undefined);
        return;
      }
      controller.enqueue(value);
    },
    cancel(reason) {
      return reader.cancel(reason);
    },
  });
}

export const tooLargeResponse = (limit: number) =>
  new Response(`request body over ${limit} bytes`, { status: 413, headers: { Connection: "close" } });

/**
 * The body as text, read chunk by chunk and refused (a thrown 413 Response)
 * as soon as it passes `limit`: memory never holds more than the limit.
 */
export async function readTextWithin(request: Request, limit: number): Promise<string> {
  if (declaresTooMuch(request.headers.get("content-length"), limit)) throw tooLargeResponse(limit);
  if (!request.body) return "";
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    let chunk: ReadableStreamReadResult<Uint8Array>;
    try {
      chunk = await reader.read();
    } catch (error) {
      // Cut off upstream (server.ts counts too): the same answer.
      if (error instanceof BodyTooLargeError) throw tooLargeResponse(limit);
      throw error;
    }
    const { done, value } = chunk;
    if (done) break;
    total += value.byteLength;
    if (total > limit) {
      await reader.cancel().catch(() => undefined);
      throw tooLargeResponse(limit);
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks, total).toString("utf8");
}
