/**
 * Signed events from the COD platform: `X-Signature: sha256=<hex HMAC(secret,
 * timestamp + "." + body)>` and `X-Timestamp` (DESIGN section 5). An event is
 * only a trigger: the lead is re-read with GET, its payload never trusted.
 */
import { createHmac, timingSafeEqual } from "node:crypto";
import type { Db } from "../db.server";
import { enqueueJob } from "../queue/jobs.server";
import { refreshLeadJobFor } from "../sync/status-sync.server";
import { secretBoxFromEnv } from "../sync/seller-connection.server";

/** Older (or further in the future) than this, a signed event is refused as a replay. */
export const EVENT_TOLERANCE_SECONDS = 5 * 60;

export type SignatureCheck = { ok: true } | { ok: false; why: string };

export function verifyEventSignature(input: {
  secret: string;
  rawBody: string;
  signature: string | null;
  timestamp: string | null;
  nowSeconds: number;
}): SignatureCheck {
  if (!input.signature || !input.timestamp) return { ok: false, why: "missing X-Signature or X-Timestamp" };
  const ts = Number(input.timestamp);
  if (!Number.isInteger(ts)) return { ok: false, why: "malformed X-Timestamp" };
  if (Math.abs(input.nowSeconds - ts) > EVENT_TOLERANCE_SECONDS) return { ok: false, why: "stale X-Timestamp" };
  const expected = createHmac("sha256", input.secret).update(`${input.timestamp}.${input.rawBody}`).digest("hex");
  const given = input.signature.replace(/^sha256=/, "");
  const a = Buffer.from(expected, "hex");
  const b = Buffer.from(/^[0-9a-f]+$/i.test(given) ? given : "", "hex");
  if (a.length !== b.length || !timingSafeEqual(a, b)) return { ok: false, why: "signature does not match" };
  return { ok: true };
}

export async function receiveSellerEvent(db: Db, token: string, request: Request, now: Date = new Date()): Promise<Response> {
  const shop = await db.shop.findUnique({ where: { eventsToken: token } });
  if (!shop || shop.uninstalledAt) return Response.json({ error: "unknown events address" }, { status: 404 });
  if (!shop.eventsSecretCipher) {
    return Response.json({ error: "no events secret is set for this shop: set it in the app's Settings" }, { status: 401 });
  }
  const rawBody = await request.text();
  const check = verifyEventSignature({
    secret: secretBoxFromEnv().open(shop.eventsSecretCipher, { shop: shop.domain, purpose: "events-secret" }),
    rawBody,
    signature: request.headers.get("x-signature"),
    timestamp: request.headers.get("x-timestamp"),
    nowSeconds: Math.floor(now.getTime() / 1000),
  });
  if (!check.ok) return Response.json({ error: `event refused: ${check.why}` }, { status: 401 });
  let ref: unknown;
  try {
    ref = (JSON.parse(rawBody) as { ref?: unknown }).ref;
  } catch {
    return Response.json({ error: "the event body is not JSON" }, { status: 400 });
  }
  if (typeof ref !== "string" || !ref) return Response.json({ error: "the event names no lead ref" }, { status: 422 });
  await enqueueJob(db, refreshLeadJobFor(shop.domain, ref));
  return Response.json({ ok: true }, { status: 202 });
}
