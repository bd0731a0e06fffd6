/**
 * POST /api/pixel/:token, the storefront pixel's endpoint: a browser anywhere
 * may call it (CORS open, a simple text/plain request), so everything about it
 * is bounded: the body's size, its shape (app/ad-feed/pixel-signal.ts), the
 * rate per shop and per order, and the shop is the one the token names.
 */
import type { Db } from "../db.server";
import { PIXEL_BODY_LIMIT, readTextWithin } from "../http/body-limit.server";
import { receivePixelSignal } from "../ad-feed/clicks.server";

export const PIXEL_CORS_HEADERS = {
  "Access-Control-Allow-Origin": "*",
  "Access-Control-Allow-Methods": "POST, OPTIONS",
  "Access-Control-Allow-Headers": "content-type",
  "Access-Control-Max-Age": "86400",
  "Cache-Control": "no-store",
};

export async function answerPixelSignal(db: Db, token: string, request: Request): Promise<Response> {
  const headers = PIXEL_CORS_HEADERS;
  if (request.method !== "POST")
    return Response.json({ error: "method not allowed" }, { status: 405, headers: { ...headers, Allow: "POST" } });
  let body: string;
  try {
    body = await readTextWithin(request, PIXEL_BODY_LIMIT);
  } catch (error) {
    if (error instanceof Response) return new Response(null, { status: error.status, headers });
    throw error;
  }
  const answer = await receivePixelSignal(db, token, body);
  if (answer.status === 400) return Response.json({ error: answer.error }, { status: 400, headers });
  if (answer.status === 429) return new Response(null, { status: 429, headers: { ...headers, "Retry-After": "60" } });
  return new Response(null, { status: answer.status, headers });
}
