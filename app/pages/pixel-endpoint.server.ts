/**
 * POST /api/pixel/:token, the storefront pixel's endpoint: a browser anywhere
 * may call it (CORS open, a simple text/plain request), so everything about it
 * is bounded: the body's size, its shape (app/ad-feed/pixel-signal.ts), the
 * rate per shop and per order, and the shop is the one the token names.
 */
import prisma from "../db.server";
import { PIXEL_BODY_LIMIT, readTextWithin } from "../http/body-limit.server";
import { receivePixelSignal } from "../ad-feed/clicks.server";

export const PIXEL_CORS_HEADERS = {
  "Access-Control-Allow-Origin": "*",
  "Access-Control-Allow-Methods": "POST, OPTIONS",
  "Access-Control-Allow-Headers": "content-type",
  "Access-Control-Max-Age": "86400",
  "Cache-Control": "no-store",
};

/** The browser's CORS preflight; anything else that is not a POST is refused. */
export function answerPixelPreflight(request: Request): Response {
  return request.method === "OPTIONS"
    ? new Response(null, { status: 204, headers: PIXEL_CORS_HEADERS })
    : Response.json(
        { error: "method not allowed" },
        { status: 405, headers: { ...PIXEL_CORS_HEADERS, Allow: "POST" } },
      );
}

export async function answerPixelSignal(token: string, request: Request): Promise<Response> {
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
  const answer = await receivePixelSignal(prisma, token, body);
  if (answer.status === 400) return Response.json({ error: answer.error }, { status: 400, headers });
  if (answer.status === 429) return new Response(null, { status: 429, headers: { ...headers, "Retry-After": "60" } });
  return new Response(null, { status: answer.status, headers });
}
