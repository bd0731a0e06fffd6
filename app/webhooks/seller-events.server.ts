/**
 * Signed events from the COD platform: `X-Signature: sha256=<hex HMAC(secret,
 * timestamp + "." + body)>` and `X-Timestamp` (DESIGN section 5). An event is
 * only a trigger: the lead is re-read with GET, its payload never trusted.
 */
import { createHash, createHmac, timingSafeEqual } from "node:crypto";
import type { Db } from "../db.server";
import { readTextWithin, SELLER_EVENT_BODY_LIMIT } from "../http/body-limit.server";
import { isUniqueViolation, processWebhookOnce } from "../models/webhook-delivery.server";
import { enqueueJob } from "../queue/jobs.server";
import { secretBoxFromEnv } from "../env.server";
import { refreshLeadJobFor } from "../models/job-kinds";
import { log } from "../runtime/logger.server";

/** Older (or further in the future) than this, a signed event is refused as a replay. */
export const EVENT_TOLERANCE_SECONDS = 5 * 60;

/** WebhookDelivery.topic of the platform's events (replay and duplicate records). */
export const SELLER_EVENT_TOPIC = "SELLER_EVENT";

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

/**
 * Every refusal gets this one answer, whatever the cause (unknown or revoked
 * address, no secret, stale time, bad signature, replay): a caller cannot tell
 * a live address from a dead one. The cause goes to the server log only.
 */
export function eventRefused(): Response {
  return Response.json({ error: "event refused" }, { status: 401, headers: { "Cache-Control": "no-store" } });
}

function refuse(why: string): Response {
  log.warn(`platform event refused: ${why}`, { topic: "platform_events" });
  return eventRefused();
}

/** The time check alone, before any lookup: a stale or future X-Timestamp is refused first. */
export function timestampFresh(timestamp: string | null, nowSeconds: number): boolean {
  if (!timestamp || !/^\d{1,12}$/.test(timestamp)) return false;
  return Math.abs(nowSeconds - Number(timestamp)) <= EVENT_TOLERANCE_SECONDS;
}

/** Longest X-Event-Id kept for de-duplication (the sandbox's are 20 characters). */
const MAX_EVENT_ID_LENGTH = 200;

/**
 * POST /webhooks/seller/:token. In order: the body is read within its limit
 * (413 past it, whatever the token), then the time window, the address and
 * its secret, the signature, and last the replay check: the same signed
 * request (same timestamp and signature) is accepted once. A platform retry
 * is re-signed with a new timestamp, so it passes that check; its X-Event-Id
 * then makes it a duplicate, acknowledged without queuing the refresh again.
 */
export async function receiveSellerEvent(
  db: Db,
  token: string,
  request: Request,
  now: Date = new Date(),
): Promise<Response> {
  if (request.method !== "POST")
    return Response.json({ error: "method not allowed" }, { status: 405, headers: { Allow: "POST" } });
  let rawBody: string;
  try {
    rawBody = await readTextWithin(request, SELLER_EVENT_BODY_LIMIT);
  } catch (thrown) {
    if (thrown instanceof Response) return thrown;
    throw thrown;
  }
  const nowSeconds = Math.floor(now.getTime() / 1000);
  const timestamp = request.headers.get("x-timestamp");
  if (!timestampFresh(timestamp, nowSeconds)) return refuse("missing, malformed or stale X-Timestamp");

  const shop = token && token.length <= 100 ? await db.shop.findUnique({ where: { eventsToken: token } }) : null;
  if (!shop || shop.uninstalledAt) return refuse("unknown or uninstalled events address");
  if (!shop.eventsSecretCipher) return refuse(`${shop.domain}: no events secret is set`);
  let secret: string;
  try {
    secret = secretBoxFromEnv().open(shop.eventsSecretCipher, { shop: shop.domain, purpose: "events-secret" });
  } catch {
    return refuse(`${shop.domain}: the events secret cannot be opened with this ENCRYPTION_KEY`);
  }
  const signature = request.headers.get("x-signature");
  const check = verifyEventSignature({ secret, rawBody, signature, timestamp, nowSeconds });
  if (!check.ok) return refuse(`${shop.domain}: ${check.why}`);

  // Replay: this exact signed request, remembered past the time window (retention prunes it).
  const signed = createHash("sha256").update(`${shop.id}\n${timestamp}\n${signature}`).digest("hex");
  try {
    await db.webhookDelivery.create({
      data: { id: `seller-signature:${signed}`, shop: shop.domain, topic: SELLER_EVENT_TOPIC },
    });
  } catch (error) {
    if (isUniqueViolation(error)) return refuse(`${shop.domain}: replayed event`);
    throw error;
  }

  let ref: unknown;
  try {
    ref = (JSON.parse(rawBody) as { ref?: unknown }).ref;
  } catch {
    return Response.json({ error: "the event body is not JSON" }, { status: 400 });
  }
  if (typeof ref !== "string" || !ref) return Response.json({ error: "the event names no lead ref" }, { status: 422 });
  const job = refreshLeadJobFor(shop.domain, ref);
  const eventId = request.headers.get("x-event-id")?.trim().slice(0, MAX_EVENT_ID_LENGTH);
  if (!eventId) {
    await enqueueJob(db, job);
  } else {
    // The event's row and its job commit together: a failure leaves neither, and the retry does the work.
    const delivery = { id: `seller-event:${shop.id}:${eventId}`, shop: shop.domain, topic: SELLER_EVENT_TOPIC };
    await processWebhookOnce(db, delivery, async (tx) => void (await enqueueJob(tx, job)));
  }
  return Response.json({ ok: true }, { status: 202 });
}
